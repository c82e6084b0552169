"""The gettext catalogues (``<lang>/LC_MESSAGES/<domain>.po`` and compiled ``.mo``).

``python -m civcards.locale template`` writes each domain's template
(``<domain>.pot``) from the English catalogue, the source of the message ids;
``pybabel update`` and ``pybabel compile`` do the rest (docs/translations.md,
``make translations-update`` and ``make translations``).
"""

"""One module per ``civcards`` sub-command; each has ``register(app)``."""

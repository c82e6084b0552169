"""The tests of CIV (the package ``civcards.carta`` and ``civcards.games.carta``)."""

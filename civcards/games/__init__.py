"""The registrations of the games civcards ships: one package per game.

Each ``civcards.games.<name>`` package holds everything game-specific above
its pure rules engine: the :class:`civcards.game_api.Game` object ``GAME``,
its words (``text``), its bots' heuristics, its research encoding, its
terminal screen and its web view. See ``docs/architecture.md``.
"""

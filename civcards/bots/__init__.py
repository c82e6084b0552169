"""Bots: programs that play any registered game from a seat's choices and observation.

Bot names are looked up per game: the generic bots (``random`` for every game,
``ismcts`` for every game that can be searched, :func:`civcards.bots.search.search_kit`;
``net`` and ``ismcts+net`` where the game also ships a learned network,
:mod:`civcards.bots.netsearch`)
and the game's own (:meth:`civcards.game_api.Game.bots`, e.g. CIV's ``greedy``)::

    >>> from civcards.game_api import get_game
    >>> game = get_game("carta")
    >>> bot_names(game)
    ['greedy', 'ismcts', 'ismcts+net', 'net', 'random']
    >>> state = game.new_state(2, {}, seed=1)
    >>> bot = make_bot(game, "random", seed=1)
    >>> game.play(state, bot_move(bot, game, state))
    'play M'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..game_api import Game
from .base import Bot, BotError, Decision, bot_choice, bot_move
from .random_bot import RandomBot

#: a generic bot's factory: (game, the text after ':' or None, seed) -> bot
GenericFactory = Callable[[Game, "str | None", "int | None"], Bot]


def _random(game: Game, arg: str | None, seed: int | None) -> Bot:
    return RandomBot(seed)


def _ismcts(game: Game, arg: str | None, seed: int | None) -> Bot:
    from .ismcts import make_ismcts

    return make_ismcts(game, arg, seed)


def _net(game: Game, arg: str | None, seed: int | None) -> Bot:
    from .netsearch import make_net

    return make_net(game, arg, seed)


def _net_search(game: Game, arg: str | None, seed: int | None) -> Bot:
    from .netsearch import make_net_search

    return make_net_search(game, arg, seed)


#: the bots every game may use: name -> (factory, whether the game must be searchable)
GENERIC: dict[str, tuple[GenericFactory, bool]] = {
    "random": (_random, False),
    "ismcts": (_ismcts, True),
    "net": (_net, True),
    "ismcts+net": (_net_search, True),
}
#: the generic bots that play with a learned network: listed where the game ships one
#: (:func:`civcards.bots.netsearch.has_network`); ``net:FILE`` plays any game with a file
NETWORK_BOTS = frozenset({"net", "ismcts+net"})


def _own(game: Game) -> Mapping[str, Callable[[str | None, int | None], Any]]:
    hook = getattr(game, "bots", None)
    return hook() if hook is not None else {}


def bot_names(game: Game) -> list[str]:
    """The bots ``game`` can be played by, sorted."""
    from .search import searchable

    names = set(_own(game))
    for name, (_, needs_search) in GENERIC.items():
        if name in NETWORK_BOTS:
            from .netsearch import has_network

            if not (searchable(game) and has_network(game)):
                continue
        if not needs_search or searchable(game):
            names.add(name)
    return sorted(names)


#: the searches a table may use at its strongest (:func:`table_search`)
TABLE_SEARCHES = ("ismcts", "ismcts+net")


def table_search(game: Game) -> str:
    """The search the table uses for ``game`` at its strongest: the lobby's top level, the
    hints and the post-game review. ``ismcts``, unless the game's registration names
    another (its optional ``table_search``, set where an arena showed that search stronger
    at the table's budgets, issue 37) that the game can be played by here.

    >>> from civcards.game_api import get_game
    >>> table_search(get_game("civ4"))
    'ismcts'
    """
    name = getattr(game, "table_search", None) or "ismcts"
    return name if name in TABLE_SEARCHES and name in bot_names(game) else "ismcts"


def make_bot(game: Game, spec: str, seed: int | None = None, *, files: bool = True) -> Bot:
    """Build a bot of ``game`` from a name such as ``random`` or ``greedy`` (``name:arg``
    allowed: ``ismcts:2000it``). ``files=False`` refuses a bot that would read a file
    named in its spec (``net:FILE``): a server never opens a path a client chose.

    Raises ValueError with a sentence for a name ``game`` has no bot of.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text, not {spec!r}")
    name, _, arg = spec.strip().partition(":")
    key = name.lower()
    if not files and key in NETWORK_BOTS:
        from .netsearch import names_weights_file

        if names_weights_file(key, arg or None):
            raise ValueError(
                f"{spec.strip()!r} names a weights file; here {key} plays the game's "
                "shipped network only"
            )
    own = _own(game)
    if key in own:
        bot: Bot = own[key](arg or None, seed)
        return bot
    generic = GENERIC.get(key)
    if generic is not None:
        from .search import searchable

        factory, needs_search = generic
        if not needs_search or searchable(game):
            return factory(game, arg or None, seed)
    raise ValueError(
        f"unknown bot {spec.strip()!r}; the bots of {game.title} are: {', '.join(bot_names(game))}"
    )


__all__ = [
    "GENERIC",
    "NETWORK_BOTS",
    "TABLE_SEARCHES",
    "Bot",
    "BotError",
    "Decision",
    "RandomBot",
    "bot_choice",
    "bot_move",
    "bot_names",
    "make_bot",
    "table_search",
]

"""The one game interface: what every layer above the rules needs from a game.

A *game* is a pure rules package (``civcards/<engine>/``, standard library only)
plus one *registration*: an object satisfying :class:`Game` that the registry
below hands out by name. Bots, sims, the server, the terminal, the research
environments and the command line reach a game only through this module.

The models are OpenSpiel's ``Game``/``State`` (one explicit state, observers
apart from it, one conformance test for all games) and boardgame.io's game
definition (set-up, moves, ``playerView``) plus a generic framework.

The life of a game through the interface::

    >>> from civcards.game_api import get_game
    >>> game = get_game("carta")
    >>> opts = game.check_options(2, {"deal": "basic"})   # one sentence per bad option
    >>> state = game.new_state(2, opts, seed=7)
    >>> seat = state.to_move
    >>> choices = game.choices(state)                    # what that seat may choose, factored
    >>> pick = choices[0]
    >>> if not pick.final:                               # a step (hidden cards, or a large choice)
    ...     pick = game.expand(state, pick).choices[0]
    >>> game.play(state, pick.text) == pick.text          # parse once, check, apply
    True
    >>> obs = game.observe(state, seat)                   # a typed value; .to_json() at the edges
    >>> rec = game.record(state)                          # {"format": ..., ..., "moves": [...]}
    >>> game.legal(game.from_record(rec)) == game.legal(state)
    True

Moves travel as their canonical notation (``str``) between layers. Inside a
process a :class:`Choice` may also carry the game's own move value
(``Choice.move``) so that a bot's pick is applied without parsing it again
(:meth:`Game.apply_choice`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

# --------------------------------------------------------------------------- errors


class GameError(ValueError):
    """Base of the interface's errors; the message is one plain sentence."""


class OptionsError(GameError):
    """A set-up that cannot be played (bad player count, unknown or bad option).

    Its message is the English sentence (the terminal's); a game that gives ``key`` and
    ``fields`` names the same sentence in its catalogue, so that a server can say it in its
    reader's language (:meth:`words`). :meth:`of` makes one from a catalogue key.
    """

    def __init__(
        self, message: str, key: str | None = None, fields: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.key = key
        self.fields = dict(fields or {})

    @classmethod
    def of(cls, key: str, /, **fields: object) -> OptionsError:
        """The error whose sentence is the catalogue's text of ``key`` (English in the message)."""
        from .i18n import t

        return cls(t("en", key, **fields), key, fields)

    def words(self, lang: str) -> str:
        """The sentence in ``lang`` (the English one when the error names no catalogue text)."""
        from .i18n import MESSAGES, t

        if self.key is None or self.key not in MESSAGES:
            return str(self)
        return t(lang, self.key, **self.fields)


class MoveError(GameError):
    """A move that cannot be read, or is not legal now. The state is unchanged."""


class RecordError(GameError):
    """A record that is not valid (unknown format, bad field)."""


class UnknownGameError(GameError):
    """No game of that name (or record format) is registered."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class OptionSpec:
    """One set-up option of a game (a variant), as the lobby and the CLI show it.

    ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``. ``choices`` lists the
    values of a ``"choice"``; ``minimum``/``maximum`` bound an ``"int"``.
    ``player_defaults`` gives the default of a player count where it differs from
    ``default`` (``((2, True),)``: on by default at 2 players); a given value always wins.

    >>> spec = OptionSpec("finish_round", "bool", False, "C68", player_defaults=((2, True),))
    >>> spec.default_for(2), spec.default_for(3), spec.default_for(None)
    (True, False, False)
    >>> spec.to_json()["player_defaults"]
    {'2': True}
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    player_defaults: tuple[tuple[int, Any], ...] = ()

    def default_for(self, players: int | None) -> Any:
        """The default of a game of ``players`` players (None: the plain ``default``)."""
        for n, value in self.player_defaults:
            if n == players:
                return value
        return self.default

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.player_defaults:
            # JSON's keys are strings: {"2": true} is the default at 2 players
            out["player_defaults"] = {str(n): v for n, v in self.player_defaults}
        return out


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of the seat to move.

    * ``final``: ``text`` is the canonical notation of a whole move.
    * not ``final``: ``text`` names a *step* (for example a purchase before its
      payment is chosen, or an effect whose cards the seat has not seen yet);
      :meth:`Game.expand` gives the choices below it.
    * ``hidden``: expanding shows the seat cards it could not see before, so
      choosing it is binding (the seat may not back out and choose again).

    ``move`` is the game's own move value for a final choice, or None; it only
    lives inside one process (never compared, never serialised).
    """

    text: str
    final: bool = True
    hidden: bool = False
    move: Any = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "final": self.final, "hidden": self.hidden}


@dataclass(frozen=True)
class Expansion:
    """What choosing a step revealed to its seat (game-specific, JSON-safe, or
    None), and the choices below it."""

    reveal: Any
    choices: list[Choice]


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``winners`` are seats (several for a shared or team victory); ``reason`` is
    the game's word for how it ended (CIV: ``"hegemony"``/``"majority"``);
    ``scores`` is one number per seat, higher is better (the game's main
    score; ties are broken as its rules say); ``shared`` says the victory is
    shared between rivals rather than won by one side.
    """

    winners: tuple[int, ...]
    reason: str | None
    scores: tuple[float, ...]
    shared: bool = False
    #: game-specific details (JSON-safe), e.g. CIV's hegemony domain
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": list(self.scores),
            "shared": self.shared,
            "details": dict(self.details),
        }


# --------------------------------------------------------------------------- protocols


@runtime_checkable
class Observation(Protocol):
    """A seat's view of a game: exactly what its rules let that seat know.

    ``seat`` is None for a spectator. ``to_json`` is the only way out to the
    edges (HTTP, WebSocket, files).
    """

    def to_json(self) -> dict[str, Any]: ...


class State(Protocol):
    """A game in progress. Mutable; :meth:`copy` is cheap."""

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is, None once the game is over."""
        ...

    @property
    def finished(self) -> bool: ...

    @property
    def n(self) -> int:
        """The number of players."""
        ...

    @property
    def turn(self) -> int:
        """A counter of turns (or rounds) for reports; games define its unit."""
        ...

    def copy(self) -> Any: ...


class Sampler(Protocol):
    """Deals full states consistent with one seat's information set."""

    def sample(self, rng: Any) -> Any: ...


class Game(Protocol):
    """A game's registration: everything the platform needs, in one object.

    Required members are below. Optional capabilities are ``None`` when a game
    does not offer them: ``determinizer`` (for the information-set search) and
    ``encoding`` (an action encoding and observation tensor for the research
    environments).
    """

    #: the registry name (``--game NAME``), lower case
    name: str
    #: the title players read
    title: str
    min_players: int
    max_players: int
    #: the set-up options (variants), in display order
    options: Sequence[OptionSpec]
    #: the ``format`` values of this game's records
    record_formats: Sequence[str]
    #: the keys of an observation's JSON that hold the public move log: a
    #: determinized state (:meth:`determinizer`) need not rebuild them
    observation_log_keys: Sequence[str]

    # -- set-up ---------------------------------------------------------------

    def check_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The full, normalised option set for ``players`` (defaults filled in).

        Raises :class:`OptionsError` with one sentence for the first bad option
        or player count. This is the only place a game's set-up is checked.
        """
        ...

    def new_state(self, players: int, options: Mapping[str, Any], seed: int | None) -> Any:
        """A new game; ``options`` as :meth:`check_options` returned them."""
        ...

    def from_record(self, record: Mapping[str, Any]) -> Any:
        """The live state after all the moves of a parsed record (checked).

        Raises :class:`RecordError` for an invalid record, :class:`MoveError`
        for an illegal move (naming its index).
        """
        ...

    def record(self, state: Any, names: Sequence[str] | None = None) -> dict[str, Any]:
        """The record of ``state`` (JSON-safe; holds its format, set-up, piles, moves)."""
        ...

    def setup_record(self, state: Any) -> dict[str, Any]:
        """The record of ``state`` without its moves (what a server stores once)."""
        ...

    # -- moves -----------------------------------------------------------------

    def canonical(self, text: str) -> str:
        """The canonical notation of ``text``; :class:`MoveError` if unreadable."""
        ...

    def play(self, state: Any, text: str) -> str:
        """Parse ``text`` once, check it, apply it, return its canonical text.

        Raises :class:`MoveError` with the reason (see :meth:`why_not`) and
        leaves ``state`` unchanged when it cannot be played.
        """
        ...

    def apply_choice(self, state: Any, choice: Choice) -> str:
        """Apply a final choice that :meth:`choices`/:meth:`expand` gave for
        ``state`` (no parsing, no re-checking); return its canonical text."""
        ...

    def legal(self, state: Any) -> list[str]:
        """Every legal move, canonical and in canonical order (exact)."""
        ...

    def choices(self, state: Any) -> list[Choice]:
        """The choices of the seat to move, as that seat sees them (factored)."""
        ...

    def expand(self, state: Any, choice: Choice) -> Expansion:
        """The choices below a step; :class:`MoveError` if it is not one now."""
        ...

    def why_not(self, state: Any, text: str) -> str:
        """Why ``text`` cannot be played now by the seat to move: one sentence
        that never depends on what that seat cannot see."""
        ...

    def choice_path(self, state: Any, move: str) -> list[Choice]:
        """The choices that lead to ``move`` in ``state``: one of :meth:`choices`, then
        one of the :meth:`expand` of each step before it; the last is final, with the
        move's canonical text. The game names the steps from the move itself (it knows
        the steps of its own moves), never by searching the tree of choices.
        :class:`MoveError` with a sentence when ``move`` is not legal now. Without this
        member the generic :func:`choice_path` searches the whole tree (exact, slow for
        a large decision)."""
        ...

    # -- views -----------------------------------------------------------------

    def observe(self, state: Any, seat: int | None) -> Observation:
        """What ``seat`` (None: a spectator) may know of ``state``."""
        ...

    def result(self, state: Any) -> Result | None:
        """How the game ended, None while it is on."""
        ...

    def position_json(self, state: Any, legal: bool = False) -> dict[str, Any]:
        """The whole position as ``civcards replay --json`` prints it."""
        ...

    # -- words (UI-neutral: used by the web table and the terminal) --------------

    def describe_move(
        self, text: str, names: Sequence[str], lang: str = "en", *, past: bool = False
    ) -> str:
        """A move in words, in ``lang``."""
        ...

    def describe_result(self, state: Any, names: Sequence[str], lang: str = "en") -> str:
        """How the finished game ended, in one sentence in ``lang``."""
        ...

    # -- bots and sims ----------------------------------------------------------

    def bots(self) -> Mapping[str, Callable[[str | None, int | None], Any]]:
        """This game's own bots: name -> factory(argument after ':', seed)."""
        ...

    def sim_row(self, state: Any) -> dict[str, Any]:
        """The game-specific columns of a finished game's row for ``simulate --out``
        (the names of :meth:`sim_columns`; None for a seat the game does not have)."""
        ...

    # -- bots ---------------------------------------------------------------------------
    # (the generic bots, civcards/bots; a game without these members gets the defaults)

    def search_kit(self) -> Any | None:
        """A fresh search kit for ``ismcts`` (a :class:`civcards.bots.search.SearchKit`:
        the game's fast move lists, leaf values, model of rivals), or None for the
        generic kit (the interface and random playouts), offered where the game has a
        :meth:`determinizer`."""
        ...

    #: the search the table uses at its strongest (the lobby's top level, hints and the
    #: review, :func:`civcards.bots.table_search`): ``"ismcts+net"`` where an arena showed
    #: the network-guided search stronger at the table's budgets, else ``"ismcts"``
    table_search: str

    # -- sims ---------------------------------------------------------------------------
    # (simulate --out rows and civcards report, civcards/sim)

    def sim_columns(self) -> Mapping[str, str]:
        """The columns :meth:`sim_row` fills, in file order: name -> ``"int"``,
        ``"str"`` or ``"bool"`` (for the largest player count)."""
        ...

    def report_sections(self, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The game's own sections of ``civcards report``, for the rows of one
        configuration: dicts with ``key``, ``title``, ``columns`` (labels) and
        ``values`` (one number a column: the configuration's row of the section's
        table), optionally ``note`` (Markdown under the table), ``finding`` (one
        sentence) and ``plot`` (a bar chart of the rows: ``{"file", "title",
        "label"}``, optional ``"values"`` to plot instead, ``"horizontal": true``)."""
        ...

    def report_overview(self, rows: Sequence[Mapping[str, Any]], folder: Any) -> dict[str, Any]:
        """Optional: the game's view of every row of ``civcards report`` at once (questions
        that compare configurations or bots): ``{"markdown": …, "summary": …}``; the
        Markdown goes before the findings, the JSON-ready summary into ``summary.json``
        (``"overview"``); it may write PNG plots into ``folder`` (a :class:`pathlib.Path`)."""
        ...

    def random_playout(self, state: Any, rng: Any) -> int:
        """Play ``state`` to its end, each move uniform over the legal moves drawn with
        ``rng`` (a :class:`random.Random`), as fast as the engine can; the moves played
        (``civcards bench``: the engine's speed, the yardstick of the bot layer's)."""
        ...

    # -- command line -------------------------------------------------------------------
    # (civcards/commands; optional: a game without it gets the generic behaviour)

    def replay_cli(
        self, text: str, *, json_out: bool = False, legal: bool = False, seat: int | None = None
    ) -> tuple[int, str]:
        """``civcards replay`` of the record ``text``: (exit status, what to print).
        0: it replays to its end; 1: a move is illegal (the position before it); 2: not a
        valid record (printed on stderr without ``--json``). Without this member the
        command replays through :meth:`from_record` and :meth:`position_json`."""
        ...

    # -- server (the web table) ---------------------------------------------------
    # (members the game-agnostic server needs are added here)
    #: the game's front-end ES module, a path under the web table's ``/static/``
    #: (``"games/carta/carta.js"``); None: the generic table module shows the game
    web_module: str | None
    #: the folder of the game's own front-end files (its module, style sheets), which the
    #: web table serves under ``/static/games/<name>/``; None: the game brings none
    web_assets: str | None
    #: catalogue keys of the lobby's words for the options: ``"name"`` -> the key of
    #: the option's label, ``"name=value"`` -> the key of a choice's label, ``"name:help"``
    #: -> the key of the option's tip, ``"name=value:help"`` -> a choice's line (a label
    #: without a key is the option's help, a choice's is its value, a tip's the help);
    #: ``"title"`` -> the key of the game's title in the page's language (without it, the
    #: web table shows :attr:`title`)
    web_texts: Mapping[str, str]

    def web_view(
        self,
        state: Any,
        seat: int | None,
        names: Sequence[str],
        lang: str = "en",
        obs: Any = None,
    ) -> dict[str, Any]:
        """What the game's front-end module shows beyond the observation of ``seat``
        (None: a spectator), JSON-safe, in ``lang``, and only what that seat may know.
        ``obs``: that seat's observation (:meth:`observe`) when the caller has built it
        already, as the web table has for every frame; None: the game builds it.

        The table shell reads these keys: ``log``, the public move log in words (a
        list of ``{"seat", "text", "words"}``); ``result``, the game's words on
        a finished game (a dict merged into the view's result, e.g. ``"why"``; its
        ``"hands"``, a list of ``{"seat", "words"}``, are every final hand, given
        once the game is over); and ``standing`` (optional), who leads now as the
        seat sees it: ``{"title", "lead", "rows": [{"seat", "text", "lead"}],
        "note"}`` (words in ``lang``). The rest is the module's own.
        """
        ...

    def rules_page(self, lang: str = "en", options: Mapping[str, Any] | None = None) -> str:
        """The game's rules written for players, in ``lang``: CommonMark without raw
        HTML, short, with examples (the web table's ``/rules/{game}``). ``options``
        (as :meth:`check_options` returns them; None: a new game's) are the set-up of
        the game the page is for, where its numbers depend on them (civ4's card set).
        A game without this member gets a page with its title and options only."""
        ...

    def card_reference(
        self, lang: str = "en", options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Every card or effect of the game with what it does, in ``lang``:
        ``{"title", "note", "sections": [{"title", "cards": [{"name", "text",
        "tags"}]}]}`` (``note``: a line shown above it, e.g. that the card set is a
        reconstruction; ``tags``: short facts such as a cost or a level), for a game
        set up with ``options`` (None: a new game's)."""
        ...

    # -- terminal ------------------------------------------------------------------
    # (members the generic terminal loop needs are added here)

    def terminal_screen(self) -> Any | None:
        """This game's screen for ``civcards play``: an object satisfying
        :class:`civcards.terminal.protocol.TerminalScreen` (the board, help,
        log, result and menus drawn with Rich), or None for the terminal's
        plain screen. Import Rich lazily inside it: only the terminal calls
        this, so no other process loads Rich."""
        ...

    # -- research (optional: PettingZoo, Gymnasium, OpenSpiel) ----------------------

    def encoding(self) -> Any | None:
        """The game's fixed action space and observation tensor (an object
        satisfying :class:`civcards.envs.protocol.Encoding`), or None where the
        game offers none; ``civcards.envs`` wraps any game that has one."""
        ...

    # -- optional capabilities ---------------------------------------------------

    def determinizer(
        self, observation: Any, reveal: Any = None, chosen: str | None = None
    ) -> Sampler | None:
        """A sampler of states consistent with ``observation`` (after an
        expansion, with what it revealed), or None where the game offers no
        search at this point."""
        ...


# --------------------------------------------------------------------------- registry

#: the games that ship with civcards: name -> module whose ``GAME`` registers it
BUILTIN: dict[str, str] = {
    "carta": "civcards.games.carta",
    "civ4": "civcards.games.civ4",
}

_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry (a test or a plug-in may add its own)."""
    _REGISTRY[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (tests)."""
    _REGISTRY.pop(name, None)


def _load_builtins() -> None:
    for name, module in BUILTIN.items():
        if name not in _REGISTRY:
            mod = importlib.import_module(module)
            register(mod.GAME)


def game_names() -> list[str]:
    """The registered games' names, sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def all_games() -> list[Game]:
    """Every registered game, by name."""
    _load_builtins()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_game(name: str) -> Game:
    """The game registered as ``name``; :class:`UnknownGameError` with a sentence if none."""
    key = str(name).strip().lower()
    if key in BUILTIN and key not in _REGISTRY:
        register(importlib.import_module(BUILTIN[key]).GAME)
    game = _REGISTRY.get(key)
    if game is None:
        raise UnknownGameError(
            f"there is no game {name!r}; the games are: {', '.join(game_names())}"
        )
    return game


DEFAULT_GAME = "carta"


def game_for_record(record: Mapping[str, Any]) -> Game:
    """The game a parsed record belongs to, found by its ``format``."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    fmt = record.get("format")
    if not isinstance(fmt, str):
        raise RecordError("the record has no 'format' field naming its game's notation")
    for game in all_games():
        if fmt in game.record_formats:
            return game
    known = ", ".join(f for g in all_games() for f in g.record_formats)
    raise RecordError(f"unknown record format {fmt!r}; the formats are: {known}")


def choice_path(game: Game, state: Any, move: str) -> list[Choice]:
    """The path of choices of ``game`` to ``move`` in ``state`` (:meth:`Game.choice_path`),
    for any game: a game without that member is searched through its whole tree of
    choices, every step expanded (exact, never bounded, but slow for a large decision).
    :class:`MoveError` with a sentence when ``move`` is not among the choices."""
    own = getattr(game, "choice_path", None)
    if own is not None:
        return list(own(state, move))
    return search_choice_path(game, state, move)


def search_choice_path(game: Game, state: Any, move: str) -> list[Choice]:
    """The path of choices to ``move`` found by searching the whole tree of choices of
    ``state`` (every step expanded, depth first): the generic :func:`choice_path`, and
    the yardstick a game's own :meth:`Game.choice_path` is checked against."""
    canon = game.canonical(move)
    stack: list[tuple[Choice, ...]] = [(c,) for c in reversed(game.choices(state))]
    while stack:
        path = stack.pop()
        last = path[-1]
        if last.final:
            if last.text == canon:
                return list(path)
            continue
        below = game.expand(state, last).choices
        stack.extend((*path, c) for c in reversed(below))
    raise MoveError(f"{canon!r} is not among the choices of this position")


def default_options(game: Game, players: int | None = None) -> dict[str, Any]:
    """Every option of ``game`` at its default (for a game of ``players`` players, where
    an option's default depends on it: :attr:`OptionSpec.player_defaults`)."""
    return {o.name: o.default_for(players) for o in game.options}


def option_value(spec: OptionSpec, text: str) -> Any:
    """The value of option ``spec`` written as ``text`` (a bool as true/false, yes/no,
    on/off or 1/0; an int in digits; a choice as it is); ValueError with a sentence."""
    if spec.kind == "bool":
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"the option {spec.name!r} is true or false, not {text!r}")
    if spec.kind == "int":
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"the option {spec.name!r} is a whole number, not {text!r}") from None
    return text.strip()


def parse_option_texts(
    game: Game, texts: Sequence[str] | None, flag: str = "--option"
) -> dict[str, Any]:
    """The options written ``NAME=VALUE`` (the CLI's ``--option``, the rules page's
    ``?option=``), typed by the game's option specs (the game checks their values
    itself); ValueError with a sentence for a malformed one.

    >>> parse_option_texts(get_game("civ4"), ["cards=reconstructed-1", "finish_round=yes"])
    {'cards': 'reconstructed-1', 'finish_round': True}
    """
    specs = {o.name: o for o in game.options}
    out: dict[str, Any] = {}
    for text in texts or ():
        name, eq, value = text.partition("=")
        name = name.strip()
        if not eq or not name:
            raise ValueError(f"{flag} {text!r}: write NAME=VALUE")
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(specs) or "none"
            raise ValueError(f"{game.title} has no option {name!r}; its options are: {known}")
        out[name] = option_value(spec, value)
    return out


__all__ = [
    "BUILTIN",
    "DEFAULT_GAME",
    "Choice",
    "Expansion",
    "Game",
    "GameError",
    "MoveError",
    "Observation",
    "OptionSpec",
    "OptionsError",
    "RecordError",
    "Result",
    "Sampler",
    "State",
    "UnknownGameError",
    "all_games",
    "choice_path",
    "default_options",
    "game_for_record",
    "game_names",
    "get_game",
    "option_value",
    "parse_option_texts",
    "register",
    "search_choice_path",
    "unregister",
]

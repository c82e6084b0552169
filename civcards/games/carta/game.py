"""CIV's registration: :class:`CartaGame`, the :class:`civcards.game_api.Game` of ``carta``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from pathlib import Path
from typing import Any

from ... import carta
from ...carta.cards import LETTERS, counts_to_str
from ...carta.explain import why_illegal
from ...carta.game import GameState
from ...carta.moves import Move, move_text
from ...carta.observation import SECRET_MARK, shared_views
from ...game_api import (
    Choice,
    Expansion,
    MoveError,
    Observation,
    OptionsError,
    OptionSpec,
    RecordError,
    Result,
    Sampler,
)

#: the ``?`` steps: kinds whose full moves depend on cards the mover has not seen yet
HIDDEN_KINDS = ("discovery", "inquisition")

_BY_TEXT = attrgetter("text")

_DISCOVERY_STEP = Choice(f"discovery discard {SECRET_MARK}", final=False, hidden=True)
_INQUISITION_STEPS = tuple(
    Choice(f"inquisition {s} give {SECRET_MARK}", final=False, hidden=True) for s in range(4)
)
#: the seat each hidden step's text names (-1: Discovery)
_STEP_SEAT = {_DISCOVERY_STEP.text: -1} | {c.text: s for s, c in enumerate(_INQUISITION_STEPS)}


#: the choice of each move (memoised; choices are immutable)
_OF_MOVE: dict[Move, Choice] = {}


def _choice_of(m: Move) -> Choice:
    """The choice that stands for ``m``: Discovery and Inquisition are hidden steps when
    their move names cards (:meth:`GameState.raw_moves` names the cards exactly while
    the deck, or the target's hand, is not empty; so do the stand-ins of
    :meth:`GameState.folded_moves`), every other move a final choice."""
    if m.cards and m.kind in HIDDEN_KINDS:
        c = _DISCOVERY_STEP if m.kind == "discovery" else _INQUISITION_STEPS[m.seat]
    else:
        c = Choice(move_text(m), move=m)
    if len(_OF_MOVE) > 400_000:
        _OF_MOVE.clear()
    _OF_MOVE[m] = c
    return c


def _choices_of(moves: list[Move]) -> list[Choice]:
    """The choices of the generated ``moves``: one each, a hidden step once, sorted."""
    out = list(map(_OF_MOVE.get, moves))
    if not all(out):
        out = [c or _choice_of(m) for c, m in zip(out, moves, strict=True)]
    cs: list[Choice] = out  # type: ignore[assignment]
    for c in cs:
        if not c.final:
            # a step stands for many moves: once each (the same object)
            cs = list({id(c): c for c in cs}.values())
            break
    cs.sort(key=_BY_TEXT)
    return cs


def _expand(g: GameState, text: str) -> tuple[str, list[Choice]]:
    """:func:`carta.expand` (the same reveal, the same moves in the same order), with each
    full move's value attached (so that it is applied without parsing it again)."""
    seat = _STEP_SEAT.get(text)
    if seat is not None and not g.finished:
        # a step as :meth:`CartaGame.choices` writes it: its moves without the others
        if seat < 0:
            if g.deck:
                k = min(5, len(g.deck))
                reveal = "".join(LETTERS[d] for d in reversed(g.deck[-k:]))
                return reveal, _full_moves(g.step_moves("discovery"), text)
        elif seat < g.n and any(g.hands[seat]):
            reveal = counts_to_str(g.hands[seat])
            return reveal, _full_moves(g.step_moves("inquisition", seat), text)
    words = text.split()
    kind = words[0] if words else ""
    if g.finished or kind not in HIDDEN_KINDS or _hidden_text(g, kind, words) != text:
        reveal, texts = carta.expand(g, text)
        return reveal, [Choice(t) for t in texts]
    if kind == "discovery":
        k = min(5, len(g.deck))
        reveal = "".join(LETTERS[d] for d in reversed(g.deck[-k:]))
        moves = [m for m in g.raw_moves() if m.kind == "discovery"]
    else:
        seat = int(words[1])
        reveal = counts_to_str(g.hands[seat])
        moves = [m for m in g.raw_moves() if m.kind == "inquisition" and m.seat == seat]
    return reveal, _full_moves(moves, text)


#: the sorted final choices of each list of moves below a hidden step, memoised
_FULL_LISTS: dict[tuple[Move, ...], tuple[Choice, ...]] = {}


def _full_moves(moves: Sequence[Move], text: str) -> list[Choice]:
    if not moves:
        raise ValueError(f"{text!r} is not a choice now")
    key = tuple(moves)
    hit = _FULL_LISTS.get(key)
    if hit is not None:
        return list(hit)
    full = [_FULL.get(m) or _full(m) for m in moves]
    full.sort(key=_BY_TEXT)
    if len(_FULL_LISTS) > 50_000:
        _FULL_LISTS.clear()
    _FULL_LISTS[key] = tuple(full)
    return full


#: the choices of each list of generated moves (:meth:`CartaGame.choices`), memoised
_BY_MOVES: dict[tuple[Move, ...], tuple[Choice, ...]] = {}

#: the final choices below a hidden step, memoised
_FULL: dict[Move, Choice] = {}


def _full(m: Move) -> Choice:
    if len(_FULL) > 200_000:
        _FULL.clear()
    c = _FULL[m] = Choice(move_text(m), move=m)
    return c


def _hidden_text(g: GameState, kind: str, words: list[str]) -> str | None:
    if kind == "discovery":
        return f"discovery discard {SECRET_MARK}" if g.deck else None
    if len(words) > 1 and words[1].isdigit() and int(words[1]) < g.n:
        seat = int(words[1])
        return f"inquisition {seat} give {SECRET_MARK}" if any(g.hands[seat]) else None
    return None


class CartaGame:
    """CIV: Carta Impera Victoria (Ludonaute, 2018) — rules R1–R25 of RULES.md."""

    name = "carta"
    title = "CIV: Carta Impera Victoria"
    min_players = 2
    max_players = 4
    record_formats: Sequence[str] = ("civ-notation/1",)
    #: derived from the public log (the move history and what each seat learned
    #: from it): a determinized state is consistent with them but rebuilds only
    #: the log itself, with hidden parts left out
    observation_log_keys: Sequence[str] = ("history", "movers", "learned", "known_in_hands")
    options: Sequence[OptionSpec] = (
        OptionSpec(
            "deal",
            "choice",
            "basic",
            "how the starting hands are dealt: 'basic' (3 cards each, R7) or 'draft' (R8)",
            choices=("basic", "draft"),
        ),
        OptionSpec("teams", "bool", False, "the team game: seats 0+2 against 1+3 (R24; 4 players)"),
    )

    # -- set-up -------------------------------------------------------------------

    def check_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not (self.min_players <= players <= self.max_players)
        ):
            raise OptionsError.of("setup.players", players=repr(players))
        if not isinstance(options, Mapping):
            raise OptionsError.of("setup.mapping")
        known = {o.name for o in self.options}
        for key in options:
            if key not in known:
                raise OptionsError.of(
                    "setup.unknown", key=repr(key), known=", ".join(sorted(known))
                )
        deal = options.get("deal", "basic")
        if deal not in ("basic", "draft"):
            raise OptionsError.of("setup.deal", deal=repr(deal))
        teams = options.get("teams", False)
        if not isinstance(teams, bool):
            raise OptionsError.of("setup.teams", teams=repr(teams))
        if teams and players != 4:
            raise OptionsError.of("setup.teams_four")
        return {"deal": deal, "teams": teams}

    def new_state(self, players: int, options: Mapping[str, Any], seed: int | None) -> GameState:
        opts = self.check_options(players, options)
        try:
            return carta.new_game(players, deal=opts["deal"], teams=opts["teams"], seed=seed)
        except carta.ConfigError as e:  # pragma: no cover - check_options catches these first
            raise OptionsError(str(e)) from None

    def from_record(self, record: Mapping[str, Any]) -> GameState:
        try:
            rec = carta.record_from_obj(dict(record))
            # the words of `civcards replay`: "move 3 ('end') is illegal: ..."
            replayed = carta.replay(rec)
        except (carta.NotationError, carta.ConfigError) as e:
            raise RecordError(str(e)) from None
        if replayed.error is not None:
            raise MoveError(replayed.error)
        return replayed.state

    def record(self, state: GameState, names: Sequence[str] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(
            carta.write_record(state, names=list(names) if names is not None else None)
        )
        return out

    def setup_record(self, state: GameState) -> dict[str, Any]:
        rec = dict(state.record(result=False))
        rec.pop("moves", None)
        return rec

    # -- moves ---------------------------------------------------------------------

    def canonical(self, text: str) -> str:
        try:
            return move_text(carta.parse_move(text))
        except carta.NotationError as e:
            raise MoveError(f"the move {text!r} cannot be read: {e}") from None

    def play(self, state: GameState, text: str) -> str:
        try:
            m = carta.parse_move(text)
        except carta.NotationError as e:
            raise MoveError(f"the move {text!r} cannot be read: {e}") from None
        if state.finished:
            raise MoveError("the game is over: no move can be played (R22)")
        if not state.is_legal(m):
            raise MoveError(f"{move_text(m)!r} is not legal now: {why_illegal(state, m)}")
        state.apply_unchecked(m)
        return move_text(m)

    def apply_choice(self, state: GameState, choice: Choice) -> str:
        m = choice.move
        if m is None:
            return self.play(state, choice.text)
        state.apply_unchecked(m)
        return choice.text

    def legal(self, state: GameState) -> list[str]:
        return state.legal_strings()

    def choices(self, state: GameState) -> list[Choice]:
        # the choices are a function of the generated moves alone (in their order): a
        # Discovery or Inquisition is a hidden step exactly when its move names cards
        # (the deck, the target's hand is not empty), so they are memoised by it; the
        # moves of a step come folded into one stand-in (its moves are made by expand)
        moves = state.folded_moves()  # none once the game is over
        key = tuple(moves)
        hit = _BY_MOVES.get(key)
        if hit is not None:
            return list(hit)
        out = _choices_of(moves)
        if len(_BY_MOVES) > 100_000:
            _BY_MOVES.clear()
        _BY_MOVES[key] = tuple(out)
        return out

    def expand(self, state: GameState, choice: Choice) -> Expansion:
        if choice.final:
            return Expansion(None, [choice])
        try:
            reveal, full = _expand(state, choice.text)
        except (ValueError, IndexError) as e:
            raise MoveError(f"{choice.text!r} is not a choice now: {e}") from None
        return Expansion(reveal, full)

    def choice_path(self, state: GameState, move: str) -> list[Choice]:
        # CIV's only steps are the hidden ones: a Discovery or an Inquisition that names
        # cards is below the step of its kind (and target), every other move is final
        canon = self.canonical(move)
        top = self.choices(state)
        hit = next((c for c in top if c.final and c.text == canon), None)
        if hit is not None:
            return [hit]
        words = canon.split()
        step_text = _hidden_text(state, words[0], words) if words[0] in HIDDEN_KINDS else None
        step = next((c for c in top if not c.final and c.text == step_text), None)
        if step is not None:
            below = self.expand(state, step).choices
            hit = next((c for c in below if c.text == canon), None)
            if hit is not None:
                return [step, hit]
        raise MoveError(f"{canon!r} is not among the choices of this position")

    def why_not(self, state: GameState, text: str) -> str:
        canon = self.canonical(text)
        if state.finished:
            return "the game is over: no move can be played (R22)"
        kind = canon.split()[0]
        if kind in HIDDEN_KINDS:
            # the same answer whether or not the move would be legal: no oracle on hidden cards
            prefix = "discovery discard ?" if kind == "discovery" else "inquisition N give ?"
            return (
                f"{canon!r} is not one of your choices now; {kind} is chosen as "
                f"{prefix!r} first, and its cards are shown to you once you have committed to it"
            )
        return f"{canon!r} is not legal now: {why_illegal(state, carta.parse_move(canon))}"

    # -- views -----------------------------------------------------------------------

    def observe(self, state: GameState, seat: int | None) -> Observation:
        return carta.observe(state, seat)

    def result(self, state: GameState) -> Result | None:
        if not state.finished:
            return None
        winners = tuple(state.winners)
        if state.points is not None:
            scores = tuple(float(p) for p in state.points)
        else:
            scores = tuple(1.0 if s in winners else 0.0 for s in range(state.n))
        shared = len(winners) > 1 and not (state.teams and len({s % 2 for s in winners}) == 1)
        details: dict[str, Any] = {}
        if state.victory_domain is not None:
            details["domain"] = state.victory_domain
        return Result(winners, state.victory, scores, shared, details)

    def position_json(self, state: GameState, legal: bool = False) -> dict[str, Any]:
        return carta.position_json(state, legal=legal)

    # -- words -------------------------------------------------------------------------

    def describe_move(
        self, text: str, names: Sequence[str], lang: str = "en", *, past: bool = False
    ) -> str:
        from .text import describe_move

        return describe_move(lang, text, list(names), past=past)

    def describe_result(self, state: GameState, names: Sequence[str], lang: str = "en") -> str:
        from .text import winners_text

        return winners_text(state, names, lang)

    # -- bots and sims ---------------------------------------------------------------------

    def bots(self) -> Mapping[str, Callable[[str | None, int | None], Any]]:
        from .bots import BOTS

        return BOTS

    def report_overview(self, rows: Sequence[Mapping[str, Any]], folder: Any) -> dict[str, Any]:
        """CIV's report needs no view across configurations: its sections say it all."""
        return {}

    def sim_row(self, state: GameState) -> dict[str, Any]:
        from .sim import sim_row

        return sim_row(state)

    # -- bots ----------------------------------------------------------------------------

    def search_kit(self) -> Any:
        from .search import search_kit

        return search_kit(self)

    # -- sims ----------------------------------------------------------------------------

    def sim_columns(self) -> Mapping[str, str]:
        from .sim import COLUMNS

        return COLUMNS

    def report_sections(self, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        from .sim import report_sections

        return report_sections(rows)

    def random_playout(self, state: GameState, rng: Any) -> int:
        from ...carta.game import random_playout

        return random_playout(state, rng)

    # -- command line --------------------------------------------------------------------

    def replay_cli(
        self, text: str, *, json_out: bool = False, legal: bool = False, seat: int | None = None
    ) -> tuple[int, str]:
        from .replay import replay_cli

        return replay_cli(text, json_out=json_out, legal=legal, seat=seat)

    # -- terminal ------------------------------------------------------------------------

    def terminal_screen(self) -> Any:
        from .screen import SCREEN

        return SCREEN

    # -- research --------------------------------------------------------------------------

    def encoding(self) -> Any | None:
        from .research import ENCODING

        return ENCODING

    #: the table's strongest search (issue 37): the plain search until an arena at the
    #: table's budgets shows the network-guided one stronger (studies/learning/equal-time)
    table_search: str = "ismcts"

    # -- server (the web table) -----------------------------------------------------------

    #: the front-end module (``static/carta.js`` in this package, served under
    #: ``/static/games/carta/``) and the lobby's words (web.py)
    web_module: str | None = "games/carta/carta.js"
    web_assets: str | None = str(Path(__file__).parent / "static")
    web_texts: Mapping[str, str] = {
        "title": "ui.title",  # the title, in the page's language (French spaces its colon)
        "deal": "web.deal",
        "deal=basic": "web.deal_basic",
        "deal=draft": "term.draft",
        "teams": "web.team_game",
        "deal:help": "web.deal_help",
        "teams:help": "web.team_game_help",
    }

    def web_view(
        self,
        state: GameState,
        seat: int | None,
        names: Sequence[str],
        lang: str = "en",
        obs: Any = None,
    ) -> dict[str, Any]:
        from .web import web_view

        return web_view(state, seat, names, lang, obs)

    def rules_page(self, lang: str = "en", options: Mapping[str, Any] | None = None) -> str:
        from .rules_text import rules_page

        return rules_page(lang)  # the same for every set-up

    def card_reference(
        self, lang: str = "en", options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        from .rules_text import card_reference

        return card_reference(lang)

    # -- optional capabilities -----------------------------------------------------------

    def determinizer(
        self, observation: Any, reveal: Any = None, chosen: str | None = None
    ) -> Sampler | None:
        from ...carta.determinize import DeterminizeError, Determinizer

        try:
            return _Sampler(Determinizer(observation, reveal=reveal, chosen=chosen), observation)
        except DeterminizeError:
            return None


def _public_move(text: str) -> Move:
    """A move of the public log as a dealt state holds it (what the reasons for
    a refusal read); hidden parts, and the cards Inquisition moved, are left out."""
    words = text.split()
    if words[0] == "keep":
        return Move("keep")
    if words[0] == "inquisition":
        return Move("inquisition", int(words[1]))
    return carta.parse_move(text)


class _Sampler:
    """CIV's determinizer, with the public move log carried into every state it
    deals (so that the reasons a move is refused read the same log)."""

    def __init__(self, det: Any, obs: Any) -> None:
        self.det = det
        self.history = [_public_move(t) for t in obs.history]
        self.movers = list(obs.movers)
        #: the seats' reading of that log, read once and shared by every deal (each
        #: deal's ``learned`` is empty, so it reads the same for all)
        self.views: object | None = None

    def sample(self, rng: Any) -> GameState:
        g: GameState = self.det.sample(rng)
        g.history = self.history[:]
        g.movers = self.movers[:]
        g.view_cache = self.views
        if self.views is None:
            self.views = shared_views(g)
        return g


GAME = CartaGame()

"""The registration of Civilization: The Card Game: :class:`Civ4Game`, the ``civ4`` game."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ... import civ4
from ...civ4.options import CARD_SETS, DEFAULT_CARD_SET, OPTIONS, ConfigError, parse_options
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

_KIND = {"bool": "bool", "int": "int"}
#: the platform's defaults that depend on the player count (the engine's stay the rules
#: as written): ``finish_round`` (C68) is on at 2 players, where it evens the seats
#: with the default card set (studies/civ4-balance/README.md, Q1; issue 40)
PLAYER_DEFAULTS: Mapping[str, tuple[tuple[int, Any], ...]] = {"finish_round": ((2, True),)}


def _specs() -> tuple[OptionSpec, ...]:
    out = []
    for o in OPTIONS:
        out.append(
            OptionSpec(
                o.name,
                _KIND.get(o.type, o.type),
                o.default,
                o.help,
                minimum=0 if o.type == "int" else None,
                choices=CARD_SETS if o.name == "cards" else (),
                player_defaults=PLAYER_DEFAULTS.get(o.name, ()),
            )
        )
    return tuple(out)


def _first_bad(options: Mapping[str, Any]) -> OptionsError | None:
    """The first option that :func:`parse_options` refuses, as a catalogue text (the same
    sentence as the engine's, which names every bad option at once)."""
    kinds = {o.name: o.type for o in OPTIONS}
    for key, value in options.items():
        if kinds.get(key) == "bool":
            if value is not None and not isinstance(value, bool):
                return OptionsError.of("ccg.setup.bool", key=repr(key), value=repr(value))
        elif key == "hand_limit":
            if value is None or value is False:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                return OptionsError.of("ccg.setup.hand_limit", value=repr(value))
        elif key == "cards":
            if value is not None and (not isinstance(value, str) or value not in CARD_SETS):
                return OptionsError.of(
                    "ccg.setup.cards", value=repr(value), known=", ".join(CARD_SETS)
                )
        else:
            return OptionsError.of(
                "ccg.setup.unknown", key=repr(key), known=", ".join(o.name for o in OPTIONS)
            )
    return None


class Civ4Game:
    """Civilization: The Card Game (Firaxis, 2006), rules C1–C72 of ``docs/rules/civ4.md``.

    The card set is RECONSTRUCTED: the original card list was never published.
    """

    name = "civ4"
    title = "Civilization: The Card Game"
    #: shown wherever the game's cards are (the card set's version is the ``cards`` option)
    note = "reconstructed card set: the original card list was never published"
    min_players = 2
    max_players = 4
    record_formats: Sequence[str] = ("civ4-notation/1",)
    #: none: a determinized state rebuilds the move log and the known steals too
    observation_log_keys: Sequence[str] = ()
    options: Sequence[OptionSpec] = _specs()

    # -- set-up -------------------------------------------------------------------

    def check_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not (self.min_players <= players <= self.max_players)
        ):
            raise OptionsError.of("ccg.setup.players", players=repr(players))
        if not isinstance(options, Mapping):
            raise OptionsError.of("ccg.setup.mapping")
        try:
            opts = parse_options(options)
        except ConfigError as e:
            # the first bad option, in the words of the catalogue (the engine's English
            # sentence where the catalogue has none)
            raise _first_bad(options) or OptionsError(str(e).split(". ")[0].rstrip(".")) from None
        out = {o.name: getattr(opts, o.name) for o in OPTIONS}
        # a new game names its card set: the tuned one unless told otherwise (a record
        # that names none is read with the original one, civ4.replay)
        out["cards"] = opts.cards or DEFAULT_CARD_SET
        # a variant not given (or null) takes the platform's default for the player count;
        # a given value, false included, stays (the record names every variant that is on)
        for spec in self.options:
            if spec.player_defaults and options.get(spec.name) is None:
                out[spec.name] = spec.default_for(players)
        return out

    def new_state(
        self, players: int, options: Mapping[str, Any], seed: int | None
    ) -> civ4.GameState:
        opts = self.check_options(players, options)
        try:
            return civ4.new_game(players, opts, seed)
        except ConfigError as e:
            raise OptionsError(str(e)) from None

    def from_record(self, record: Mapping[str, Any]) -> civ4.GameState:
        try:
            rep = civ4.replay(dict(record))
        except (civ4.RecordError, ConfigError, civ4.NotationError) as e:
            raise RecordError(str(e)) from None
        if not rep.ok:
            raise MoveError(str(rep.error))
        return rep.state

    def record(self, state: civ4.GameState, names: Sequence[str] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(civ4.write_record(state))
        if names is not None:
            out["names"] = list(names)
        return out

    def setup_record(self, state: civ4.GameState) -> dict[str, Any]:
        rec = self.record(state)
        rec.pop("moves", None)
        rec.pop("result", None)
        # chance outcomes follow from the seed and the moves: a replay draws them again
        rec["chance"] = []
        return rec

    # -- moves ---------------------------------------------------------------------

    def canonical(self, text: str) -> str:
        try:
            return civ4.format_move(civ4.parse_move(text))
        except civ4.NotationError as e:
            raise MoveError(f"the move {text!r} cannot be read: {e}") from None

    def play(self, state: civ4.GameState, text: str) -> str:
        try:
            m = civ4.parse_move(text)
        except civ4.NotationError as e:
            raise MoveError(f"the move {text!r} cannot be read: {e}") from None
        try:
            state.apply(m)
        except civ4.IllegalMoveError as e:
            raise MoveError(f"{civ4.format_move(m)!r} is not legal now: {e.reason}") from None
        return state.moves[-1]

    def apply_choice(self, state: civ4.GameState, choice: Choice) -> str:
        if isinstance(choice.move, civ4.Move) and choice.final:
            state.apply_unchecked(choice.move, choice.text)
            return choice.text
        return self.play(state, choice.text)

    def random_playout(self, state: civ4.GameState, rng: Any) -> int:
        # uniform level by level over the factored choices, as the bots get them
        from ...civ4.bench import random_playout

        return random_playout(state, rng)[1]

    def legal(self, state: civ4.GameState) -> list[str]:
        return state.legal_strings()

    def choices(self, state: civ4.GameState) -> list[Choice]:
        if state.finished:
            return []
        return civ4.choices(state, Choice)

    def expand(self, state: civ4.GameState, choice: Choice) -> Expansion:
        if choice.final:
            return Expansion(None, [choice])
        try:
            below = civ4.expand(state, choice.text, Choice)
        except ValueError as e:
            raise MoveError(f"{choice.text!r} is not a choice now: {e}") from None
        return Expansion(None, below)

    def choice_path(self, state: civ4.GameState, move: str) -> list[Choice]:
        # the engine names the steps from the move (civ4/steps.py): one level each
        from ...civ4.steps import choice_path

        try:
            return choice_path(state, move, Choice)
        except civ4.NotationError as e:
            raise MoveError(f"the move {move!r} cannot be read: {e}") from None
        except ValueError as e:
            raise MoveError(str(e)) from None

    def why_not(self, state: civ4.GameState, text: str) -> str:
        canon = self.canonical(text)
        try:
            state.copy().apply(canon)
        except civ4.IllegalMoveError as e:
            return f"{canon!r} is not legal now: {e.reason}"
        return f"{canon!r} is legal now"

    # -- views -----------------------------------------------------------------------

    def observe(self, state: civ4.GameState, seat: int | None) -> Observation:
        return civ4.observe(state, seat)

    def result(self, state: civ4.GameState) -> Result | None:
        if not state.finished:
            return None
        scores = state.scores
        return Result(
            tuple(state.winners),
            state.reason,
            tuple(float(s[0]) for s in scores),
            len(state.winners) > 1,
            {"score": [list(s) for s in scores], "round": state.round},
        )

    def position_json(self, state: civ4.GameState, legal: bool = False) -> dict[str, Any]:
        return civ4.position_json(state, legal=legal)

    # -- words -------------------------------------------------------------------------

    def describe_move(
        self, text: str, names: Sequence[str], lang: str = "en", *, past: bool = False
    ) -> str:
        from .text import describe_move

        return describe_move(text, names, lang, past=past)

    def describe_result(self, state: civ4.GameState, names: Sequence[str], lang: str = "en") -> str:
        from .text import winners_text

        return winners_text(state, names, lang)

    # -- terminal ----------------------------------------------------------------------

    def replay_cli(
        self, text: str, *, json_out: bool = False, legal: bool = False, seat: int | None = None
    ) -> tuple[int, str]:
        """``civcards replay`` on a ``civ4-notation/1`` record (NOTATION.md: the position
        JSON, the seat's view of clarification 24, exit statuses 0/1/2)."""
        return civ4.replay_cli(text, json_out=json_out, legal=legal, seat=seat)

    def terminal_screen(self) -> Any:
        """civ4's screen for ``civcards play`` (Rich is imported only here)."""
        from .screen import Civ4Screen

        return Civ4Screen()

    #: the table's strongest search (issue 37): the plain search, civ4's network being
    #: weaker than greedy (docs/learning.md)
    table_search: str = "ismcts"

    # -- server (the web table) ---------------------------------------------------------

    #: the front-end module and its style sheet (``static/`` in this package, served under
    #: ``/static/games/civ4/``) and the lobby's words (web.py)
    web_module: str | None = "games/civ4/civ4.js"
    web_assets: str | None = str(Path(__file__).parent / "static")
    web_texts: Mapping[str, str] = {
        "title": "ccg.title",  # the title, in the page's language
        "note": "ccg.reconstructed",
        # each card set explained in one line under the lobby's choice (issue 40)
        **{f"cards={c}:help": f"ccg.web.card_set_about.{c}" for c in CARD_SETS},
        "finish_round": "ccg.web.opt.finish_round",
        "happiness_not_wonders": "ccg.web.opt.happiness_not_wonders",
        "same_type_trade": "ccg.web.opt.same_type_trade",
        "hand_limit": "ccg.web.opt.hand_limit",
        "one_shot_steals": "ccg.web.opt.one_shot_steals",
        "all_techs": "ccg.web.opt.all_techs",
        "cards": "ccg.web.opt.cards",
        # the tips (with the rules' numbers) and the card sets' names
        **{f"{o.name}:help": f"ccg.web.opt_help.{o.name}" for o in OPTIONS},
        **{f"cards={c}": f"ccg.web.opt.cards.{c.replace('-', '_')}" for c in CARD_SETS},
    }

    def web_view(
        self,
        state: civ4.GameState,
        seat: int | None,
        names: Sequence[str],
        lang: str = "en",
        obs: Any = None,
    ) -> dict[str, Any]:
        from .web import web_view

        return web_view(state, seat, names, lang, obs)

    def rules_page(self, lang: str = "en", options: Mapping[str, Any] | None = None) -> str:
        from .rules_text import rules_page

        return rules_page(lang, _card_set_of(options))

    def card_reference(
        self, lang: str = "en", options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        from .rules_text import card_reference

        return card_reference(lang, _card_set_of(options))

    # -- bots and sims -----------------------------------------------------------------

    def bots(self) -> Mapping[str, Callable[[str | None, int | None], Any]]:
        from .bots import BOTS

        return BOTS

    def sim_row(self, state: civ4.GameState) -> dict[str, Any]:
        from .sim import sim_row

        return sim_row(state)

    def sim_columns(self) -> Mapping[str, str]:
        from .sim import COLUMNS

        return COLUMNS

    def report_sections(self, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        from .report import report_sections

        return report_sections(rows)

    def report_overview(self, rows: Sequence[Mapping[str, Any]], folder: Any) -> dict[str, Any]:
        from .report import report_overview

        return report_overview(rows, folder)

    # -- research (PettingZoo, Gymnasium, OpenSpiel) -----------------------------------

    def encoding(self) -> Any | None:
        """civ4's action tokens, observation tensor and OpenSpiel model (``research.py``)."""
        from .research import ENCODING

        return ENCODING

    # -- optional capabilities ---------------------------------------------------------

    def search_kit(self) -> Any | None:
        """civ4's own kit for ``ismcts`` (``search.py``: greedy completes the factored
        steps and models the rivals, short greedy rollouts, a VP evaluation at the leaves)."""
        from .search import search_kit

        return search_kit(self)

    def determinizer(
        self, observation: Any, reveal: Any = None, chosen: str | None = None
    ) -> Sampler | None:
        from ...civ4.determinize import DeterminizeError, Determinizer

        try:
            return Determinizer(observation, reveal=reveal, chosen=chosen)
        except DeterminizeError:
            return None


GAME = Civ4Game()


def _card_set_of(options: Mapping[str, Any] | None) -> str:
    """The card set of a game set up with ``options`` (a new game's when not named)."""
    name = (options or {}).get("cards")
    return name if isinstance(name, str) and name in CARD_SETS else DEFAULT_CARD_SET

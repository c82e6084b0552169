"""A tiny game that exists only in the tests: it proves the platform's layers are generic.

**High Card** (2–4 players). A deck of ``4n + 2`` cards numbered 1… is
shuffled; each seat gets a hidden hand of 3. On a turn the seat to move plays
one card of its hand face up onto its own pile and draws the top card of the
deck, if any; or, once per game, *peeks* at the top card of the deck (a hidden
step: the seat sees the card, then either keeps it there — ``peek keep`` — or
buries it under the deck — ``peek bury``). The game ends when every hand is
empty; the highest pile total wins (ties share).

A move is ``play N`` (a factored step ``play`` first, then the card), ``peek
keep`` or ``peek bury``. The record is ``{"format": "toy-notation/1",
"players": n, "deck": [...], "moves": [...]}``.

Register it with ``civcards.game_api.register(tests.toygame.GAME)``; the
server finds it through ``CIVCARDS_EXTRA_GAMES=tests.toygame:GAME``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from civcards.game_api import (
    Choice,
    Expansion,
    Game,
    MoveError,
    OptionsError,
    OptionSpec,
    RecordError,
    Result,
)

FORMAT = "toy-notation/1"


@dataclass
class ToyState:
    n: int
    deck: list[int]  # top card last
    hands: list[list[int]]
    piles: list[list[int]]
    peeked: list[bool]
    initial: list[int]  # the deck as dealt from, top first (the record)
    moves: list[str] = field(default_factory=list)
    active: int = 0
    turn: int = 0
    #: seats that saw the top card with a peek: (seat, card), until it is drawn
    seen: list[tuple[int, int]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return not any(self.hands)

    @property
    def to_move(self) -> int | None:
        return None if self.finished else self.active

    def copy(self) -> ToyState:
        return ToyState(
            self.n,
            self.deck[:],
            [h[:] for h in self.hands],
            [p[:] for p in self.piles],
            self.peeked[:],
            self.initial,
            self.moves[:],
            self.active,
            self.turn,
            self.seen[:],
        )


@dataclass(frozen=True)
class ToyObservation:
    seat: int | None
    players: int
    to_move: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    deck_size: int
    peeked: tuple[bool, ...]
    known_top: int | None
    moves: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "to_move": self.to_move,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "piles": [list(p) for p in self.piles],
            "deck_size": self.deck_size,
            "peeked": list(self.peeked),
            "known_top": self.known_top,
            "moves": list(self.moves),
        }


def _deal(n: int, order: list[int]) -> ToyState:
    deck = list(reversed(order))
    hands = [sorted(deck.pop() for _ in range(3)) for _ in range(n)]
    return ToyState(n, deck, hands, [[] for _ in range(n)], [False] * n, order)


class _Sampler:
    def __init__(self, obs: ToyObservation) -> None:
        self.obs = obs

    def sample(self, rng: Any) -> ToyState:
        o = self.obs
        assert o.seat is not None
        n = o.players
        seen = set(o.hand) | {c for p in o.piles for c in p}
        unseen = [c for c in range(1, 4 * n + 3) if c not in seen and c != o.known_top]
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        for s in range(n):
            if s == o.seat:
                hands.append(list(o.hand))
            else:
                hands.append(sorted(unseen.pop() for _ in range(o.hand_sizes[s])))
        deck = unseen  # the rest, in random order (top last)
        if o.known_top is not None:
            deck.append(o.known_top)
        st = ToyState(n, deck, hands, [list(p) for p in o.piles], list(o.peeked), [])
        st.moves = list(o.moves)
        st.active = o.to_move if o.to_move is not None else 0
        st.turn = len(o.moves)
        if o.known_top is not None:
            st.seen = [(o.seat, o.known_top)]
        return st


class ToyGame:
    name = "toy"
    title = "High Card (a test game)"
    min_players = 2
    max_players = 4
    record_formats = (FORMAT,)
    observation_log_keys: Sequence[str] = ()
    options: Sequence[OptionSpec] = (
        OptionSpec("peek", "bool", True, "allow one peek at the deck per seat"),
    )

    def check_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise OptionsError(f"High Card is played by 2 to 4 players, not {players!r}")
        for k in options:
            if k != "peek":
                raise OptionsError(f"High Card has no option {k!r}; its options are: peek")
        peek = options.get("peek", True)
        if not isinstance(peek, bool):
            raise OptionsError(f"the option 'peek' is true or false, not {peek!r}")
        return {"peek": peek}

    def new_state(self, players: int, options: Mapping[str, Any], seed: int | None) -> ToyState:
        self.check_options(players, options)
        order = list(range(1, 4 * players + 3))
        random.Random(seed).shuffle(order)
        return _deal(players, order)

    def from_record(self, record: Mapping[str, Any]) -> ToyState:
        if record.get("format") != FORMAT:
            raise RecordError(f"a High Card record has the format {FORMAT!r}")
        n = record.get("players")
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 4:
            raise RecordError("the field 'players' must be 2, 3 or 4")
        deck = record.get("deck")
        if not isinstance(deck, list) or sorted(deck) != list(range(1, 4 * n + 3)):
            raise RecordError(f"the field 'deck' must be an ordering of the cards 1 to {4 * n + 2}")
        moves = record.get("moves", [])
        if not isinstance(moves, list):
            raise RecordError("the field 'moves' must be a list of moves")
        st = _deal(n, list(deck))
        for i, m in enumerate(moves):
            if not isinstance(m, str):
                raise MoveError(f"move {i + 1} is not a string")
            try:
                self.play(st, m)
            except MoveError as e:
                raise MoveError(f"move {i + 1} ({m!r}): {e}") from None
        return st

    def record(self, state: ToyState, names: Sequence[str] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "players": state.n,
            "deck": list(state.initial),
            "moves": list(state.moves),
        }
        if names is not None:
            out["names"] = list(names)
        return out

    def setup_record(self, state: ToyState) -> dict[str, Any]:
        rec = self.record(state)
        rec.pop("moves")
        return rec

    # -- moves

    def canonical(self, text: str) -> str:
        words = str(text).split()
        if len(words) == 2 and words[0] == "play" and words[1].isdigit():
            return f"play {int(words[1])}"
        if words in (["peek", "keep"], ["peek", "bury"]):
            return " ".join(words)
        raise MoveError(
            f"the move {text!r} cannot be read: write 'play N', 'peek keep' or 'peek bury'"
        )

    def legal(self, state: ToyState) -> list[str]:
        if state.finished:
            return []
        s = state.active
        out = [f"play {c}" for c in sorted(set(state.hands[s]))]
        if not state.peeked[s] and state.deck:
            out += ["peek bury", "peek keep"]
        return sorted(out)

    def why_not(self, state: ToyState, text: str) -> str:
        canon = self.canonical(text)
        if state.finished:
            return "the game is over"
        if canon.startswith("play"):
            return f"{canon!r} is not legal now: you can only play a card of your hand"
        return f"{canon!r} is not legal now: you have peeked already, or the deck is empty"

    def play(self, state: ToyState, text: str) -> str:
        canon = self.canonical(text)
        if canon not in self.legal(state):
            raise MoveError(self.why_not(state, canon))
        self._apply(state, canon)
        return canon

    def apply_choice(self, state: ToyState, choice: Choice) -> str:
        self._apply(state, choice.text)
        return choice.text

    def _apply(self, st: ToyState, canon: str) -> None:
        s = st.active
        kind, arg = canon.split()
        if kind == "play":
            c = int(arg)
            st.hands[s].remove(c)
            st.piles[s].append(c)
            if st.deck:
                st.hands[s].append(st.deck.pop())
                st.hands[s].sort()
                st.seen = []
        else:
            st.peeked[s] = True
            if arg == "bury":
                st.deck.insert(0, st.deck.pop())
                st.seen = []
            else:
                st.seen = [*st.seen, (s, st.deck[-1])]
        st.moves.append(canon)
        st.turn += 1
        for k in range(1, st.n + 1):
            nxt = (s + k) % st.n
            if st.hands[nxt]:
                st.active = nxt
                break

    def choices(self, state: ToyState) -> list[Choice]:
        if state.finished:
            return []
        s = state.active
        out = [Choice("play", final=False)]
        if not state.peeked[s] and state.deck:
            out.append(Choice("peek", final=False, hidden=True))
        return out

    def expand(self, state: ToyState, choice: Choice) -> Expansion:
        if choice.final:
            return Expansion(None, [choice])
        legal = self.legal(state)
        if choice.text == "play":
            return Expansion(None, [Choice(m) for m in legal if m.startswith("play")])
        if choice.text == "peek" and "peek keep" in legal:
            return Expansion(state.deck[-1], [Choice("peek bury"), Choice("peek keep")])
        raise MoveError(f"{choice.text!r} is not a choice now")

    def choice_path(self, state: ToyState, move: str) -> list[Choice]:
        canon = self.canonical(move)
        if canon not in self.legal(state):
            raise MoveError(self.why_not(state, canon))
        step = next(c for c in self.choices(state) if c.text == canon.split()[0])
        return [step, Choice(canon)]

    # -- views

    def observe(self, state: ToyState, seat: int | None) -> ToyObservation:
        known = None
        if seat is not None and state.deck:
            for who, card in state.seen:
                if who == seat and card == state.deck[-1]:
                    known = card
        return ToyObservation(
            seat,
            state.n,
            state.to_move,
            tuple(state.hands[seat]) if seat is not None else (),
            tuple(len(h) for h in state.hands),
            tuple(tuple(p) for p in state.piles),
            len(state.deck),
            tuple(state.peeked),
            known,
            tuple(state.moves),
        )

    def result(self, state: ToyState) -> Result | None:
        if not state.finished:
            return None
        totals = [float(sum(p)) for p in state.piles]
        best = max(totals)
        winners = tuple(s for s in range(state.n) if totals[s] == best)
        return Result(winners, "highest", tuple(totals), len(winners) > 1)

    def position_json(self, state: ToyState, legal: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "to_move": state.to_move,
            "hands": [list(h) for h in state.hands],
            "piles": [list(p) for p in state.piles],
            "deck": len(state.deck),
        }
        if legal:
            out["legal"] = self.legal(state)
        return out

    def describe_move(
        self, text: str, names: Sequence[str], lang: str = "en", *, past: bool = False
    ) -> str:
        kind, arg = text.split()
        if kind == "play":
            return f"{'played' if past else 'play'} the {arg}"
        return f"peek at the deck and {arg} the card"

    def describe_result(self, state: ToyState, names: Sequence[str], lang: str = "en") -> str:
        r = self.result(state)
        assert r is not None
        return "Won by " + ", ".join(names[s] for s in r.winners)

    #: the rules page (``Game.rules_page``): a test game still speaks every language
    RULES: Mapping[str, str] = {
        "en": "# High Card\n\nOn your turn, play a card from your hand. The highest pile wins.",
        "fr": "# Carte haute\n\nÀ ton tour, pose une carte de ta main. La plus haute pile gagne.",
        "de": "# Hohe Karte\n\nSpiele in deinem Zug eine Karte aus der Hand. Der höchste Stapel "
        "gewinnt.",
        "es": "# Carta alta\n\nEn tu turno, juega una carta de tu mano. Gana la pila más alta.",
        "pt": "# Carta alta\n\nNa sua vez, jogue uma carta da mão. Vence a pilha mais alta.",
    }

    def rules_page(self, lang: str = "en", options: Mapping[str, Any] | None = None) -> str:
        return self.RULES.get(lang, self.RULES["en"])

    def card_reference(
        self, lang: str = "en", options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        # the cards are plain numbers: nothing to explain beyond the rules page
        return {"title": self.title, "note": None, "sections": []}

    def bots(self) -> Mapping[str, Callable[[str | None, int | None], Any]]:
        return {}

    def sim_row(self, state: ToyState) -> dict[str, Any]:
        return {"piles": [sum(p) for p in state.piles]}

    def determinizer(
        self, observation: Any, reveal: Any = None, chosen: str | None = None
    ) -> _Sampler | None:
        if not isinstance(observation, ToyObservation) or observation.seat is None:
            return None
        if observation.to_move is None:
            return None
        if reveal is not None:
            observation = ToyObservation(**{**observation.__dict__, "known_top": int(reveal)})
        return _Sampler(observation)


def as_game(game: ToyGame) -> Game:
    """``game`` typed as a registration (:class:`civcards.game_api.Game`).

    The toy game leaves out the protocol's optional members on purpose (``search_kit``,
    ``table_search``, ``random_playout``, ``replay_cli``, ``web_view``, ``encoding``,
    ``terminal_screen``, …): the platform reads each with ``getattr(game, name, None)`` and
    falls back to its generic behaviour, which is what these tests exercise. A Protocol
    cannot mark a member optional, hence the cast.
    """
    return cast(Game, game)


GAME: Game = as_game(ToyGame())

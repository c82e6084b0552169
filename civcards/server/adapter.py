"""What the server needs from a game beyond the generic :class:`civcards.game_api.Game`.

The server core only talks to a :class:`GameAdapter`; CIV (``carta``) is the
first one. A second card game adds its own adapter to :data:`ADAPTERS`.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, Protocol

from .. import carta
from ..carta.explain import why_illegal
from ..game_api import Game


class GameAdapter(Protocol):
    name: str
    game: Game
    min_players: int
    max_players: int

    def new_state(self, players: int, options: dict[str, Any], seed: int | None) -> Any:
        """A fresh game; raises ValueError with a sentence for an impossible set-up."""
        ...

    def setup_of(self, state: Any) -> dict[str, Any]:
        """The set-up part of the record (everything but the moves), JSON-safe."""
        ...

    def state_from(self, setup: dict[str, Any], moves: list[str]) -> Any:
        """Rebuild the live state from a stored set-up and moves (checked)."""
        ...

    def canonical(self, text: str) -> str:
        """The canonical notation of ``text``; ValueError with a sentence if unreadable."""
        ...

    def why_not(self, state: Any, canonical_move: str) -> str:
        """Why a move that is not among the seat's options is refused (never a secret)."""
        ...

    def observation(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The JSON observation of ``seat`` (None: a spectator)."""
        ...

    def record(self, state: Any, names: list[str]) -> dict[str, Any]:
        """The full record of a finished game (it holds the deck)."""
        ...


class CartaAdapter:
    """CIV: Carta Impera Victoria."""

    name = "carta"
    game: Game = carta.GAME
    min_players = 2
    max_players = 4
    #: kinds whose full moves depend on cards the mover has not seen yet
    hidden_kinds: ClassVar[dict[str, str]] = {
        "discovery": "discovery discard ?",
        "inquisition": "inquisition N give ?",
    }

    def new_state(self, players: int, options: dict[str, Any], seed: int | None) -> Any:
        try:
            return carta.new_game(
                players,
                deal=str(options.get("deal", "basic")),
                teams=bool(options.get("teams", False)),
                seed=seed,
            )
        except carta.ConfigError as e:
            raise ValueError(str(e)) from None

    def setup_of(self, state: Any) -> dict[str, Any]:
        rec = dict(state.record(result=False))
        rec.pop("moves", None)
        return rec

    def state_from(self, setup: dict[str, Any], moves: list[str]) -> Any:
        rec = carta.record_from_obj({**setup, "moves": []})
        g = rec.new_state()
        for m in moves:
            g.apply(m)
        return g

    def canonical(self, text: str) -> str:
        try:
            return carta.format_move(carta.parse_move(text))
        except carta.NotationError as e:
            raise ValueError(f"the move {text!r} cannot be read: {e}") from None

    def why_not(self, state: Any, canonical_move: str) -> str:
        kind = canonical_move.split()[0]
        if kind in self.hidden_kinds:
            # the same answer whether or not the move would be legal: no oracle on hidden cards
            prefix = self.hidden_kinds[kind]
            return (
                f"{canonical_move!r} is not one of your choices now; {kind} is chosen as "
                f"{prefix!r} first, and its cards are shown to you once you have committed to it"
            )
        reason = why_illegal(state, carta.parse_move(canonical_move))
        return f"{canonical_move!r} is not legal now: {reason}"

    def observation(self, state: Any, seat: int | None) -> dict[str, Any]:
        d: dict[str, Any] = carta.observe(state, seat).to_dict()
        return d

    def record(self, state: Any, names: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(carta.write_record(state, names=names))
        return out


ADAPTERS: dict[str, GameAdapter] = {"carta": CartaAdapter()}

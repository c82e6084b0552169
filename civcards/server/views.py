"""What a seat sees of a game (its view: public facts, its observation, its choices, its
pending hidden step), and a finished game's record.

It imports :mod:`.live` and the game API (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game_api import Choice
from .live import ApiError, Decorator, Live


def pending_step(live: Live) -> Choice:
    """The hidden step the seat to move committed to (only hidden steps are stored)."""
    assert live.pending is not None
    return Choice(live.pending.option, final=False, hidden=True)


def expansion(option: str, exp: Any, hidden: bool) -> dict[str, Any]:
    """A step's expansion as the client gets it."""
    return {
        "option": option,
        "hidden": hidden,
        "reveal": exp.reveal,
        "choices": [c.to_json() for c in exp.choices],
    }


class Views:
    """Views, extended by ``on_view`` (the clocks) and worded by :attr:`decorate` (the web)."""

    def __init__(self, on_view: list[Callable[[Live, dict[str, Any]], None]]) -> None:
        self.on_view = on_view
        self.decorate: Decorator | None = None

    def view(self, live: Live, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """Everything ``seat`` may see now (None: a spectator): public facts, its observation,
        its choices when it is to move, and what its pending (hidden) step revealed.

        Choices are JSON objects ``{"text", "final", "hidden"}``
        (:class:`~civcards.game_api.Choice`): a step (not ``final``) is expanded by
        sending its text as a move; a ``hidden`` step is binding once sent."""
        st = live.state
        game = live.game
        former: int | None = None
        if seat is not None and not st.finished and live.seats[seat].kind != "human":
            # a bot took the seat over: its former holder watches as a spectator, and never
            # sees the cards the bot holds or draws from now on (R25 in a team game)
            former, seat = seat, None
        observation = game.observe(st, seat)  # built once a frame: the words reuse it
        obs = observation.to_json()
        options: list[dict[str, Any]] = []
        pending: dict[str, Any] | None = None
        if seat is not None and st.to_move == seat and live.seats[seat].kind == "human":
            if live.pending is not None and live.pending.seat == seat:
                step = pending_step(live)
                pending = expansion(step.text, game.expand(st, step), True)
            else:
                options = [c.to_json() for c in game.choices(st)]
        out: dict[str, Any] = {
            "game": live.public(),
            "seat": seat,
            "move_number": len(live.moves),
            "observation": obs,
            "options": options,
            "pending": pending,
        }
        if former is not None:
            out["taken_over_seat"] = former
        for extend in self.on_view:
            extend(live, out)
        if self.decorate is not None:
            self.decorate(live, out, lang, observation)
        return out

    def record(self, live: Live) -> dict[str, Any]:
        if not live.finished:
            raise ApiError(
                409, "not_finished", "the record (it holds the deck) is given once the game is over"
            )
        rec = live.game.record(live.state, live.names())
        if live.takeovers:  # beside the moves: which seats bots took over (.clocks)
            rec["takeovers"] = [dict(t) for t in live.takeovers]
        return rec

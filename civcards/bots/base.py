"""The interface every bot implements, and the driver that asks a bot for a move.

A bot sees what its seat may see and nothing more: the seat's choices
(:meth:`civcards.game_api.Game.choices`) and, when it asks for it, the seat's
observation. A decision is one question: choose one of ``decision.choices``.
A choice that is a *step* (``Choice.final`` false) is expanded
(:meth:`~civcards.game_api.Game.expand`) and the bot is asked again, below it;
a *hidden* step (CIV's Discovery and Inquisition) shows the seat cards it
could not see, so choosing it is binding.

The observation is computed at most once per decision, and only if the bot
reads :attr:`Decision.observation` (a random bot never does).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from itertools import repeat
from operator import is_
from typing import Any

from ..game_api import Choice, Game

_UNSET: Any = object()


class Decision:
    """One question put to a bot: choose one of :attr:`choices`.

    * ``seat``: the seat the bot plays;
    * ``choices``: what it may choose (:class:`~civcards.game_api.Choice`);
    * ``observation``: the seat's observation (computed when first read, then kept);
    * ``reveal``: after a hidden step, what it revealed (the game's value), else None;
    * ``chosen``: the step that led here (hidden or factored), else None;
    * ``game``: the game being played (None when a caller builds a decision by hand).
    """

    __slots__ = ("_make", "_obs", "choices", "chosen", "game", "reveal", "seat")

    _make: Callable[[], Any] | None

    def __init__(
        self,
        seat: int,
        choices: list[Choice],
        *,
        observation: Any = None,
        observe: Callable[[], Any] | None = None,
        reveal: Any = None,
        chosen: Choice | None = None,
        game: Game | None = None,
    ) -> None:
        self.seat = seat
        self.choices = choices
        self.reveal = reveal
        self.chosen = chosen
        self.game = game
        if observation is None and observe is not None:
            self._obs = _UNSET
            self._make = observe
        else:
            self._obs = observation
            self._make = None

    @property
    def observation(self) -> Any:
        """The seat's observation (the game's typed value), computed on first use."""
        obs = self._obs
        if obs is _UNSET:
            make = self._make
            assert make is not None
            obs = self._obs = make()
            self._make = None
        return obs

    @property
    def texts(self) -> list[str]:
        """The texts of :attr:`choices`, in order."""
        return [c.text for c in self.choices]

    def below(self, step: Choice, choices: list[Choice], reveal: Any) -> Decision:
        """The decision below ``step``: the same seat and observation (not observed again)."""
        d = Decision(self.seat, choices, reveal=reveal, chosen=step, game=self.game)
        d._obs = self._obs
        d._make = self._make
        return d

    def __repr__(self) -> str:
        return f"<Decision seat {self.seat}: {len(self.choices)} choices>"


class Bot(ABC):
    """A player program. Subclasses implement :meth:`choose`."""

    #: the name used on the command line (``greedy``, ``random``, ``ismcts:1s``)
    name: str = "bot"
    #: the bot's every answer is ``self.rng.choice(decision.choices)`` and it reads
    #: nothing else (``random``): a driver may then skip the :class:`Decision` and
    #: draw that choice itself (:func:`uniform_choice`: the same random numbers)
    uniform: bool = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, decision: Decision) -> Choice:
        """Return one of ``decision.choices``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class BotError(RuntimeError):
    """A bot answered something that is not one of its choices."""


def bot_choice(bot: Bot, game: Game, state: Any) -> Choice:
    """Ask ``bot`` for the move of the seat to move in ``state``: a final
    :class:`~civcards.game_api.Choice`, to apply with :meth:`Game.apply_choice`.

    Steps are expanded and the bot asked again below them; the seat is
    observed at most once, when the bot first reads its observation.
    """
    seat = state.to_move
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    if bot.uniform:
        return uniform_choice(bot, game, state)
    choices = game.choices(state)
    decision = Decision(seat, choices, observe=lambda: game.observe(state, seat), game=game)
    pick = bot.choose(decision)
    if not any(map(is_, choices, repeat(pick))):  # one of the objects it was given
        _check(bot, pick, choices)
    while not pick.final:
        exp = game.expand(state, pick)
        decision = decision.below(pick, exp.choices, exp.reveal)
        pick = bot.choose(decision)
        if not any(map(is_, exp.choices, repeat(pick))):
            _check(bot, pick, exp.choices)
    return pick


def uniform_choice(bot: Bot, game: Game, state: Any) -> Choice:
    """:func:`bot_choice` for a bot whose ``uniform`` is true: the same pick, drawn with
    the same random numbers, without a :class:`Decision` (its observation is never read)."""
    pick: Choice = bot.rng.choice(game.choices(state))
    while not pick.final:
        pick = bot.rng.choice(game.expand(state, pick).choices)
    return pick


def _check(bot: Bot, pick: Choice, choices: list[Choice]) -> None:
    """An answer that is not one of the bot's choices objects: equal to one, or refused."""
    if not isinstance(pick, Choice) or pick not in choices:
        raise BotError(f"{bot.name} chose {pick!r}, which is not among its choices")


def bot_move(bot: Bot, game: Game, state: Any) -> str:
    """Ask ``bot`` for the move of the seat to move in ``state``; its canonical text
    (apply it with :meth:`Game.play`)."""
    return bot_choice(bot, game, state).text


__all__ = ["Bot", "BotError", "Decision", "bot_choice", "bot_move", "uniform_choice"]

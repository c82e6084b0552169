"""What the information-set searches share: :class:`InfoSetSearch`, the base of ``ismcts``
(:mod:`civcards.bots.ismcts`) and ``ismcts+net`` (:mod:`civcards.bots.netsearch`).

Each search grows its own tree in its own way; around the tree they do the same:

* the game's search kit (:func:`civcards.bots.search.search_kit`, or one handed in);
* the budget: iterations, or a time checked every 8 iterations;
* the start of a decision: a single choice costs nothing, and below a factored
  step the bot follows the move it chose above it (its *plan*);
* the deals of the seat's information set (:meth:`civcards.game_api.Game.determinizer`);
* the root's branches: those below one of the decision's choices, each with the
  text of that choice;
* the answer: the choice above the chosen branch, the rest of its move kept as the plan,
  and the searched options for reports (:class:`OptionValue`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

from ..game_api import Choice, Game
from .base import Bot, Decision
from .search import Edge, SearchKit, search_kit

_MISSING = object()


class OptionValue(NamedTuple):
    """One searched option of a decision (:meth:`civcards.bots.ismcts.ISMCTSBot.option_values`)."""

    #: the whole move (or the hidden step) the branch stands for
    move: str
    #: the text of the decision's choice it is below
    choice: str
    #: its value to the searching seat, in [0, 1] (the seat's chance of winning)
    value: float
    visits: int


class InfoSetSearch(Bot):
    """The kit, the budget, the plan and the root's branches of an information-set search.

    A subclass's :meth:`choose` calls :meth:`start` (an answer without a search, or
    None), :meth:`deals`, :meth:`begin_root`, :meth:`spend` (its iterations) and
    :meth:`answer`; :meth:`root_branches` and :meth:`root_choice` tell it the root's
    branches and the choices they are below.
    """

    def __init__(
        self,
        game: Game,
        seed: int | None,
        *,
        kit: SearchKit | None,
        iterations: int | None,
        seconds: float | None,
    ) -> None:
        super().__init__(seed)
        self.game = game
        found = kit if kit is not None else search_kit(game)
        if found is None:
            raise ValueError(f"{game.title} cannot be searched: it deals no information sets")
        self.kit: SearchKit = found
        self.iterations = iterations
        self.seconds = seconds
        self._seed = seed
        #: iterations run at the last decision (for reports and tests)
        self.last_iterations = 0
        #: search a decision even when it has a single choice (post-game analysis values
        #: it); off for play, where a single choice costs nothing
        self.search_single = False
        #: below a factored step: the rest of the move chosen above it
        self._plan: list[str] = []
        #: the decision's choices' texts, and each root key's choice (None: none)
        self._allowed: set[str] = set()
        self._root_text: dict[Hashable, str | None] = {}

    def budget_text(self) -> str:
        """The budget as a bot's name writes it: ``2000it`` or ``1.5s``."""
        return f"{self.iterations}it" if self.iterations is not None else f"{self.seconds:g}s"

    # -- a decision -----------------------------------------------------------------

    def start(self, decision: Decision) -> Choice | None:
        """The answer without a search (a single choice, the next step of the plan), or
        None: search. Either way the plan is used up."""
        choices = decision.choices
        chosen = decision.chosen
        plan = self._plan
        self._plan = []
        if len(choices) == 1 and not self.search_single:
            return choices[0]
        if chosen is not None and not chosen.hidden and plan:
            for c in choices:
                if c.text == plan[0]:
                    self._plan = plan[1:]
                    return c
        return None

    def deals(self, decision: Decision) -> Any:
        """The sampler of the deals of the seat's information set, or None where the game
        deals nothing to search here."""
        chosen = decision.chosen
        return self.game.determinizer(
            decision.observation, decision.reveal, chosen.text if chosen is not None else None
        )

    def fallback(self, decision: Decision) -> Choice:
        """The kit's choice where there is nothing to search."""
        return self.kit.fallback(decision, self._seed)

    def begin_root(self, decision: Decision) -> None:
        """Forget the last decision's root branches: they are those of ``decision`` now."""
        self._allowed = {c.text for c in decision.choices}
        self._root_text = {}

    def spend(self, iterate: Callable[[], None], *, least: int = 0) -> int:
        """Call ``iterate`` until the budget is spent (the clock read every 8 calls, once
        ``least`` calls are made); the number of calls (also :attr:`last_iterations`)."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if (
                deadline is not None
                and done >= least
                and done % 8 == 0
                and time.perf_counter() >= deadline
            ):
                break
            iterate()
            done += 1
        self.last_iterations = done
        return done

    def root_branches(self, edges: list[Edge]) -> list[Edge]:
        """The branches of ``edges`` below one of the decision's choices."""
        texts = self._root_text
        allowed = self._allowed
        path = self.kit.path
        out: list[Edge] = []
        for edge in edges:
            k = edge[0]
            t = texts.get(k, _MISSING)
            if t is _MISSING:
                t = texts[k] = next((x for x in path(k) if x in allowed), None)
            if t is not None:
                out.append(edge)
        return out

    def root_choice(self, key: Hashable) -> str | None:
        """The text of the decision's choice that the root's branch ``key`` is below (None:
        not one of the root's branches)."""
        return self._root_text.get(key)

    def answer(self, decision: Decision, key: Hashable) -> Choice:
        """The decision's choice above the root's branch ``key``; the rest of its move is the
        plan of the steps below it."""
        text = self._root_text[key]
        assert text is not None
        path = self.kit.path(key)
        self._plan = list(path[path.index(text) + 1 :])
        for c in decision.choices:
            if c.text == text:
                return c
        return self.fallback(decision)  # pragma: no cover - a root branch is below a choice

    def follow(self, decision: Decision, path: list[str]) -> Choice:
        """The decision's choice ``path[0]``; the rest of ``path`` (the texts of the steps
        below it to a whole move) is the plan. A path that is not below the decision's
        choices gives the kit's own choice."""
        for c in decision.choices:
            if path and c.text == path[0]:
                self._plan = list(path[1:])
                return c
        self._plan = []
        return self.fallback(decision)

    def options(self, branches: Iterable[tuple[Hashable, float, int]]) -> list[OptionValue]:
        """The root's ``branches`` (key, value, visits) as options, most visited first."""
        out: list[OptionValue] = []
        for key, value, visits in branches:
            choice = self._root_text.get(key)
            if choice is None:
                continue
            out.append(OptionValue(self.kit.path(key)[-1], choice, value, visits))
        out.sort(key=lambda o: -o.visits)
        return out


__all__ = ["InfoSetSearch", "OptionValue"]

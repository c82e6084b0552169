"""The plain screen: any game at the terminal, before it has a screen of its own.

It draws what the interface alone gives: the seat's observation (its JSON,
public log left out), the public log in words (``Game.describe_move``), and
the result (``Game.describe_result``). A game gets a better one by returning
its own :class:`~civcards.terminal.protocol.TerminalScreen` from
``Game.terminal_screen()``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from ..game_api import Choice, Expansion, Game
from ..i18n import t


class PlainScreen:
    """A :class:`~civcards.terminal.protocol.TerminalScreen` for any game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def _log(self, state: Any, seat: int | None) -> list[str]:
        """The public move log of the observation (its first log key holding texts)."""
        obs = self.game.observe(state, seat).to_json()
        for key in self.game.observation_log_keys:
            value = obs.get(key)
            if isinstance(value, list) and all(isinstance(x, str) for x in value):
                return list(value)
        return []

    def _say(self, text: str, names: Sequence[str], lang: str, *, past: bool = False) -> str:
        """A move in words; what the game cannot put in words keeps its text."""
        try:
            return self.game.describe_move(text, names, lang, past=past)
        except ValueError:
            return text

    def _words(self, texts: Sequence[str], names: Sequence[str], lang: str) -> str:
        return " · ".join(self._say(x, names, lang, past=True) for x in texts)

    def board(
        self,
        state: Any,
        viewer: int | None,
        names: Sequence[str],
        lang: str,
        *,
        final: bool = False,
    ) -> RenderableType:
        seat = None if final else viewer
        obs = self.game.observe(state, seat).to_json()
        for key in self.game.observation_log_keys:
            obs.pop(key, None)
        parts: list[RenderableType] = [
            Rule(f"{self.game.title} · {t(lang, 'ui.turn', n=state.turn)}", style="bright_black"),
            Text(json.dumps(obs, ensure_ascii=False, sort_keys=True)),
        ]
        recent = self._log(state, seat)[-6:]
        if recent:
            parts += [
                Text(t(lang, "ui.recent"), style="bold underline"),
                Text(self._words(recent, names, lang)),
            ]
        mover = state.to_move
        if not final and mover is not None:
            who = (
                t(lang, "ui.your_turn")
                if mover == viewer
                else t(lang, "ui.turn_of", name=names[mover])
            )
            parts.append(Text(who, style="bold green"))
        return Group(*parts)

    def help(self, state: Any, lang: str) -> RenderableType:
        return Group(Rule(self.game.title), Text(t(lang, "ui.prompt")))

    def log(self, state: Any, viewer: int, names: Sequence[str], lang: str) -> RenderableType:
        lines = self._log(state, viewer)
        head = Text(t(lang, "ui.all_moves"), style="bold underline")
        if not lines:
            return Group(head, Text(t(lang, "ui.no_moves")))
        return Group(head, *(Text(self._say(x, names, lang, past=True)) for x in lines))

    def result(self, state: Any, names: Sequence[str], lang: str) -> RenderableType:
        return Group(
            Text(t(lang, "ui.game_over"), style="bold reverse"),
            Text(self.game.describe_result(state, names, lang), style="bold green"),
        )

    def moves_made(self, state: Any) -> int:
        moves = self.game.record(state).get("moves", [])
        return len(moves) if isinstance(moves, list) else 0

    def spectator_line(
        self, state: Any, start: int, turn: int, names: Sequence[str], lang: str
    ) -> RenderableType:
        texts = self._log(state, None)[start:]
        line = Text(f"{t(lang, 'ui.turn', n=turn)} ", style="bright_black")
        line.append(self._words(texts, names, lang))
        line.append("   [" + "; ".join(texts) + "]", style="bright_black")
        return line

    def order(self, texts: Sequence[str]) -> list[str]:
        return list(texts)

    def kind(self, text: str) -> str:
        return text.split(" ", 1)[0]

    def group_label(self, kind: str, count: int, lang: str) -> str:
        return f"{kind} … ({count})"

    def hidden_step(
        self, state: Any, text: str, choices: Sequence[Choice], lang: str
    ) -> tuple[Choice, str] | None:
        # which hidden step a typed move lies under is the game's to say: why_not tells
        return None

    def unreadable(self, text: str, error: str) -> str:
        return error

    def refusal(self, state: Any, text: str) -> str:
        return self.game.why_not(state, text)

    def reveal(
        self,
        state: Any,
        seat: int,
        step: Choice,
        expansion: Expansion,
        names: Sequence[str],
        lang: str,
    ) -> list[RenderableType]:
        shown = json.dumps(expansion.reveal, ensure_ascii=False)
        return [
            Text(self._say(step.text, names, lang), style="bold"),
            Text("➜ " + shown, style="bold yellow"),
        ]

"""The game loop of ``civcards play``: bots move, humans choose, the record is saved.

Generic over :class:`civcards.game_api.Game`: the seat to move chooses among
``game.choices`` (a step is expanded with ``game.expand``; a *hidden* step
shows its cards first and binds the seat), the move is played with
``game.play``, and the game's own screen (``game.terminal_screen()``) draws
the board, help, log and result.

Input is read line by line with :func:`input` (through Rich), so a pipe works
as well as a keyboard. Ctrl-C and the end of the input stop the game without
losing it: the record is written after every move.
"""

from __future__ import annotations

import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from ..bots import Bot, bot_move
from ..game_api import Choice, Game, MoveError
from ..i18n import t
from .menu import MenuItem, build_menu, common_prefix, list_view, menu_view
from .protocol import TerminalScreen
from .seats import is_human
from .storage import fallback_path, save_record

EXIT_OK = 0
EXIT_INPUT_ENDED = 1
EXIT_INTERRUPTED = 130

InputFn = Callable[[Console, Text], str]


class QuitRequested(Exception):
    """The player typed ``quit``."""


def console_input(console: Console, prompt: Text) -> str:
    """Read one line; echo it when the input is not a terminal (scripted games)."""
    answer = console.input(prompt)
    if not sys.stdin.isatty():
        console.print(Text(answer, style="bright_black"))
    return answer


def screen_of(game: Game) -> TerminalScreen:
    """The game's terminal screen, or the plain one for a game that has none."""
    get = getattr(game, "terminal_screen", None)
    screen = get() if get is not None else None
    if screen is None:
        from .plain import PlainScreen

        return PlainScreen(game)
    return screen  # type: ignore[no-any-return]


class Session:
    """One game at the terminal, from its current position to its end."""

    def __init__(
        self,
        game: Game,
        state: Any,
        specs: list[str],
        names: list[str],
        bots: Sequence[Bot | None],
        *,
        lang: str,
        console: Console,
        save_path: Path | None,
        delay: float = 0.0,
        input_fn: InputFn = console_input,
    ) -> None:
        self.game = game
        self.screen = screen_of(game)
        self.state = state
        self.specs = specs
        self.names = names
        self.bots = list(bots)
        self.lang = lang
        self.console = console
        self.save_path = save_path
        self.delay = delay
        self.input_fn = input_fn
        self.humans = [s for s, spec in enumerate(specs) if is_human(spec)]
        self.last_human: int | None = None
        self.printed = self.screen.moves_made(state)  # spectator log: moves printed so far
        self.save_error_shown = False
        self.group_turn = state.turn  # turn number of the moves not printed yet

    # -- the loop -------------------------------------------------------------

    def run(self) -> int:
        """Play to the end; the exit status (0, 1 input ended, 130 interrupted)."""
        try:
            self.save()
            while not self.state.finished:
                seat = self.state.to_move
                assert seat is not None
                bot = self.bots[seat]
                if bot is None:
                    self.human_turn(seat)
                else:
                    self.bot_turn(seat, bot)
                self.save()
        except KeyboardInterrupt:
            self.console.print()
            self.stopped(t(self.lang, "ui.interrupted"))
            return EXIT_INTERRUPTED
        except EOFError:
            self.console.print()
            self.stopped(t(self.lang, "ui.input_ended"))
            return EXIT_INPUT_ENDED
        except QuitRequested:
            self.stopped(None)
            return EXIT_OK
        self.finish()
        return EXIT_OK

    def save(self) -> None:
        if self.save_path is None:
            return
        try:
            save_record(self.save_path, self.game, self.state, self.names)
        except OSError as e:
            if not self.save_error_shown:
                self.save_error_shown = True
                self.console.print(
                    t(self.lang, "ui.save_failed", path=self.save_path, error=e.strerror or e),
                    style="bold red",
                )

    def resume_command(self, path: Path) -> str:
        cmd = ["civcards", "play", "--resume", str(path), "--seats", ",".join(self.specs)]
        if self.lang != "en":
            cmd += ["--lang", self.lang]
        return shlex.join(cmd)

    def stopped(self, why: str | None) -> None:
        """Say where the unfinished game is and how to go on."""
        if why:
            self.console.print(why, style="bold")
        path = self.save_path
        if path is None or self.save_error_shown:
            if not self.screen.moves_made(self.state):
                self.console.print(t(self.lang, "ui.not_saved"))
                return
            path = fallback_path()
            try:
                save_record(path, self.game, self.state, self.names)
            except OSError as e:
                self.console.print(t(self.lang, "ui.save_failed", path=path, error=e.strerror or e))
                return
        self.console.print(t(self.lang, "ui.saved_at", path=path))
        self.console.print(t(self.lang, "ui.resume_with", command=self.resume_command(path)))

    def finish(self) -> None:
        self.flush_spectator_log()
        self.console.print(
            self.screen.board(self.state, self.last_human, self.names, self.lang, final=True)
        )
        self.console.print()
        self.console.print(self.screen.result(self.state, self.names, self.lang))
        if self.save_path is not None and not self.save_error_shown:
            self.console.print(t(self.lang, "ui.record_saved", path=self.save_path))

    # -- bots -----------------------------------------------------------------

    def bot_turn(self, seat: int, bot: Bot) -> None:
        game, state = self.game, self.state
        if self.printed == self.screen.moves_made(state):
            self.group_turn = state.turn
        try:
            game.play(state, bot_move(bot, game, state))
        except (KeyboardInterrupt, EOFError):
            raise
        except Exception as e:  # a faulty bot must not end the game
            self.console.print(
                t(self.lang, "ui.bot_failed", name=self.names[seat], error=e), style="red"
            )
            legal = game.legal(state)
            rng: random.Random = getattr(bot, "rng", None) or random.Random()
            game.play(state, legal[rng.randrange(len(legal))])
        if not self.humans:
            if state.finished or state.to_move != seat:
                self.flush_spectator_log()
        elif self.delay > 0 and self.last_human is not None:
            self.show(self.last_human, [])
        if self.delay > 0:
            time.sleep(self.delay)

    def flush_spectator_log(self) -> None:
        """With bots only: print the moves made since the last line, one turn a line."""
        made = self.screen.moves_made(self.state)
        if self.humans or self.printed >= made:
            return
        self.console.print(
            self.screen.spectator_line(
                self.state, self.printed, self.group_turn, self.names, self.lang
            )
        )
        self.printed = made

    # -- humans ---------------------------------------------------------------

    def describe(self, text: str) -> str:
        """A choice in words; a step the game cannot put in words keeps its text."""
        try:
            return self.game.describe_move(text, self.names, self.lang)
        except ValueError:
            return text

    def ask(self, prompt: str) -> str:
        txt = Text(prompt, style="bold cyan")
        txt.append(" › ", style="bold")
        return self.input_fn(self.console, txt).strip()

    def pass_screen(self, seat: int) -> None:
        self.console.clear()
        self.console.print(Rule())
        self.ask(t(self.lang, "ui.pass_screen", name=self.names[seat]))
        self.console.clear()

    def show(self, viewer: int, extra: list[RenderableType]) -> None:
        self.console.clear()
        self.console.print(self.screen.board(self.state, viewer, self.names, self.lang))
        for r in extra:
            self.console.print(r)

    def page(self, what: RenderableType) -> None:
        """Show a full page (help, the log) until Enter."""
        self.console.clear()
        self.console.print(what)
        self.ask(t(self.lang, "ui.press_enter"))

    def command(self, ans: str, viewer: int) -> bool:
        """Handle ``?``/help, log and quit; True when ``ans`` was one of them."""
        low = ans.lower()
        if low in ("?", "h", "help", t(self.lang, "ui.cmd_help")):
            self.page(self.screen.help(self.state, self.lang))
            return True
        if low in ("log", "history"):
            self.page(self.screen.log(self.state, viewer, self.names, self.lang))
            return True
        if low in ("q", "quit", "exit", t(self.lang, "ui.cmd_quit")):
            raise QuitRequested
        return False

    def human_turn(self, seat: int) -> None:
        lang = self.lang
        if len(self.humans) > 1 and self.last_human != seat:
            self.pass_screen(seat)
        self.last_human = seat
        choices = {c.text: c for c in self.game.choices(self.state)}
        items = build_menu(list(choices), lang, self.screen, self.describe)
        group: list[str] | None = None
        notes: list[RenderableType] = []
        while True:
            if group is None:
                view = menu_view(items, lang, t(lang, "ui.choices"))
                count = len(items)
            else:
                view = list_view(group, lang, self.describe, t(lang, "ui.choices"), back=True)
                count = len(group)
            self.show(seat, [Text(""), view, *notes])
            notes = []
            ans = self.ask(t(lang, "ui.prompt"))
            if not ans or self.command(ans, seat):
                continue
            chosen: Choice | None = None
            if ans.isdigit():
                n = int(ans)
                if group is not None and n == 0:
                    group = None
                    continue
                if not 1 <= n <= count:
                    lo = 0 if group is not None else 1
                    notes.append(self.error(t(lang, "ui.bad_number", n=n, lo=lo, hi=count)))
                    continue
                if group is None:
                    item: MenuItem = items[n - 1]
                    if item.option is None:
                        group = item.group
                        continue
                    chosen = choices[item.option]
                else:
                    chosen = choices[group[n - 1]]
            else:
                chosen, note = self.typed(ans, list(choices.values()), group)
                if note is not None:
                    notes.append(note)
                if chosen is None:
                    continue
            if chosen.final:
                self.game.apply_choice(self.state, chosen)
                return
            if self.step(seat, chosen, notes):
                return
            notes = []

    def error(self, message: str) -> Text:
        return Text("✗ " + message, style="bold red")

    def typed(
        self, ans: str, choices: list[Choice], group: list[str] | None
    ) -> tuple[Choice | None, Text | None]:
        """A move typed in notation: (the choice it is, or None; a note to show)."""
        lang = self.lang
        by_text = {c.text: c for c in choices}
        candidates = [ans]
        if group is not None:
            prefix = common_prefix(group)
            if prefix:
                candidates.append(f"{prefix} {ans}")
        first_error: str | None = None
        canon: str | None = None
        for text in candidates:
            try:
                canon = self.game.canonical(text)
            except MoveError as e:
                first_error = first_error or self.screen.unreadable(text, str(e))
                continue
            if canon in by_text:
                return by_text[canon], None
        if canon is None:
            return None, self.error(t(lang, "ui.unreadable", error=first_error))
        hidden = self.screen.hidden_step(self.state, canon, choices, lang)
        if hidden is not None:
            step, note = hidden
            return step, Text(note)
        return None, self.error(
            t(lang, "ui.illegal", reason=self.screen.refusal(self.state, canon))
        )

    def step(self, seat: int, step: Choice, notes: list[RenderableType]) -> bool:
        """A step is chosen: show the choices below it (a hidden step first shows its
        cards, and then there is no way back). True once a move is played, False
        to go back to the menu."""
        lang = self.lang
        exp = self.game.expand(self.state, step)
        below = {c.text: c for c in exp.choices}
        full = self.screen.order(list(below))
        head: list[RenderableType] = [Text(""), *notes]
        if step.hidden:
            head += self.screen.reveal(self.state, seat, step, exp, self.names, lang)
        back = not step.hidden
        prefix = common_prefix(full)
        errors: list[RenderableType] = []
        while True:
            view = list_view(full, lang, self.describe, t(lang, "ui.choices"), back=back)
            self.show(seat, [*head, view, *errors])
            errors = []
            ans = self.ask(t(lang, "ui.prompt_reveal" if step.hidden else "ui.prompt"))
            if not ans or self.command(ans, seat):
                continue
            picked: Choice | None = None
            if ans.isdigit():
                n = int(ans)
                if back and n == 0:
                    return False
                if not 1 <= n <= len(full):
                    lo = 0 if back else 1
                    errors.append(self.error(t(lang, "ui.bad_number", n=n, lo=lo, hi=len(full))))
                    continue
                picked = below[full[n - 1]]
            else:
                for text in (ans, f"{prefix} {ans}"):
                    try:
                        canon = self.game.canonical(text)
                    except MoveError:
                        continue
                    if canon in below:
                        picked = below[canon]
                        break
                if picked is None:
                    errors.append(self.error(t(lang, "ui.not_a_choice", move=ans)))
                    continue
            if picked.final:
                self.game.apply_choice(self.state, picked)
                return True
            if self.step(seat, picked, []):
                return True


__all__ = ["Session", "screen_of"]

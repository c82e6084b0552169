"""The game loop of ``civcards play``: bots move, humans choose, the record is saved.

Input is read line by line with :func:`input` (through Rich), so a pipe works
as well as a keyboard. Ctrl-C and the end of the input stop the game without
losing it: the record is written after every move.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from ..bots import Bot
from ..bots.base import bot_move
from ..carta import (
    GAME,
    GameState,
    IllegalMoveError,
    NotationError,
    expand,
    format_move,
    observe,
    parse_move,
    seat_options,
)
from ..carta.cards import counts_to_str, str_to_counts
from ..carta.observation import public_move_text
from ..games.carta.text import cards_text, seat_label
from ..i18n import effect_name, t
from .menu import MenuItem, build_menu, common_prefix, list_view, menu_view, order_options
from .result import result_view
from .screen import board, help_view, history_lines, past_moves_text
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


class Session:
    """One game at the terminal, from its current position to its end."""

    def __init__(
        self,
        g: GameState,
        specs: list[str],
        names: list[str],
        bots: list[Bot | None],
        *,
        lang: str,
        console: Console,
        save_path: Path | None,
        delay: float = 0.0,
        input_fn: InputFn = console_input,
    ) -> None:
        self.g = g
        self.specs = specs
        self.names = names
        self.bots = bots
        self.lang = lang
        self.console = console
        self.save_path = save_path
        self.delay = delay
        self.input_fn = input_fn
        self.humans = [s for s, spec in enumerate(specs) if is_human(spec)]
        self.last_human: int | None = None
        self.printed = len(g.history)  # spectator log: moves printed so far
        self.save_error_shown = False
        self.group_turn = g.turn  # turn number of the moves not printed yet

    # -- the loop -------------------------------------------------------------

    def run(self) -> int:
        """Play to the end; the exit status (0, 1 input ended, 130 interrupted)."""
        try:
            self.save()
            while not self.g.finished:
                seat = self.g.to_move
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
            save_record(self.save_path, self.g, self.names)
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
            if not self.g.history:
                self.console.print(t(self.lang, "ui.not_saved"))
                return
            path = fallback_path()
            try:
                save_record(path, self.g, self.names)
            except OSError as e:
                self.console.print(t(self.lang, "ui.save_failed", path=path, error=e.strerror or e))
                return
        self.console.print(t(self.lang, "ui.saved_at", path=path))
        self.console.print(t(self.lang, "ui.resume_with", command=self.resume_command(path)))

    def finish(self) -> None:
        g = self.g
        self.flush_spectator_log()
        viewer = self.last_human
        obs = observe(g, viewer if viewer is not None else 0)
        self.console.print(board(obs, self.names, self.lang, viewer=None, recent=g.n))
        self.console.print()
        self.console.print(result_view(g, self.names, self.lang))
        if self.save_path is not None and not self.save_error_shown:
            self.console.print(t(self.lang, "ui.record_saved", path=self.save_path))

    # -- bots -----------------------------------------------------------------

    def bot_turn(self, seat: int, bot: Bot) -> None:
        g = self.g
        if self.printed == len(g.history):
            self.group_turn = g.turn
        try:
            move = bot_move(bot, GAME, g)
            g.apply(move)
        except (KeyboardInterrupt, EOFError):
            raise
        except Exception as e:  # a faulty bot must not end the game
            self.console.print(
                t(self.lang, "ui.bot_failed", name=self.names[seat], error=e), style="red"
            )
            legal = g.legal_strings()
            g.apply(legal[bot.rng.randrange(len(legal))])
        if not self.humans:
            if g.finished or g.to_move != seat:
                self.flush_spectator_log()
        elif self.delay > 0 and self.last_human is not None:
            self.show(self.last_human, [])
        if self.delay > 0:
            time.sleep(self.delay)

    def flush_spectator_log(self) -> None:
        """With bots only: print the moves made since the last line, one turn a line."""
        g = self.g
        if self.humans or self.printed >= len(g.history):
            return
        start = self.printed
        mover = g.movers[start]
        texts = [public_move_text(g, i, None) for i in range(start, len(g.history))]
        line = Text(f"{t(self.lang, 'ui.turn', n=self.group_turn)} ", style="bright_black")
        line.append(f"{seat_label(self.names, mover)}: ", style="bold")
        line.append(past_moves_text(self.lang, texts, self.names))
        line.append("   [" + "; ".join(texts) + "]", style="bright_black")
        self.console.print(line)
        self.printed = len(g.history)

    # -- humans ---------------------------------------------------------------

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
        g = self.g
        obs = observe(g, viewer)
        self.console.clear()
        self.console.print(
            board(
                obs,
                self.names,
                self.lang,
                viewer=viewer,
                hand_limit=g.hand_size(viewer),
                recent=min(6, g.n + 2),
            )
        )
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
            self.page(help_view(self.lang, self.g.thresholds))
            return True
        if low in ("log", "history"):
            obs = observe(self.g, viewer)
            lines = history_lines(obs, self.names, self.lang, None)
            head = Text(t(self.lang, "ui.all_moves"), style="bold underline")
            self.page(Group(head, *(lines or [Text(t(self.lang, "ui.no_moves"))])))
            return True
        if low in ("q", "quit", "exit", t(self.lang, "ui.cmd_quit")):
            raise QuitRequested
        return False

    def human_turn(self, seat: int) -> None:
        g = self.g
        lang = self.lang
        if len(self.humans) > 1 and self.last_human != seat:
            self.pass_screen(seat)
        self.last_human = seat
        options = seat_options(g)
        items = build_menu(options, lang, self.names)
        group: list[str] | None = None
        notes: list[RenderableType] = []
        while True:
            if group is None:
                view = menu_view(items, lang, t(lang, "ui.choices"))
                count = len(items)
            else:
                view = list_view(group, lang, self.names, t(lang, "ui.choices"), back=True)
                count = len(group)
            self.show(seat, [Text(""), view, *notes])
            notes = []
            ans = self.ask(t(lang, "ui.prompt"))
            if not ans or self.command(ans, seat):
                continue
            chosen: str | None = None
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
                    chosen = item.option
                else:
                    chosen = group[n - 1]
            else:
                chosen, note = self.typed(ans, options, group)
                if note is not None:
                    notes.append(note)
                if chosen is None:
                    continue
            if chosen.endswith("?"):
                self.commit(seat, chosen, notes)
            else:
                g.apply(chosen)
            return

    def error(self, message: str) -> Text:
        return Text("✗ " + message, style="bold red")

    def typed(
        self, ans: str, options: list[str], group: list[str] | None
    ) -> tuple[str | None, Text | None]:
        """A move typed in notation: (the option it is, or None; a note to show)."""
        lang = self.lang
        candidates = [ans]
        if group is not None:
            prefix = common_prefix(group)
            if prefix:
                candidates.append(f"{prefix} {ans}")
        first_error: str | None = None
        move = None
        for text in candidates:
            try:
                move = parse_move(text)
            except NotationError as e:
                first_error = first_error or str(e)
                continue
            canon = format_move(move)
            if canon in options:
                return canon, None
        if move is None:
            return None, self.error(t(lang, "ui.unreadable", error=first_error))
        # Discovery and Inquisition show hidden cards first: choosing one commits to it
        if move.kind == "discovery" and "discovery discard ?" in options:
            note = Text(t(lang, "ui.commit_first", effect=effect_name(lang, "discovery")))
            return "discovery discard ?", note
        secret = f"inquisition {move.seat} give ?"
        if move.kind == "inquisition" and secret in options:
            note = Text(t(lang, "ui.commit_first", effect=effect_name(lang, "inquisition")))
            return secret, note
        try:
            self.g.copy().apply(move)
        except IllegalMoveError as e:
            return None, self.error(t(lang, "ui.illegal", reason=e.reason))
        canon = format_move(move)
        return canon, None  # pragma: no cover - every legal move is an option or behind a '?'

    def commit(self, seat: int, option: str, notes: list[RenderableType]) -> None:
        """A '?' option is chosen: reveal its cards, then ask for the full move (no way back)."""
        g = self.g
        lang = self.lang
        reveal, full = expand(g, option)
        full = order_options(full)
        kind = option.split()[0]
        hand = g.hands[seat]
        if kind == "discovery":
            shown = (
                t(lang, "ui.revealed_discovery", cards=cards_text(lang, reveal))
                if reveal
                else t(lang, "ui.revealed_discovery_none")
            )
        else:
            target = int(option.split()[1])
            shown = t(
                lang,
                "ui.revealed_inquisition",
                seat=seat_label(self.names, target),
                cards=cards_text(lang, reveal),
            )
        pool = [a + b for a, b in zip(hand, str_to_counts(reveal), strict=True)]
        head: list[RenderableType] = [
            Text(""),
            *notes,
            Text(t(lang, "ui.committed", effect=effect_name(lang, kind)), style="bold"),
            Text("➜ " + shown, style="bold yellow"),
            Text(
                "   "
                + t(lang, "ui.pool", cards=cards_text(lang, counts_to_str(pool)))
                + f"   [{counts_to_str(pool)}]"
            ),
        ]
        prefix = option[:-1].strip()
        errors: list[RenderableType] = []
        while True:
            view = list_view(full, lang, self.names, t(lang, "ui.choices"), back=False)
            self.show(seat, [*head, view, *errors])
            errors = []
            ans = self.ask(t(lang, "ui.prompt_reveal"))
            if not ans or self.command(ans, seat):
                continue
            if ans.isdigit():
                n = int(ans)
                if 1 <= n <= len(full):
                    g.apply(full[n - 1])
                    return
                errors.append(self.error(t(lang, "ui.bad_number", n=n, lo=1, hi=len(full))))
                continue
            picked = None
            for text in (ans, f"{prefix} {ans}"):
                try:
                    canon = format_move(parse_move(text))
                except NotationError:
                    continue
                if canon in full:
                    picked = canon
                    break
            if picked is not None:
                g.apply(picked)
                return
            errors.append(self.error(t(lang, "ui.not_a_choice", move=ans)))

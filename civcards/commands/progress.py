"""The progress bar shared by the long-running commands (arena, simulate, train-value)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.progress import Progress


def progress_bar(label: str | None, show: bool, *, transient: bool = True) -> Progress:
    """A bar on stderr: ``label`` (or each task's description), bar, done/total, time left.

    ``show=False`` (``--no-progress``) gives a bar that draws nothing, so the
    caller's code stays the same either way. Rich's progress is imported here, when a
    command runs, not with the command line.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn(label if label is not None else "{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=transient,
        disable=not show,
    )


def stage_callbacks(
    bar: Progress, quiet: bool
) -> tuple[Callable[[str, int, int], None], Callable[[str], None]]:
    """(progress, log) for a run of stages on ``bar`` (``civcards train``): ``progress(stage,
    done, total)`` keeps one task a stage, removed when it is done; ``log(line)`` prints
    above the bar unless ``quiet`` (``--json``)."""
    tasks: dict[str, Any] = {}

    def progress(stage: str, done: int, total: int) -> None:
        task = tasks.get(stage)
        if task is None:
            task = tasks[stage] = bar.add_task(stage, total=total)
        bar.update(task, completed=done, total=total)
        if done >= total:
            bar.remove_task(task)
            del tasks[stage]

    def log(line: str) -> None:
        if not quiet:
            bar.console.print(line, soft_wrap=True)

    return progress, log


__all__ = ["progress_bar", "stage_callbacks"]

"""The progress bar shared by the long-running commands (arena, simulate, train-value)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


def progress_bar(label: str | None, show: bool, *, transient: bool = True) -> Progress:
    """A bar on stderr: ``label`` (or each task's description), bar, done/total, time left.

    ``show=False`` (``--no-progress``) gives a bar that draws nothing, so the
    caller's code stays the same either way.
    """
    return Progress(
        TextColumn(label if label is not None else "{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=transient,
        disable=not show,
    )


__all__ = ["progress_bar"]

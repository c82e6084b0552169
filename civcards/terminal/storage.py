"""Saving the game record atomically (a temporary file, then ``os.replace``)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from ..game_api import Game


def record_text(game: Game, state: Any, names: list[str]) -> str:
    """The record of ``state`` as the file holds it (JSON, one space of indent)."""
    return json.dumps(game.record(state, names), ensure_ascii=False, indent=1) + "\n"


def save_record(path: Path, game: Game, state: Any, names: list[str]) -> None:
    """Write the record of ``state`` to ``path``; the old file stays whole if this fails."""
    text = record_text(game, state, names)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def fallback_path() -> Path:
    """Where an unsaved game goes when it is interrupted: a new file in the current folder."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path(f"civcards-{stamp}.json")
    k = 2
    while path.exists():
        path = Path(f"civcards-{stamp}-{k}.json")
        k += 1
    return path

"""examples/train_policy.py: a tiny smoke run (PyTorch optional: skipped without it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_policy"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_train_policy_smoke(tmp_path: Path) -> None:
    tp = load()
    curve = tp.train(
        minutes=1.0, episodes_per_update=2, eval_every=1, eval_games=2, max_updates=2, log=False
    )
    assert curve["update"] == [1, 2]
    assert 0.0 <= curve["final_eval"] <= 1.0
    pytest.importorskip("matplotlib")
    out = tmp_path / "curve.png"
    tp.plot(curve, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

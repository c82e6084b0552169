"""``civcards report``: plots and a summary whose numbers match a recount of the rows."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from civcards.cli import app

pytest.importorskip("matplotlib", reason="the report needs matplotlib (extra 'sim')")

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"
PLOTS = ["effects.png", "first_seat.png", "hegemony_domains.png", "turns.png", "victory_types.png"]


def simulate_to(path: Path, *args: str) -> None:
    result = runner.invoke(app, ["simulate", "--no-progress", "--json", "--out", str(path), *args])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("results")
    files = [folder / "two.csv", folder / "three.csv.gz", folder / "teams.csv"]
    simulate_to(files[0], "-n", "30", "-p", "2", "-b", "greedy", "--seed", "1")
    simulate_to(files[1], "-n", "24", "-p", "3", "-b", "greedy", "--seed", "2")
    simulate_to(files[2], "-n", "12", "-p", "4", "--teams", "-b", "greedy", "--seed", "3")
    return files


def raw_rows(path: Path) -> list[dict[str, str]]:
    """The rows as text, read with the csv module alone (not the code under test)."""
    opener: Any = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def recount(rows: list[dict[str, str]]) -> dict[str, Any]:
    n = len(rows)
    p = int(rows[0]["players"])
    first_wins = [0] * p
    share = [0.0] * p
    by_victory = {"hegemony": [0.0] * p, "majority": [0.0] * p}
    for r in rows:
        won = [int(w) for w in r["winners"].split()]
        start = int(r["start"])
        for w in won:
            first_wins[(w - start) % p] += 1
            share[(w - start) % p] += 1 / len(won)
            by_victory[r["victory"]][(w - start) % p] += 1 / len(won)
    heg = [r for r in rows if r["victory"] == "hegemony"]
    return {
        "games": n,
        "hegemony": len(heg),
        "majority": sum(r["victory"] == "majority" for r in rows),
        "wins": first_wins,
        "share": [s / n for s in share],
        "by_victory": {
            v: [x / max(1, sum(r["victory"] == v for r in rows)) for x in xs]
            for v, xs in by_victory.items()
        },
        "domains": {c: sum(r["domain"] == c for r in heg) for c in "MRESCU"},
        "mean_turns": sum(int(r["turns"]) for r in rows) / n,
        "purge": sum(int(r["effect_purge"]) for r in rows) / n,
        "inspiration": sum(int(r["effect_inspiration"]) for r in rows) / n,
    }


def test_report_files_and_numbers(results: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", *map(str, results), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "66 games" in result.stdout
    for name in PLOTS:
        data = (out / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000, name
    readme = (out / "README.md").read_text(encoding="utf-8")
    for name in PLOTS:
        assert f"]({name})" in readme
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 66
    labels = {g["label"]: g for g in summary["groups"]}
    assert set(labels) == {"2p basic", "3p basic", "4p basic teams"}
    for label, path in zip(["2p basic", "3p basic", "4p basic teams"], results, strict=True):
        want = recount(raw_rows(path))
        g = labels[label]
        assert g["games"] == want["games"]
        assert g["hegemony"] == want["hegemony"] and g["majority"] == want["majority"]
        assert g["hegemony_domains"] == want["domains"]
        assert [x["wins"] for x in g["first_seat"]] == want["wins"]
        assert [x["win_share"] for x in g["first_seat"]] == pytest.approx(want["share"], abs=1e-4)
        assert sum(x["win_share"] for x in g["first_seat"]) == pytest.approx(1, abs=1e-3)
        for v in ("hegemony", "majority"):
            got = g["first_seat_by_victory"][v]
            assert got == pytest.approx(want["by_victory"][v], abs=1e-4)
        for x in g["first_seat"]:
            assert x["ci95"][0] <= x["win_share"] <= x["ci95"][1]
        assert g["turns"]["mean"] == pytest.approx(want["mean_turns"], abs=0.01)
        assert g["effects_per_game"]["purge"] == pytest.approx(want["purge"], abs=1e-3)
        assert g["effects_per_game"]["inspiration"] == pytest.approx(want["inspiration"], abs=1e-3)
        # the same numbers in the Markdown tables
        assert f"| {label} | {want['games']} | {want['hegemony']} | {want['majority']} |" in readme
        d = want["domains"]
        assert f"| {label} | " + " | ".join(str(d[c]) for c in "MRESCU") + " |" in readme
        share0 = want["share"][0]
        assert f"| {label} | 0 | {want['wins'][0]} | {share0:.4f} |" in readme
        assert f"the first player wins {100 * share0:.1f} %" in readme


def test_report_reads_parquet_like_csv(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow (extra 'sim') reads Parquet")
    simulate_to(tmp_path / "a.parquet", "-n", "10", "-p", "2", "-b", "greedy,random", "--seed", "5")
    simulate_to(tmp_path / "a.csv", "-n", "10", "-p", "2", "-b", "greedy,random", "--seed", "5")
    for name in ("a.parquet", "a.csv"):
        r = runner.invoke(app, ["report", str(tmp_path / name), "-o", str(tmp_path / name[2:])])
        assert r.exit_code == 0, r.output
    a = json.loads((tmp_path / "parquet" / "summary.json").read_text(encoding="utf-8"))
    b = json.loads((tmp_path / "csv" / "summary.json").read_text(encoding="utf-8"))
    assert a == b


def test_notes_are_kept_when_the_report_is_written_again(
    results: list[Path], tmp_path: Path
) -> None:
    out = tmp_path / "r"
    assert runner.invoke(app, ["report", str(results[0]), "-o", str(out)]).exit_code == 0
    readme = out / "README.md"
    text = readme.read_text(encoding="utf-8")
    marker = "<!-- civcards-report:notes:end -->"
    readme.write_text(text.replace(marker, "Our reading: seat 0 is fine.\n" + marker))
    assert runner.invoke(app, ["report", str(results[0]), "-o", str(out)]).exit_code == 0
    assert "Our reading: seat 0 is fine." in readme.read_text(encoding="utf-8")


def test_bad_input_exits_2_with_one_sentence(results: list[Path], tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.csv"
    garbage.write_text("a,b\n1,2\n")
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"not parquet at all")
    bad_value = tmp_path / "bad.csv"
    bad_value.write_text(results[0].read_text().replace("\n0,", "\nzero,", 1))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        ([str(tmp_path / "missing.csv")], "does not exist"),
        ([str(tmp_path / "x.txt")], ".parquet, .csv or .csv.gz"),
        ([str(garbage)], "not a results file"),
        ([str(broken)], "cannot read"),
        ([str(bad_value)], "cannot read"),
    ]
    for args, words in cases:
        r = runner.invoke(app, ["report", *args, "--out", str(tmp_path / "out")])
        assert r.exit_code == 2, (args, r.output)
        assert words in r.stderr, (words, r.stderr)
        assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) == 1
    r = runner.invoke(app, ["report", str(results[0]), "--out", str(blocker)])
    assert r.exit_code == 2 and "not a folder" in r.stderr

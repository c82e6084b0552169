"""``civcards play``: the terminal game, driven through a pipe as a player would type."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from civcards import carta
from civcards.carta import GameState
from civcards.game_api import get_game
from civcards.games.carta.screen import SCREEN, board
from civcards.terminal.menu import build_menu

ENV = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
ENV.pop("CIVCARDS_LANG", None)
PLENTY = "1\n" * 4000


def play(
    args: list[str], stdin: str, cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``civcards play`` in ``cwd`` (where an unsaved interrupted game is written)."""
    return subprocess.run(
        [sys.executable, "-m", "civcards.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        cwd=cwd,
        timeout=timeout,
    )


def replay_json(path: Path) -> tuple[int, dict[str, object]]:
    r = subprocess.run(
        [sys.executable, "-m", "civcards.cli", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        timeout=60,
    )
    return r.returncode, json.loads(r.stdout)


def record_moves(path: Path) -> list[str]:
    moves = json.loads(path.read_text(encoding="utf-8"))["moves"]
    assert isinstance(moves, list)
    return moves


def position_where(seat0_option: str, seed_range: int = 300) -> GameState:
    """A 2-player position where seat 0 is to move and has an option starting with ``seat0_option``."""
    for seed in range(seed_range):
        g = carta.new_game(2, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if g.finished:
                break
            if g.to_move == 0 and any(o.startswith(seat0_option) for o in carta.seat_options(g)):
                return g
            g.apply(rng.choice(g.legal_strings()))
    raise AssertionError(f"no position with {seat0_option!r}")  # pragma: no cover


def write(path: Path, g: GameState) -> Path:
    path.write_text(carta.write_record(g, ["You", "random"], indent=1), encoding="utf-8")
    return path


# -- whole games ------------------------------------------------------------------


def test_full_game_answering_1_is_saved_and_replays(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    r = play(["--seats", "human,random", "--seed", "5", "--save", str(save)], PLENTY, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "Game over" in r.stdout
    assert "Winner" in r.stdout
    rec = json.loads(save.read_text(encoding="utf-8"))
    assert "result" in rec
    assert rec["names"] == ["You", "random"]
    code, pos = replay_json(save)
    assert code == 0
    assert pos["finished"] is True and pos["ok"] is True
    assert pos["victory"] in ("hegemony", "majority")


def test_all_bots_play_a_whole_game_and_print_the_winner(tmp_path: Path) -> None:
    r = play(["--seats", "random,random,random", "--seed", "3"], "", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Winner" in r.stdout
    assert "Game over" in r.stdout
    assert "Turn 1 " in r.stdout  # the bots' moves are printed turn by turn


def test_all_bots_team_game(tmp_path: Path) -> None:
    save = tmp_path / "teams.json"
    r = play(
        ["--seats", "random,random,random,random", "--teams", "--seed", "8", "--save", str(save)],
        "",
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "Winners" in r.stdout
    code, pos = replay_json(save)
    assert code == 0 and pos["finished"] is True
    assert len(pos["winners"]) == 2  # type: ignore[arg-type]


def test_all_bots_draft_game(tmp_path: Path) -> None:
    save = tmp_path / "draft.json"
    r = play(
        ["--seats", "random,random", "--draft", "--seed", "2", "--save", str(save)], "", tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(save.read_text(encoding="utf-8"))["deal"] == "draft"
    assert "keep ?" in r.stdout  # a spectator does not see what was kept


def test_same_seed_same_game(tmp_path: Path) -> None:
    a = play(["--seats", "random,random", "--seed", "11"], "", tmp_path)
    b = play(["--seats", "random,random", "--seed", "11"], "", tmp_path)
    assert a.stdout == b.stdout


def test_majority_result_shows_the_table(tmp_path: Path) -> None:
    for seed in range(40):
        save = tmp_path / f"m{seed}.json"
        r = play(
            ["--seats", "random,random", "--seed", str(seed), "--save", str(save)], "", tmp_path
        )
        rec = json.loads(save.read_text(encoding="utf-8"))
        if rec["result"]["victory"] == "majority":
            assert "Majorities" in r.stdout and "Points" in r.stdout and "✓" in r.stdout
            return
    pytest.skip("no majority game among the seeds")  # pragma: no cover


# -- typed moves and mistakes -------------------------------------------------------


def test_typed_notation_is_accepted(tmp_path: Path) -> None:
    g = carta.new_game(2, seed=21, start=0)
    card = carta.observe(g, 0).hand[0]
    path = write(tmp_path / "typed.json", g)
    r = play(
        ["--resume", str(path), "--seats", "human,random"],
        f"  Play  {card.lower()} \nEND\n",
        tmp_path,
    )
    assert r.returncode == 1  # the input ended before the game
    assert record_moves(path)[:2] == [f"play {card}", "end"]


def test_bad_entries_are_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    g = carta.new_game(2, seed=21, start=0)
    path = write(tmp_path / "bad.json", g)
    script = "xyzzy\n42\nattack C\nplay\n1\n1\n"
    r = play(["--resume", str(path), "--seats", "human,random"], script, tmp_path)
    assert "Traceback" not in r.stderr
    out = r.stdout
    assert "Not understood" in out
    assert "There is no choice 42" in out
    assert "Illegal move" in out and "phase 1" in out
    moves = record_moves(path)
    assert moves[0].startswith("play ") and moves[1] == "end"


def test_eof_mid_game_leaves_a_replayable_record_and_resume_finishes_it(tmp_path: Path) -> None:
    save = tmp_path / "eof.json"
    r = play(["--seats", "human,random", "--seed", "7", "--save", str(save)], "1\n" * 9, tmp_path)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert "saved in" in r.stdout and "--resume" in r.stdout
    code, pos = replay_json(save)
    assert code == 0 and pos["finished"] is False
    before = record_moves(save)
    assert len(before) >= 9

    r2 = play(["--resume", str(save)], PLENTY, tmp_path)
    assert r2.returncode == 0, r2.stderr
    code, pos = replay_json(save)
    assert code == 0 and pos["finished"] is True
    assert record_moves(save)[: len(before)] == before


def test_eof_without_save_writes_a_fallback_record(tmp_path: Path) -> None:
    r = play(["--seats", "human,random", "--seed", "7"], "1\n" * 5, tmp_path)
    assert r.returncode == 1
    files = list(tmp_path.glob("civcards-*.json"))
    assert len(files) == 1
    code, pos = replay_json(files[0])
    assert code == 0 and pos["finished"] is False


def test_quit_saves_and_exits_0(tmp_path: Path) -> None:
    save = tmp_path / "q.json"
    r = play(["--seats", "human,random", "--seed", "7", "--save", str(save)], "1\nquit\n", tmp_path)
    assert r.returncode == 0
    assert "Resume it with" in r.stdout
    assert replay_json(save)[0] == 0


def test_ctrl_c_saves_and_exits_130(tmp_path: Path) -> None:
    save = tmp_path / "int.json"
    out = tmp_path / "out.txt"
    with out.open("w", encoding="utf-8") as f:
        cmd = [sys.executable, "-m", "civcards.cli", "play", "--seats", "human,random"]
        proc = subprocess.Popen(
            [*cmd, "--seed", "7", "--save", str(save)],
            stdin=subprocess.PIPE,
            stdout=f,
            stderr=subprocess.STDOUT,
            env=ENV,
            cwd=tmp_path,
            # a test runner's worker may ignore SIGINT, and a child would inherit that
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        # generous limits: on a loaded CI machine the start can take a while
        deadline = time.time() + 90
        while "›" not in out.read_text(encoding="utf-8") and time.time() < deadline:
            time.sleep(0.05)
        try:
            status = Path(f"/proc/{proc.pid}/status").read_text()
        except OSError:
            status = ""
        ignored = [ln for ln in status.splitlines() if ln.startswith("SigIgn")]
        try:
            proc.send_signal(signal.SIGINT)
            try:
                rc = proc.wait(timeout=90)
            except subprocess.TimeoutExpired:
                pytest.fail(f"no exit after SIGINT ({ignored}): {out.read_text()[-2000:]}")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    text = out.read_text(encoding="utf-8")
    assert "›" in text, text
    assert rc == 130
    assert "Traceback" not in text
    assert "Interrupted" in text and "--resume" in text
    assert replay_json(save)[0] == 0


def test_help_lists_the_effects_in_the_language(tmp_path: Path) -> None:
    r = play(["--seats", "human,random", "--seed", "7", "--lang", "de"], "?\n\nquit\n", tmp_path)
    assert r.returncode == 0
    for name in ("Hinrichtung", "Durchbruch", "Göttliches Recht", "Inspiration", "Demokratie"):
        assert name in r.stdout


def test_log_shows_all_moves(tmp_path: Path) -> None:
    r = play(["--seats", "human,random", "--seed", "7"], "1\n1\nlog\n\nquit\n", tmp_path)
    assert "All moves" in r.stdout


# -- Discovery and Inquisition: committed, then revealed ------------------------------


def test_discovery_reveals_then_asks(tmp_path: Path) -> None:
    g = position_where("discovery discard ?")
    path = write(tmp_path / "disc.json", g)
    n = len(g.history)
    r = play(["--resume", str(path), "--seats", "human,random"], "discovery\n0\n1\n", tmp_path)
    assert "You drew" in r.stdout
    assert "There is no choice 0" in r.stdout  # no way back after the reveal
    moves = record_moves(path)
    assert moves[n].startswith("discovery discard ") and "?" not in moves[n]


def test_inquisition_reveals_then_asks(tmp_path: Path) -> None:
    g = position_where("inquisition 1 give ?")
    path = write(tmp_path / "inq.json", g)
    n = len(g.history)
    game = get_game("carta")
    names = ["You", "random"]
    options = [c.text for c in game.choices(g)]
    items = build_menu(options, "en", SCREEN, lambda o: game.describe_move(o, names, "en"))
    number = next(i for i, it in enumerate(items, 1) if it.option == "inquisition 1 give ?")
    r = play(["--resume", str(path), "--seats", "human,random"], f"{number}\n1\n", tmp_path)
    assert "random's hand" in r.stdout
    assert record_moves(path)[n].startswith("inquisition 1 give ")


# -- hot-seat ----------------------------------------------------------------------


def test_hot_seat_passes_the_screen(tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    r = play(
        ["--seats", "human,human", "--names", "Ana,Bob", "--seed", "4", "--save", str(save)],
        PLENTY,
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "Pass the screen to Bob" in r.stdout and "Pass the screen to Ana" in r.stdout
    assert json.loads(save.read_text(encoding="utf-8"))["names"] == ["Ana", "Bob"]


def test_screen_shows_only_the_viewers_hand() -> None:
    g = carta.new_game(3, seed=9)
    for viewer in range(3):
        console = Console(record=True, width=100, no_color=True)
        console.print(board(carta.observe(g, viewer), ["A", "B", "C"], "en", viewer=viewer))
        text = console.export_text()
        hand_lines = [line for line in text.splitlines() if line.startswith("Your hand")]
        assert len(hand_lines) == 1
        mine = carta.observe(g, viewer).hand
        for letter in set(mine):
            assert f"[{letter}]" in hand_lines[0]
        for letter in set("MRESCU") - set(mine):
            assert f"[{letter}]" not in hand_lines[0]


# -- languages -----------------------------------------------------------------------

DOMAINS = {
    "en": ("Military", "Religion", "Economy", "Science", "Culture", "Utopia"),
    "es": ("Militar", "Religión", "Economía", "Ciencia", "Cultura", "Utopía"),
    "de": ("Militär", "Religion", "Wirtschaft", "Wissenschaft", "Kultur", "Utopia"),
    "fr": ("Militaire", "Religion", "Économie", "Science", "Art", "Utopie"),
    "pt": ("Poder Militar", "Religião", "Economia", "Ciência", "Artes", "Utopia"),
}


@pytest.mark.parametrize("lang", sorted(DOMAINS))
def test_lang_prints_localized_domain_names(lang: str, tmp_path: Path) -> None:
    r = play(["--seats", "human,random", "--seed", "7", "--lang", lang], "", tmp_path)
    assert r.returncode == 1  # no input at all
    for name in DOMAINS[lang]:
        assert name in r.stdout, (lang, name)


# -- errors of the command line -----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "5"], "2, 3 or 4"),
        (["--players", "1"], "2, 3 or 4"),
        (["--teams", "--players", "3"], "4 players"),
        (["--seats", "human,dragon"], "'dragon' is not a seat"),
        (["--seats", "human,random", "--players", "3"], "--players is 3"),
        (["--seats", "human"], "2, 3 or 4 players"),
        (["--seats", "human,random,random,random,random"], "2, 3 or 4 players"),
        (["--lang", "xx"], "--lang"),
        (["--names", "a,b", "--players", "3"], "--names"),
        (["--resume", "/nonexistent/game.json"], "cannot resume"),
        (["--save", "/nonexistent/dir/game.json"], "cannot save"),
        (["--delay", "-1"], "--delay"),
    ],
)
def test_usage_errors_exit_2_without_traceback(args: list[str], words: str, tmp_path: Path) -> None:
    r = play(args, "", tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert words in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_resume_refuses_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "civ-notation/1", "players": 2, "seed": 1, "moves": ["end"]}')
    r = play(["--resume", str(path)], "", tmp_path)
    assert r.returncode == 2
    assert "illegal" in r.stderr


def test_resume_a_finished_game_shows_the_result(tmp_path: Path) -> None:
    save = tmp_path / "done.json"
    play(["--seats", "random,random", "--seed", "1", "--save", str(save)], "", tmp_path)
    r = play(["--resume", str(save)], "", tmp_path)
    assert r.returncode == 0
    assert "Winner" in r.stdout


# -- the loop is generic ----------------------------------------------------------------


def test_a_game_without_a_screen_of_its_own_plays_on_the_plain_screen(tmp_path: Path) -> None:
    """The test-only game (no terminal screen): a human against random, choosing by number,
    through its factored ``play`` step and hidden ``peek`` step, to the end; saved and resumable."""
    from civcards.game_api import game_names, register, unregister
    from civcards.terminal.plain import PlainScreen
    from civcards.terminal.seats import build_bots
    from civcards.terminal.session import Session, screen_of
    from tests.toygame import GAME as TOY

    was_registered = TOY.name in game_names()
    register(TOY)
    try:
        assert isinstance(screen_of(TOY), PlainScreen)
        specs = ["human", "random"]
        state = TOY.new_state(2, {}, seed=3)
        console = Console(record=True, width=100, no_color=True)
        answers = iter(["log", "", "?", "", "1", "0", "2", "9", "1"] + ["1"] * 200)
        save = tmp_path / "toy.json"
        session = Session(
            TOY,
            state,
            specs,
            ["Ana", "random"],
            build_bots(specs, 5, TOY),
            lang="en",
            console=console,
            save_path=save,
            input_fn=lambda c, p: next(answers),
        )
        assert session.run() == 0
        assert state.finished
        out = console.export_text()
        assert "Game over" in out and TOY.describe_result(state, ["Ana", "random"], "en") in out
        assert "There is no choice 9" in out
        rec = json.loads(save.read_text(encoding="utf-8"))
        assert rec["format"] == "toy-notation/1" and rec["moves"] == state.moves
        assert any(m.startswith("peek ") for m in rec["moves"])
        assert TOY.from_record(rec).moves == state.moves
    finally:
        if not was_registered:  # other test modules of this process rely on it
            unregister(TOY.name)


def test_unknown_game_is_one_sentence(tmp_path: Path) -> None:
    r = play(["--game", "chess"], "", tmp_path)
    assert r.returncode == 2
    assert "there is no game 'chess'" in r.stderr and "Traceback" not in r.stderr


def test_game_option_flags_are_checked_by_the_game(tmp_path: Path) -> None:
    r = play(["--option", "deal=auction", "--seats", "random,random"], "", tmp_path)
    assert r.returncode == 2 and "the deal is 'basic' or 'draft'" in r.stderr
    r = play(["--option", "nonsense", "--seats", "random,random"], "", tmp_path)
    assert r.returncode == 2 and "CIV has no option 'nonsense'" in r.stderr
    r = play(["--option", "deal=", "--seats", "random,random"], "", tmp_path)
    assert r.returncode == 2 and "NAME=VALUE" in r.stderr
    save = tmp_path / "o.json"
    r = play(
        ["--option", "deal=draft", "--seats", "random,random", "--seed", "2", "--save", str(save)],
        "",
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(save.read_text(encoding="utf-8"))["deal"] == "draft"

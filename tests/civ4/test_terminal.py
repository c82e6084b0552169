"""``civcards play --game civ4``: the terminal game of Civilization: The Card Game, driven
through a pipe as a player would type, and its screen (C72: only the viewer's hand)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from civcards import civ4
from civcards.civ4 import CARDS, GameState, observe
from civcards.civ4.game import STALEMATE
from civcards.game_api import get_game
from civcards.games.civ4.screen import Civ4Screen, board, help_view, leads_to, proposal
from civcards.games.civ4.text import card_name
from civcards.i18n import LANGS, t

GAME = get_game("civ4")
ENV = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
ENV.pop("CIVCARDS_LANG", None)
PLENTY = "1\n" * 6000


def play(
    args: list[str], stdin: str, cwd: Path, timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "civcards.cli", "play", "--game", "civ4", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        cwd=cwd,
        timeout=timeout,
    )


def render(renderable: object, width: int = 160) -> str:
    console = Console(record=True, width=width, no_color=True)
    console.print(renderable)
    return console.export_text()


def finished_record(path: Path) -> GameState:
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert rec["format"] == "civ4-notation/1"
    state = GAME.from_record(rec)
    assert isinstance(state, GameState) and state.finished
    return state


# -- whole games ---------------------------------------------------------------------------


def test_bots_only_game_prints_rounds_and_the_winner(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    r = play(["--seats", "random,greedy", "--seed", "3", "--save", str(save)], "", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "Round 1 " in r.stdout and "Game over" in r.stdout
    g = finished_record(save)
    assert GAME.describe_result(g, ["random", "greedy"], "en") in r.stdout
    assert json.loads(save.read_text(encoding="utf-8"))["names"] == ["random", "greedy"]


def test_same_seed_same_game(tmp_path: Path) -> None:
    a = play(["--seats", "random,random,random", "--seed", "11"], "", tmp_path)
    b = play(["--seats", "random,random,random", "--seed", "11"], "", tmp_path)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout


def test_scripted_human_game_with_typed_moves_help_and_log(tmp_path: Path) -> None:
    """A human plays seat 0: types the first draft pick in notation, a bad move and a bad
    number (refused, the game goes on), asks for help and the log, then answers 1."""
    save = tmp_path / "human.json"
    start = GAME.new_state(2, GAME.check_options(2, {}), 7)
    pick = start.legal_strings()[-1]
    script = "pick ZZZ\n99\n?\n\nlog\n\n" + pick + "\n" + PLENTY
    r = play(["--seats", "human,random", "--seed", "7", "--save", str(save)], script, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "Not understood" in r.stdout or "Illegal move" in r.stdout
    assert "There is no choice 99" in r.stdout
    assert "Every card" in r.stdout and "RECONSTRUCTED" in r.stdout
    assert "All moves" in r.stdout
    assert "Your hand" in r.stdout and "Your choices" in r.stdout
    assert "Game over" in r.stdout
    g = finished_record(save)
    assert g.moves[0] == pick
    assert json.loads(save.read_text(encoding="utf-8"))["names"] == ["You", "random"]


def test_human_answering_1_takes_the_proposed_choices(tmp_path: Path) -> None:
    """Answering 1 takes the engine's proposed move first (default_move): the plot payments
    and collects it plays are the proposed ones."""
    save = tmp_path / "p.json"
    r = play(["--seats", "human,greedy", "--seed", "4", "--save", str(save)], PLENTY, tmp_path)
    assert r.returncode == 0, r.stderr
    g = finished_record(save)
    rep = civ4.state_from_record({**json.loads(save.read_text(encoding="utf-8")), "moves": []})
    for text in g.moves:
        if rep.to_move == 0 and rep.step == "collect":
            assert text == civ4.default_move(rep)
        rep.apply(text)


# -- save and resume ------------------------------------------------------------------------


def test_save_and_resume_round_trip(tmp_path: Path) -> None:
    save = tmp_path / "half.json"
    r = play(["--seats", "human,random", "--seed", "5", "--save", str(save)], "1\n" * 40, tmp_path)
    assert r.returncode == 1, r.stderr  # the input ended before the game
    assert "civcards play --resume" in r.stdout
    half = json.loads(save.read_text(encoding="utf-8"))
    assert half["moves"] and "result" not in half
    assert not GAME.from_record(half).finished
    r2 = play(["--resume", str(save), "--seats", "human,random"], PLENTY, tmp_path)
    assert r2.returncode == 0, r2.stderr
    assert f"after {len(half['moves'])} moves" in r2.stdout
    g = finished_record(save)
    assert g.moves[: len(half["moves"])] == half["moves"]


# -- options and languages -----------------------------------------------------------------


def test_options_reach_the_game(tmp_path: Path) -> None:
    save = tmp_path / "o.json"
    r = play(
        [
            "--seats",
            "random,random",
            "--seed",
            "2",
            "--save",
            str(save),
            "--option",
            "hand_limit=10",
            "--option",
            "finish_round",
        ],
        "",
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    opts = json.loads(save.read_text(encoding="utf-8"))["options"]
    assert opts["hand_limit"] == 10 and opts["finish_round"] is True
    bad = play(["--seats", "random,random", "--option", "bogus"], "", tmp_path)
    assert bad.returncode == 2 and "'bogus' is not a variant" in bad.stderr
    assert "Traceback" not in bad.stderr
    few = play(["--players", "5"], "", tmp_path)
    assert few.returncode == 2 and "(C8)" in few.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_lang_prints_the_game_in_the_language(lang: str, tmp_path: Path) -> None:
    r = play(["--seats", "random,greedy", "--seed", "6", "--lang", lang], "", tmp_path)
    assert r.returncode == 0, r.stderr
    assert t(lang, "ccg.title") in r.stdout
    assert t(lang, "ccg.reconstructed") in r.stdout
    assert t(lang, "ccg.round", n=1) in r.stdout


def test_describe_move_honours_lang() -> None:
    names = ["Ana", "Bob"]
    assert GAME.describe_move("tech WRI", names, "es") == "Comprar la tecnología Escritura"
    assert (
        GAME.describe_move("build WAL p1", names, "es")
        == "Construir Murallas de la Ciudad en la parcela 1"
    )
    assert GAME.describe_move("attack 1=CHR", names, "de") == "Angreifen: Bob mit Streitwagen"
    assert GAME.describe_move("tech WRI", names, "en") == "Buy the technology Writing"
    assert GAME.describe_move("nonsense", names, "fr") == "nonsense"


# -- the help -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es"])
def test_help_lists_every_card_and_says_the_set_is_reconstructed(lang: str) -> None:
    text = render(help_view(lang), width=220)
    assert t(lang, "ccg.reconstructed") in text
    for code in CARDS.names:
        assert f"{card_name(code, lang)} {code}" in text, code
    # a unit profile, an effect and a plot yield, in words
    assert t(lang, "ccg.unit.breaks") in text
    assert t(lang, "ccg.effect.steal_card", n=1) in text
    assert t(lang, "ccg.yields", res="").rstrip() in text


# -- the screen: what a seat sees (C72) -------------------------------------------------------


def hand_area(text: str) -> str:
    """The lines of the hand section: from 'Your hand (' to the end of the board."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Your hand ("))
    return "\n".join(lines[start:])


def hand_names(area: str) -> set[str]:
    """The card names listed in a hand area (``  • Granary ×2   building …``)."""
    out = set()
    for line in area.splitlines():
        if line.startswith("  • "):
            name = line[4:].split("  ")[0]
            out.add(name.split(" ×")[0])
    return out


def position_with_distinct_hands(seed: int = 1) -> tuple[GameState, str, str]:
    """A 2-player Purchase position where each hand holds a card the other lacks."""
    rng = random.Random(seed)
    g = civ4.new_game(2, seed=seed)
    while not g.finished:
        mine, theirs = set(g.hand(0)), set(g.hand(1))
        if g.step == "purchase" and mine - theirs and theirs - mine:
            return g, sorted(mine - theirs)[0], sorted(theirs - mine)[0]
        g.apply(rng.choice(g.legal_strings()))
    raise AssertionError("no such position")  # pragma: no cover


def test_screen_never_shows_another_seats_hand() -> None:
    """C72: the board for seat 0 shows seat 0's cards in its hand area and none that only seat 1
    holds; the same board for seat 1 shows them (so the check can fail)."""
    g, only0, only1 = position_with_distinct_hands()
    names = ["Ana", "Bob"]
    screen = Civ4Screen()
    for viewer, own, other in ((0, only0, only1), (1, only1, only0)):
        shown = hand_names(hand_area(render(screen.board(g, viewer, names, "en"))))
        assert card_name(own) in shown
        assert card_name(other) not in shown
        assert shown == {card_name(c) for c in g.hand(viewer)}
    final = render(board(observe(g, None), names, "en", movers=screen.movers(g)))
    assert "Your hand" not in final


def test_hand_shows_costs_after_the_viewers_discounts() -> None:
    """C26: a building in hand shows its cost less the viewer's building discounts (Pottery)."""
    from tests.civ4.helpers import at_purchase, give, grant_tech

    g = at_purchase(2, seed=3)
    give(g, 0, "GRN")
    grant_tech(g, 0, "POT")
    area = hand_area(render(Civ4Screen().board(g, 0, ["A", "B"], "en")))
    line = next(x for x in area.splitlines() if "Granary" in x)
    assert f"cost {CARDS.deck['GRN'].cost - 1}H" in line
    assert f"cash {CARDS.deck['GRN'].resource[0]}F" in line


# -- menus: the proposed choice first ---------------------------------------------------------


def test_plot_payments_list_the_proposed_payment_first() -> None:
    from tests.civ4.helpers import at_purchase, set_supply

    g = at_purchase(2, seed=0)
    set_supply(g, 0, 9, 9, 9)
    screen = Civ4Screen()
    screen.moves_made(g)  # the session shows the screen its state first
    step = next(c for c in GAME.choices(g) if c.text.startswith("plot ") and not c.final)
    below = [c.text for c in GAME.expand(g, step).choices]
    ordered = screen.order(below)
    want = civ4.default_move(g, step.text)
    assert leads_to(ordered[0], want)  # the proposed payment, or the food step leading to it
    assert not any(leads_to(x, want) for x in ordered[1:])
    assert proposal(g, below) == ordered[0]
    assert sorted(ordered) == sorted(below)
    assert screen.kind(ordered[0]) == "proposed"  # its own line: never folded into a group


# -- hot-seat combat: the defender is asked ---------------------------------------------------


def combat_record(tmp_path: Path) -> tuple[Path, int, int]:
    """A saved 2-player game stopped where a defender must answer an attack, in the last round
    (C69: the game ends in stalemate after it), so that little of the game is left to type
    (from the first attack of the game, ~300 moves: 20 s of screens), and where the attacker
    holds a card the defender lacks (what the defender's screen must not show)."""
    for seed in range(200):
        rng = random.Random(seed)
        g = civ4.new_game(2, seed=seed)
        while not g.finished and len(g.moves) < 3000:
            defender = g.to_move
            if (
                g.combat is not None
                and defender is not None
                and defender != g.combat.attacker
                and g.round >= STALEMATE
                and set(g.hand(g.combat.attacker)) - set(g.hand(defender))
            ):
                path = tmp_path / "combat.json"
                rec = GAME.record(g, ["Ana", "Bob"])
                path.write_text(json.dumps(rec), encoding="utf-8")
                return path, g.combat.attacker, defender
            if g.step == "collect":  # its proposed collect: late in a game a collect has
                g.apply(civ4.default_move(g))  # millions of choices (seconds to list)
                continue
            legal = g.legal_strings()
            attacks = [m for m in legal if m.startswith("attack")]
            g.apply(rng.choice(attacks) if attacks and rng.random() < 0.5 else rng.choice(legal))
    raise AssertionError("no combat found")  # pragma: no cover


def test_hot_seat_defender_is_prompted_and_sees_only_their_hand(tmp_path: Path) -> None:
    path, attacker, defender = combat_record(tmp_path)
    names = ["Ana", "Bob"]
    g = GAME.from_record(json.loads(path.read_text(encoding="utf-8")))
    defender_hand = set(g.hand(defender))
    attacker_only = set(g.hand(attacker)) - defender_hand
    assert attacker_only
    r = play(["--resume", str(path), "--seats", "human,human"], "\n1\n" * 3000, tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    first = out.index(f"Pass the screen to {names[defender]}")
    nxt = out.find("Pass the screen to", first + 10)
    turn = out[first : nxt if nxt != -1 else len(out)]
    assert f"{names[attacker]} attacks you: choose your defence" in turn
    assert f"Combat: {names[attacker]} attacks" in turn
    area = hand_area(turn)
    area = area[: area.index("Your choices")]  # the defender's first board
    shown = hand_names(area)
    assert shown == {card_name(c) for c in defender_hand}
    assert not shown & {card_name(c) for c in attacker_only}
    assert f"Pass the screen to {names[attacker]}" in out
    finished_record(path)


@pytest.mark.parametrize("module", ["text", "screen"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    mod = importlib.import_module(f"civcards.games.civ4.{module}")
    assert doctest.testmod(mod).failed == 0


def test_default_opponents_play_at_a_human_pace() -> None:
    """civ4 brings its own search kit (games/civ4/search.py, a fraction of a second a
    move), so `civcards play --game civ4` seats ismcts by default, as CIV does."""
    from civcards.game_api import get_game
    from civcards.terminal.seats import default_bot

    assert default_bot(get_game("civ4")) == "ismcts"
    assert default_bot(get_game("carta")) == "ismcts"

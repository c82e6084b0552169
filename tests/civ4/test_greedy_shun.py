"""``greedy:not=WRI``: greedy without a technology, the bot Q10 of the balance study sets
against ``greedy`` (DESIGN-NOTES §6: "win share of their owners against the same bot
without them"), and the report's lines for those games (issue 19)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from civcards.bots import make_bot
from civcards.bots.base import bot_choice
from civcards.civ4.moves import parse_move
from civcards.game_api import get_game
from civcards.games.civ4.bots import GreedyBot, parse_shun
from civcards.games.civ4.report import q10_writing_code_of_laws
from civcards.sim.rows import game_row
from civcards.sim.simulate import play_seated

GAME = get_game("civ4")


def _techs_taken(text: str) -> list[str]:
    """The technologies a final move takes: a purchase (C29) or a wonder's free ones (C62)."""
    m = parse_move(text)
    if text.startswith("tech "):
        return [text.split()[1]]
    if m.extra == "free":
        return list(m.cards)
    return []


#: deals of 2-player games (default set-up) with Writing in play: 902-904, 906
WRI_DEALS = (902, 903, 904, 906)


@pytest.mark.parametrize("deal", WRI_DEALS)
def test_shunners_take_writing_only_as_the_last_technology(deal: int) -> None:
    """C29, C62, C68: ``greedy:not=WRI`` never buys Writing nor takes it free from a wonder,
    unless taking it is all that is left (the last technology, whose purchase ends the
    game). With the bot in both seats, Writing stays in the market until it is the last
    one, and the game still ends by it."""
    state = GAME.new_state(2, GAME.check_options(2, {}), deal)
    assert "WRI" in state.init_techs
    bots = [make_bot(GAME, "greedy:not=WRI", seed=s) for s in (1, 2)]
    taken_by: list[str] = []
    while state.to_move is not None:
        choice = bot_choice(bots[state.to_move], GAME, state)
        taken = _techs_taken(choice.text)
        if "WRI" in taken:
            left = state.tech_pile_size + len(state.tech_market)
            assert left <= len(taken), (choice.text, left)
            taken_by.append(choice.text)
        GAME.apply_choice(state, choice)
    result = GAME.result(state)
    assert state.finished and result is not None and result.reason == "last_tech"
    assert len(taken_by) == 1


def test_shunner_is_greedy_where_the_technology_is_not_offered() -> None:
    """Where Writing is not in play (removed at set-up, C9) the two bots choose alike: the
    shunner differs from greedy in nothing but the technology."""
    for seed in range(40):
        state = GAME.new_state(2, GAME.check_options(2, {}), 2000 + seed)
        if "WRI" not in state.init_removed:
            continue
        a = play_seated(GAME, ["greedy", "greedy"], 2000 + seed, records=True, bot_seed=5)
        b = play_seated(GAME, ["greedy", "greedy:not=WRI"], 2000 + seed, records=True, bot_seed=5)
        assert a.record is not None and b.record is not None
        assert a.record.replace("greedy:not=WRI", "greedy") == b.record.replace(
            "greedy:not=WRI", "greedy"
        )
        return
    pytest.fail("no deal of the 40 removes Writing")  # pragma: no cover


def test_bad_shun_specs_are_refused_in_one_sentence() -> None:
    assert parse_shun("wri+COL") == frozenset({"WRI", "COL"})
    for spec, words in (
        ("greedy:not=XYZ", "XYZ is not a technology code"),
        ("greedy:not=", "takes technology codes joined by '+'"),
        ("greedy:not=WRI++COL", "takes technology codes joined by '+'"),
    ):
        with pytest.raises(ValueError, match=re.escape(words)):
            make_bot(GAME, spec, seed=0)
    # any other part after the name still names a copy of greedy
    bot = make_bot(GAME, "greedy:b", seed=0)
    assert isinstance(bot, GreedyBot) and not bot.policy.weights.shun


def _row(seats: list[str], seed: int) -> dict[str, Any]:
    # the rules as written (C68): the report's Q10 reads those games
    opts = {"finish_round": False}
    return game_row(play_seated(GAME, seats, seed, rows=True, options=opts), GAME)


def test_report_judges_q10_against_the_bot_without_the_technology() -> None:
    """Q10: the report's line for greedy against ``greedy:not=WRI`` is greedy's win share in
    the games where Writing is in play, judged against the fair share + 10 points; the games
    where it was removed are the control; the mirror's owner line becomes a comparison."""
    rows = [_row(["greedy", "greedy:not=WRI"], 3000 + i) for i in range(6)]
    rows += [_row(["greedy:not=WRI", "greedy"], 3000 + i) for i in range(6)]
    rows += [_row(["greedy", "greedy"], 3100 + i) for i in range(4)]
    ans = q10_writing_code_of_laws(rows)
    lines = {ln["label"]: ln for ln in ans.lines}
    inplay = [r for r in rows if r["bot_0"] != r["bot_1"] and r.get("owner_WRI") is not None]
    wins = [
        1.0 / len(r["winners"].split())
        if str(next(s for s in (0, 1) if r[f"bot_{s}"] == "greedy")) in r["winners"].split()
        else 0.0
        for r in inplay
    ]
    label = f"2p rules: greedy against greedy:not=WRI, Writing in play ({len(inplay):,} games)"
    assert label in lines, sorted(lines)
    line = lines[label]
    assert line["value"] == pytest.approx(round(sum(wins) / len(wins), 4))
    assert line["target"] == "≤ 60.0 %" and line["met"] == (sum(wins) / len(wins) <= 0.6)
    removed = len([r for r in rows if r["bot_0"] != r["bot_1"]]) - len(inplay)
    control = [lb for lb in lines if "Writing removed" in lb]
    assert bool(control) == (removed > 0)
    owner = next(ln for lb, ln in lines.items() if lb.startswith("2p rules: Writing owner"))
    assert owner["met"] is None and "greedy:not=WRI" in owner["target"]
    # Code of Laws has no such games here: its mirror line keeps the target
    col = next(ln for lb, ln in lines.items() if lb.startswith("2p rules: Code of Laws owner"))
    assert col["target"] == "≤ 60.0 %"

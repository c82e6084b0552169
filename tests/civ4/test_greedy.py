"""civ4's ``greedy`` bot: legal answers everywhere, sensible purchases and blocks, and strength.

Positions are put in place with the rule-test helpers; the bot itself only
ever sees the seat's observation and the offered choices.
"""

from __future__ import annotations

import random

import pytest

from civcards.bots import bot_choice, bot_names, make_bot
from civcards.civ4 import GameState
from civcards.game_api import Choice, get_game
from civcards.games.civ4.bots import GreedyBot, match
from civcards.games.civ4.greedy import GreedyPolicy
from tests.civ4.helpers import (
    at_purchase,
    build_on,
    empty_hand,
    give,
    play,
    random_move,
    set_pop,
    set_supply,
)

GAME = get_game("civ4")


def _greedy_move(state: GameState, bot: GreedyBot | None = None) -> str:
    """What greedy plays here, through the generic driver (steps expanded)."""
    bot = bot or GreedyBot(0)
    return bot_choice(bot, GAME, state).text


def test_registered_for_civ4() -> None:
    """Item 5 of issue 17: greedy is one of civ4's bots, built by make_bot."""
    assert "greedy" in bot_names(GAME)
    bot = make_bot(GAME, "greedy", seed=1)
    assert isinstance(bot, GreedyBot) and bot.name == "greedy"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_always_a_legal_choice_over_random_positions(players: int) -> None:
    """At every decision of random games (any seat, any step) greedy's answer is legal,
    and it never has to fall back for want of the move it computed."""
    bot = GreedyBot(0)
    asked = 0
    for seed in range(4 if players == 2 else 2):
        state = GAME.new_state(players, {}, seed)
        rng = random.Random(seed)
        while GAME.result(state) is None:
            text = _greedy_move(state, bot)
            copy = state.copy()
            assert GAME.play(copy, text) == text
            asked += 1
            state.apply(random_move(state, rng))
    assert asked > 300
    assert bot.policy.fallbacks == 0


def test_buys_population_when_nothing_better() -> None:
    """C34: with food for a population, no coins, no hammers and no useful cards, greedy buys it."""
    g = at_purchase(2, seed=3)
    empty_hand(g, 0)
    set_supply(g, 0, f=6)
    g.plot_market.clear()
    assert _greedy_move(g).startswith("pop p")


def test_buys_a_technology_it_can_afford() -> None:
    """C32: coins enough for the cheapest market technology are spent on one."""
    g = at_purchase(2, seed=3)
    empty_hand(g, 0)
    set_supply(g, 0, c=8)
    g.plot_market.clear()
    move = _greedy_move(g)
    assert move.startswith("tech "), move


def test_ends_with_nothing_to_buy() -> None:
    """C36: with an empty supply and hand there is nothing to do but end."""
    g = at_purchase(2, seed=3)
    empty_hand(g, 0)
    set_supply(g, 0)
    assert _greedy_move(g) == "end"


def test_does_not_buy_the_last_technology_to_lose() -> None:
    """C68: buying the last technology ends the game at once, so a trailing greedy waits."""
    g = at_purchase(2, seed=3)
    empty_hand(g, 0)
    g.plot_market.clear()
    g.tech_pos = len(g.init_techs)
    del g.tech_market[1:]
    set_supply(g, 0, c=20)
    set_pop(g, 1, 1, 5)
    assert g.tech_pile_size == 0 and len(g.tech_market) == 1
    assert not _greedy_move(g).startswith("tech")
    # ahead, it ends the game by buying it
    set_pop(g, 1, 1, 0)
    set_pop(g, 0, 1, 5)
    assert _greedy_move(g) == f"tech {g.tech_market[0]}"


def _attacked(units: tuple[str, ...], defender_hand: tuple[str, ...]) -> GameState:
    """Seat 0 attacks seat 1 with ``units``; seat 1 holds ``defender_hand`` and population."""
    g = at_purchase(2, seed=0)
    for s in range(2):
        empty_hand(g, s)
    give(g, 0, *units)
    give(g, 1, *defender_hand)
    set_pop(g, 1, 1, 2)
    play(g, "attack 1=" + ",".join(sorted(units)))
    return g


def test_blocks_an_attack_it_can_block() -> None:
    """C43: a Chariot that would steal population is blocked by the Archers in hand."""
    g = _attacked(("CHR",), ("ARC", "GRN"))
    assert g.step == "defend" and g.to_move == 1
    assert _greedy_move(g) == "defend ARC>CHR"


def test_blocks_the_most_damaging_unit() -> None:
    """C43, C47: one Axemen in hand against Axemen and Swordsmen: it blocks the Swordsmen
    (steal and destroy) rather than the Axemen (destroy only)."""
    g = _attacked(("AXE", "SWD"), ("AXE",))
    build_on(g, 1, 2, "GRN")
    assert _greedy_move(g) == "defend AXE>SWD"


def test_damage_keeps_the_valuable() -> None:
    """C45: population is taken from the fullest plot."""
    g = _attacked(("CHR",), ())
    set_pop(g, 1, 2, 1)
    play(g, "defend")
    assert g.step == "damage"
    assert _greedy_move(g) == "damage steal p1"


def test_attacks_a_defenceless_rival() -> None:
    """C41: against an empty hand, no walls and population to steal, greedy attacks."""
    g = at_purchase(2, seed=0)
    for s in range(2):
        empty_hand(g, s)
    set_supply(g, 0)
    give(g, 0, "CHR", "SWD")
    set_pop(g, 1, 1, 3)
    assert _greedy_move(g) == "attack 1=CHR,SWD"


def test_no_attack_into_walls_it_cannot_pass() -> None:
    """C42: one Chariot against City Walls is bounced back, so greedy does not bother."""
    g = at_purchase(2, seed=0)
    for s in range(2):
        empty_hand(g, s)
    set_supply(g, 0)
    give(g, 0, "CHR")
    build_on(g, 1, 1, "WAL")
    set_pop(g, 1, 1, 3)
    assert _greedy_move(g) == "end"


def test_pick_returns_offered_object() -> None:
    """The bot hands back one of the Choice objects it was given."""
    g = at_purchase(2, seed=3)
    offered = GAME.choices(g)
    obs = GAME.observe(g, 0)
    got = GreedyBot(0).pick(obs, offered)  # type: ignore[arg-type]
    assert any(got is c for c in offered)
    assert isinstance(got, Choice)


def test_policy_is_deterministic() -> None:
    """The same observation and choices give the same answer."""
    g = at_purchase(3, seed=5)
    obs = GAME.observe(g, 0)
    pairs = [(c.text, c.final) for c in GAME.choices(g)]
    assert GreedyPolicy().pick(obs, pairs) == GreedyPolicy().pick(obs, pairs)  # type: ignore[arg-type]


def test_small_arena_beats_random() -> None:
    """Issue 17: greedy beats uniform random play by a wide margin (40 two-player games)."""
    st = match(40, 2, seed=17)
    assert st.greedy_wins >= 36, st.to_json()
    assert st.seconds / st.games < 0.5


@pytest.mark.parametrize("players", [3, 4])
def test_arena_beats_random_more_players(players: int) -> None:
    """Issue 17: at least twice the fair share with 3 and 4 players."""
    st = match(60, players, seed=17)
    assert st.greedy_wins / st.games >= 2 / players, st.to_json()

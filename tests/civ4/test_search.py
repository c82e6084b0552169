"""civ4's search kit (``games/civ4/search.py``) under the generic ``ismcts``: it takes the
winning last technology and leaves the losing one (C68, C70), a seed fixes its move, it
never reads a hidden card, and its answers are legal everywhere.

Positions are put in place with the rule-test helpers, kept consistent with what the
seat may know, so that the determinizer deals them and the bot really searches.
"""

from __future__ import annotations

import random

import pytest

from civcards.bots import bot_choice, make_bot
from civcards.bots.ismcts import ISMCTSBot
from civcards.civ4 import GameState, observe
from civcards.civ4.cards import DECK_CODES
from civcards.game_api import get_game
from civcards.games.civ4.search import Civ4SearchKit, chances, evaluate, root_value
from tests.civ4.helpers import (
    at_purchase,
    empty_hand,
    give,
    grant_tech,
    random_move,
    set_pop,
    set_supply,
)

GAME = get_game("civ4")


def _last_tech_position(lead: int) -> GameState:
    """Seat 0's Purchase with one technology left in the game (market 1, pile 0) and coins
    for it; every other technology of the game split between the seats (7 each). ``lead``:
    seat 0's population minus seat 1's."""
    g = at_purchase(2, seed=3)
    empty_hand(g, 0)
    rest = list(g.init_techs[g.tech_pos :]) + g.tech_market[1:]
    del g.tech_market[1:]
    g.tech_pos = len(g.init_techs)
    for i, t in enumerate(sorted(rest)):
        grant_tech(g, i % 2, t)
    set_pop(g, 0, 1, 3 + max(0, lead))
    set_pop(g, 1, 1, 3 + max(0, -lead))
    # coins for the last technology and nothing more
    set_supply(g, 0, c=g.card_cost(0, g.tech_market[0]))
    assert g.tech_pile_size == 0 and len(g.tech_market) == 1
    assert len(g.techs[0]) == len(g.techs[1])
    # the position is one the seat's determinizer deals (the bot searches, not falls back)
    assert GAME.determinizer(GAME.observe(g, 0)) is not None
    return g


def _search(g: GameState, spec: str = "ismcts:300it", seed: int = 1) -> tuple[str, ISMCTSBot]:
    bot = make_bot(GAME, spec, seed)
    assert isinstance(bot, ISMCTSBot) and isinstance(bot.kit, Civ4SearchKit)
    return bot_choice(bot, GAME, g).text, bot


def test_takes_the_winning_last_technology() -> None:
    """C68, C70: buying the last technology ends the game at once; level on VP and
    technologies, the buyer leads by one and wins, so the search buys it."""
    g = _last_tech_position(lead=0)
    move, bot = _search(g)
    assert move == f"tech {g.tech_market[0]}"
    assert bot.last_iterations == 300
    value = root_value(bot)
    assert value is not None and value > 0.99  # a won game is worth 1 (C70)


def test_leaves_the_losing_last_technology() -> None:
    """C68: three population behind, buying the last technology would end the game lost."""
    g = _last_tech_position(lead=-3)
    move, bot = _search(g)
    assert not move.startswith("tech"), move
    assert bot.last_iterations == 300
    # a searched line that buys it is worth nothing (the greedy targets leave it out)
    assert all(o.value == 0.0 for o in bot.option_values() if o.move.startswith("tech"))


def test_sees_a_rival_take_the_winning_last_technology() -> None:
    """C68, C37: one technology left, which seat 0 cannot pay for and its rival, one VP
    ahead, can. Whatever seat 0 does, the rival buys it on its turn and ends the game
    ahead. With the end in view a leaf is played on by greedy through the seat's own
    Draw and the rival's turn, so every line is worth nothing; valued as it stands at
    the Draw, a line would keep the chance one VP behind gives it (about a quarter)."""
    g = _last_tech_position(lead=-1)
    set_supply(g, 0)
    set_supply(g, 1, c=g.card_cost(1, g.tech_market[0]))
    bot = make_bot(GAME, "ismcts:300it", 1)
    assert isinstance(bot, ISMCTSBot)
    bot.search_single = True  # seat 0 may have nothing to do but end its turn
    bot_choice(bot, GAME, g)
    options = bot.option_values()
    assert options and bot.last_iterations == 300
    assert all(o.value < 0.02 for o in options), options


def test_a_rollout_from_the_draw_reaches_the_next_turn() -> None:
    """C37: the tree ends the seat's turn at its Draw; the rollout plays that discard and
    every rival's turn, and stops where the seat's next turn begins (or the game ends)."""
    g = _midgame(3, 4)
    seat = g.to_move
    assert seat is not None
    g.apply("end")
    while g.active == seat and g.step != "discard":
        g.apply(g.legal_strings()[0])
    assert g.step == "discard" and g.active == seat
    kit = Civ4SearchKit(GAME)
    kit.seat = seat
    before, turn = len(g.moves), g.round
    kit._rollout(g)
    assert len(g.moves) > before
    assert g.finished or (g.active == seat and g.round == turn + 1)


def _midgame(players: int, seed: int, moves: int = 120) -> GameState:
    g: GameState = GAME.new_state(players, {}, seed)
    rng = random.Random(seed)
    greedy = make_bot(GAME, "greedy", seed)
    for _ in range(moves):
        GAME.apply_choice(g, bot_choice(greedy, GAME, g))
        if g.finished:  # pragma: no cover - 120 greedy moves end no game
            break
    while len(GAME.choices(g)) < 3 or g.step != "purchase":
        g.apply(random_move(g, rng))
    return g


def test_a_seed_fixes_the_move() -> None:
    """With an iteration budget the bot is deterministic given its seed."""
    g = _midgame(2, 5)
    a, bot_a = _search(g, seed=7)
    b, bot_b = _search(g, seed=7)
    assert a == b
    assert bot_a.option_values() == bot_b.option_values()


def _swap_hidden(g: GameState, seat: int) -> GameState:
    """A copy of ``g`` whose other hands hold other cards: the same observation for ``seat``."""
    h = g.copy()
    rival = (seat + 1) % g.n
    deck = list(h.deck[h.deck_pos :])
    hand = h.hands[rival]
    for i, k in enumerate(hand):
        if not k:
            continue
        code = DECK_CODES[i]
        for j, other in enumerate(deck):
            if other != code:
                deck[j] = code
                hand[i] -= 1
                h.hands[rival][DECK_CODES.index(other)] += 1
                h.deck = h.deck[: h.deck_pos] + tuple(deck)
                assert h.hands != g.hands
                return h
    raise AssertionError("no card to swap")  # pragma: no cover


def test_never_peeks() -> None:
    """C72: the bot reads only its seat's observation; what the other hands and the deck
    hold does not change its move (the same seed, the same search)."""
    g = _midgame(3, 2)
    seat = g.to_move
    assert seat is not None
    h = _swap_hidden(g, seat)
    assert observe(g, seat) == observe(h, seat)
    a, bot_a = _search(g, seed=3)
    b, bot_b = _search(h, seed=3)
    assert a == b
    assert bot_a.option_values() == bot_b.option_values()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_over_random_positions(players: int) -> None:
    """At decisions of random games (any seat, any step, factored steps followed through
    bot_choice) the bot's move is legal."""
    bot = make_bot(GAME, "ismcts:20it", 0)
    asked = 0
    steps = set()
    for seed in range(2):
        g = GAME.new_state(players, {}, 100 + seed)
        rng = random.Random(seed)
        k = 0
        while not g.finished:
            if k % 13 == 0:
                text = bot_choice(bot, GAME, g).text
                copy = g.copy()
                assert GAME.play(copy, text) == text
                asked += 1
                steps.add(g.step)
            g.apply(random_move(g, rng))
            k += 1
    assert asked > 20
    assert {"collect", "purchase"} <= steps


def test_values_of_a_finished_game() -> None:
    """C70: a finished game is worth 1 to its winner and 0 to the others."""
    g = _last_tech_position(lead=0)
    g.apply(f"tech {g.tech_market[0]}")
    assert g.finished and g.winners == [0]
    assert chances(g) == [1.0, 0.0]


def test_evaluation_follows_victory_points() -> None:
    """C70: more population (VP) is a higher evaluation and a better chance."""
    g = _last_tech_position(lead=0)
    even = chances(g)
    set_pop(g, 0, 1, 5)
    ahead = chances(g)
    assert evaluate(g)[0] > evaluate(g)[1]
    assert ahead[0] > even[0] and abs(sum(ahead) - 1.0) < 1e-9


def test_single_choice_is_not_searched() -> None:
    """A decision with one choice costs nothing: no iteration is run."""
    g = _midgame(2, 1)
    bot = make_bot(GAME, "ismcts:50it", 0)
    assert isinstance(bot, ISMCTSBot)
    while len(GAME.choices(g)) != 1:
        g.apply(random_move(g, random.Random(len(g.moves))))
    bot_choice(bot, GAME, g)
    assert bot.last_iterations == 0
    assert root_value(bot) is None


def test_a_wonder_free_technology_comes_from_the_deal_market() -> None:
    """C62, C32: the Oracle's free technology is taken from the market, which a purchase
    before it refills from the hidden pile; the search's cached lines must stay legal in
    every deal (a line cached from one deal's refill once played a technology another
    deal's market did not hold)."""
    g = at_purchase(2, seed=4)
    empty_hand(g, 0)
    give(g, 0, "ORC")
    set_supply(g, 0, h=30, c=30)
    assert any(c.text.startswith("build ORC") for c in GAME.choices(g))
    for seed in range(3):
        text, _ = _search(g, "ismcts:300it", seed)
        copy = g.copy()
        assert GAME.play(copy, text) == text


def test_a_defence_offered_in_steps_expands() -> None:
    """C43: with more defences than one list offers, the choices are steps ``defend …
    ?CODE`` (the next attacking unit to block); each expands, down to legal defences (a
    four-player arena once stopped here: 'defend ?CAT' was refused as no step)."""
    g = at_purchase(2, seed=0)
    for s in range(2):
        empty_hand(g, s)
    give(g, 0, "AXE", "AXE", "CHR", "SWD", "CAT")
    give(g, 1, "SPR", "SPR", "SPR", "ARC", "ARC", "ARC", "AXE", "AXE", "AXE")
    set_pop(g, 1, 1, 2)
    g.apply("attack 1=AXE,AXE,CAT,CHR,SWD")
    while g.step == "walls":
        g.apply(g.legal_strings()[0])
    assert g.step == "defend"
    steps = [c for c in GAME.choices(g) if not c.final]
    assert steps and all(c.text.split()[-1].startswith("?") for c in steps)
    rng = random.Random(0)
    for _ in range(5):
        c = rng.choice(steps)
        while not c.final:
            c = rng.choice(GAME.expand(g, c).choices)
        assert g.copy().is_legal(c.text)
    text, _ = _search(g, "ismcts:50it", 0)
    assert g.copy().is_legal(text)

"""The ISMCTS bot and the determinizer it searches with: R25 (no hidden card leaks), R1/R4."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civcards.bots import Decision, bot_move, make_bot
from civcards.bots.ismcts import ISMCTSBot, parse_budget
from civcards.carta import GameState, expand, new_game, observe, seat_options
from civcards.carta.cards import ERA_COMPOSITION, LETTERS, era_sizes
from civcards.carta.determinize import TOTALS, DeterminizeError, Determinizer
from civcards.carta.game import random_playout
from civcards.game_api import get_game, register
from civcards.games.carta.search import greedy_first, values

from . import toygame
from .carta.randgames import CONFIGS, start

CIV = get_game("carta")
register(toygame.GAME)
configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**31 - 1)


def advance(g: GameState, rng: random.Random, steps: int) -> GameState:
    for _ in range(steps):
        if g.finished:
            break
        g.apply(rng.choice(g.legal_moves()))
    return g


def hide_shuffled(g: GameState, seat: int, rng: random.Random) -> GameState:
    """``g`` with what ``seat`` cannot see dealt differently: the other hands' unknown
    cards and the deck shuffled together, era by era kept whole (sizes unchanged)."""
    obs = observe(g, seat)
    known = [
        [obs.known_in_hands[s].count(ch) for ch in LETTERS] if s != seat else g.hands[s][:]
        for s in range(g.n)
    ]
    g2 = g.copy()
    pool = list(g2.deck)
    for s in range(g.n):
        if s != seat:
            for d in range(6):
                pool.extend([d] * (g2.hands[s][d] - known[s][d]))
    rng.shuffle(pool)
    for s in range(g.n):
        if s != seat:
            size = sum(g.hands[s])
            h = known[s][:]
            while sum(h) < size:
                h[pool.pop()] += 1
            g2.hands[s] = h
    g2.deck = pool
    return g2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, seeds, st.integers(0, 160))
def test_r25_r1_samples_agree_with_everything_the_seat_knows(
    config: tuple[int, str, bool], seed: int, steps: int
) -> None:
    """R25, R1, R4: a determinization keeps the seat's hand, the public zones, what it
    knows of other hands, the sizes and the era of the deck; all cards are accounted for."""
    rng = random.Random(seed)
    g = advance(start(config, seed), rng, steps)
    if g.finished or g.phase == "draft":
        return
    me = g.active
    obs = observe(g, me)
    det = Determinizer(obs)
    for _ in range(3):
        s = det.sample(rng)
        assert s.hands[me] == g.hands[me]
        assert s.areas == g.areas and s.discard == g.discard and s.markers == g.markers
        assert [sum(h) for h in s.hands] == [sum(h) for h in g.hands]
        assert len(s.deck) == len(g.deck) and s.era == g.era
        for q, text in enumerate(obs.known_in_hands):
            for ch in set(text):
                assert s.hands[q][LETTERS.index(ch)] >= text.count(ch)
        # R1/R4: nothing invented, exactly the removed cards missing
        tot = [0] * 6
        for z in [*s.hands, *s.areas, s.discard]:
            for d in range(6):
                tot[d] += z[d]
        for d in s.deck:
            tot[d] += 1
        for _, _, kind, _ in s.markers:
            tot[2 if kind == "embargo" else 5] += 1
        assert all(tot[d] <= TOTALS[d] for d in range(6))
        assert sum(TOTALS) - sum(tot) == (0 if g.n == 4 else 9)
        # the deck of an era not yet drawn from holds only that era's cards (R1)
        sizes = era_sizes(g.n)
        drawn = sum(sizes) - len(g.deck)
        top_first = s.deck[::-1]
        lo = 0
        for era, size in enumerate(sizes):
            if drawn <= lo:
                seg = top_first[lo - drawn : lo - drawn + size]
                assert all(seg.count(d) <= ERA_COMPOSITION[era][d] for d in range(6))
            lo += size

        # the same public choices (those that do not depend on hidden cards)
        def public(x: GameState) -> set[str]:
            return {m for m in seat_options(x) if not m.endswith("?")}

        assert public(s) == public(g)
        s_copy = s.copy()
        random_playout(s_copy, rng)
        assert s_copy.finished


def test_r25_samples_do_not_depend_on_hidden_cards() -> None:
    """R25: the same observation gives the same samples, whatever the hidden cards are."""
    for seed in range(30):
        rng = random.Random(seed)
        g = advance(new_game(2 + seed % 3, seed=seed), rng, 20 + seed)
        if g.finished:
            continue
        me = g.active
        g2 = hide_shuffled(g, me, random.Random(seed + 1))
        assert observe(g2, me) == observe(g, me)
        a = Determinizer(observe(g, me)).sample(random.Random(7))
        b = Determinizer(observe(g2, me)).sample(random.Random(7))
        assert a.hands == b.hands and a.deck == b.deck


def test_r25_reveals_are_kept_in_every_sample() -> None:
    """R15, R16: after a Discovery or an Inquisition the revealed cards are where they were seen."""
    found = {"discovery": 0, "inquisition": 0}
    for seed in range(400):
        rng = random.Random(seed)
        g = new_game(2 + seed % 3, seed=seed)
        while not g.finished and not all(found.values()):
            opts = seat_options(g)
            hidden = [o for o in opts if o.endswith("?")]
            if hidden:
                opt = rng.choice(hidden)
                reveal, full = expand(g, opt)
                kind = opt.split()[0]
                det = Determinizer(observe(g, g.active), reveal=reveal, chosen=opt)
                for _ in range(3):
                    s = det.sample(rng)
                    legal = set(s.legal_strings())
                    assert set(full) <= legal
                    if kind == "discovery":
                        top = "".join(LETTERS[d] for d in reversed(s.deck[-len(reveal) :]))
                        assert top == reveal
                    else:
                        target = int(opt.split()[1])
                        assert "".join(LETTERS[d] * s.hands[target][d] for d in range(6)) == reveal
                found[kind] += 1
                g.apply(rng.choice(full))
            else:
                g.apply(rng.choice(g.legal_moves()))
        if all(found.values()):
            break
    assert all(found.values())


def test_draft_and_finished_games_are_not_determinized() -> None:
    g = new_game(3, deal="draft", seed=1)
    with pytest.raises(DeterminizeError, match="draft"):
        Determinizer(observe(g, g.active))


def _decision(g: GameState) -> Decision:
    seat = g.active
    return Decision(seat, CIV.choices(g), observation=observe(g, seat), game=CIV)


@pytest.mark.parametrize("horizon", ["game", "turn"])
def test_r25_ismcts_decisions_ignore_the_cards_it_cannot_see(horizon: str) -> None:
    """R25: shuffling the hidden cards (other hands, deck) never changes the bot's choice."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        g = advance(new_game(2 + seed % 3, seed=seed), rng, 10 + 3 * seed)
        if g.finished or len(seat_options(g)) < 2:
            continue
        me = g.active
        g2 = hide_shuffled(g, me, random.Random(seed + 100))
        if g2.hands == g.hands and g2.deck == g.deck:
            continue
        a = ISMCTSBot(CIV, seed, iterations=150, horizon=horizon).choose(_decision(g))
        b = ISMCTSBot(CIV, seed, iterations=150, horizon=horizon).choose(_decision(g2))
        assert a == b
        checked += 1
    assert checked >= 15


def test_ismcts_plays_legal_games_in_every_configuration() -> None:
    """R3-R24 end to end: the bot only picks its options, draft and team game included."""
    for players, deal, teams in [(2, "draft", False), (3, "basic", False), (4, "draft", True)]:
        g = new_game(players, deal=deal, teams=teams, seed=players)
        bots = [
            make_bot(CIV, "ismcts:40it" if s % 2 == 0 else "greedy", seed=s) for s in range(players)
        ]
        while not g.finished:
            seat = g.to_move
            assert seat is not None
            CIV.play(g, bot_move(bots[seat], CIV, g))
        assert g.winners


def test_r9_r13_the_turn_horizon_searches_the_seats_own_turn_only() -> None:
    """R9-R13: with ``:turn`` the tree holds only the searching seat's moves of this turn
    (play, effects, end); the full search also grows into the next seats' turns."""
    g = advance(new_game(3, seed=21), random.Random(21), 9)
    while len(seat_options(g)) < 3:
        g.apply(random.Random(g.turn).choice(g.legal_moves()))
    me = g.active

    def movers(bot: ISMCTSBot) -> set[int]:
        bot.choose(_decision(g))
        seen: set[int] = set()
        todo = [bot.last_root]
        while todo:
            node = todo.pop()
            assert node is not None
            seen.add(node.mover)
            todo.extend(node.children.values())
        return seen

    turn = make_bot(CIV, "ismcts:400it:turn", seed=3)
    assert isinstance(turn, ISMCTSBot) and turn.name == "ismcts:400it:turn"
    assert movers(turn) == {me}
    full = make_bot(CIV, "ismcts:400it", seed=3)
    assert isinstance(full, ISMCTSBot)
    assert len(movers(full)) > 1
    assert make_bot(CIV, "ismcts:50it:greedy:turn").name == "ismcts:50it:greedy:turn"
    with pytest.raises(ValueError, match="evaluation"):
        make_bot(CIV, "ismcts:50it:sideways")
    with pytest.raises(ValueError, match="horizon"):
        ISMCTSBot(CIV, 1, horizon="forever")


def test_r21_a_rivals_first_reply_in_the_tree_is_its_greedy_move() -> None:
    """R21 with three players (max-n): a rival's node is first expanded along the move its own
    greedy evaluation prefers, here the play that gives it hegemony."""
    g = new_game(3, seed=8)
    rival = g.active
    d = next(d for d in range(6) if g.hands[rival][d])
    g.areas[rival][d] = g.heg - 1
    moves = g.legal_moves()
    assert len(moves) > 1
    pick = greedy_first(g, rival, moves)
    assert pick.kind == "play" and pick.cards == LETTERS[d]
    # the greedy bot, asked at the table, makes the same move
    assert str(pick) == bot_move(make_bot(CIV, "greedy", seed=1), CIV, g)


@pytest.mark.parametrize(("players", "maxn"), [(2, False), (3, True), (4, False)])
def test_rivals_are_modelled_by_greedy_only_in_max_n_searches(players: int, maxn: bool) -> None:
    """With two or four players the search is paranoid (every opponent minimises the bot's
    chance), so no rival follows its greedy preference; with three it is max-n."""
    g = advance(new_game(players, seed=31), random.Random(31), 6)
    while len(seat_options(g)) < 2:
        g.apply(random.Random(g.turn).choice(g.legal_moves()))
    bot = ISMCTSBot(CIV, 2, iterations=30)
    bot.choose(_decision(g))
    assert bot.kit.maxn is maxn and bot.kit.model_rivals is maxn
    greedy_eval = ISMCTSBot(CIV, 2, iterations=30, evaluation="greedy")
    greedy_eval.choose(_decision(g))
    assert greedy_eval.kit.maxn is False


def _rival_widths(bot: ISMCTSBot) -> list[tuple[int, int]]:
    """(visits, children) of every node of the last tree where a rival chooses."""
    out: list[tuple[int, int]] = []
    todo = [bot.last_root]
    while todo:
        node = todo.pop()
        assert node is not None
        kids = list(node.children.values())
        if kids and node.hidden is None and kids[0].mover != bot._seat:
            out.append((node.visits, len(kids)))
        todo.extend(kids)
    return out


def test_r21_rivals_reply_with_their_greedy_move_in_three_player_searches() -> None:
    """R21 with three players (max-n): a rival's node holds only its greedy reply (in each
    deal), so the budget goes to the bot's own choices; with ``widening`` the node opens to
    other replies as it is visited, and without any limit every legal reply is added before
    any is searched twice."""
    g = advance(new_game(3, seed=31), random.Random(31), 6)
    while len(seat_options(g)) < 3:
        g.apply(random.Random(g.turn).choice(g.legal_moves()))

    def mean_width(widening: float) -> float:
        bot = ISMCTSBot(CIV, 4, iterations=400, widening=widening)
        bot.choose(_decision(g))
        # rival nodes seen 4 to 15 times
        widths = [k for v, k in _rival_widths(bot) if 4 <= v <= 15]
        assert len(widths) > 10
        return sum(widths) / len(widths)

    model, opened, full = mean_width(0.0), mean_width(0.5), mean_width(1e9)
    assert ISMCTSBot(CIV, 1).widening == 0.0
    assert model < 1.5 < opened < full - 0.3
    with pytest.raises(ValueError, match="widening"):
        ISMCTSBot(CIV, 1, widening=-1.0)


@pytest.mark.parametrize("players", [2, 4])
def test_paranoid_searches_do_not_model_rivals(players: int) -> None:
    """With two or four players (paranoid values: every opponent minimises the bot's chance)
    the rivals' greedy model is off: the same tree grows whatever the widening."""
    g = advance(new_game(players, seed=32), random.Random(32), 6)
    while len(seat_options(g)) < 2:
        g.apply(random.Random(g.turn).choice(g.legal_moves()))
    trees = []
    for w in (0.0, 1e9):
        bot = ISMCTSBot(CIV, 5, iterations=200, widening=w)
        pick = bot.choose(_decision(g))
        trees.append((pick, sorted(_rival_widths(bot))))
    assert trees[0] == trees[1]


def test_ismcts_is_deterministic_given_its_seed() -> None:
    g = advance(new_game(2, seed=11), random.Random(11), 12)
    picks = {ISMCTSBot(CIV, 5, iterations=200).choose(_decision(g)) for _ in range(3)}
    assert len(picks) == 1


def test_ismcts_beats_random() -> None:
    """Search over the greedy evaluation wins nearly every game against a random player."""
    wins = 0
    for i in range(6):
        g = new_game(2, seed=500 + i)
        seats = ["ismcts:60it", "random"] if i % 2 == 0 else ["random", "ismcts:60it"]
        bots = [make_bot(CIV, x, seed=i) for x in seats]
        while not g.finished:
            seat = g.to_move
            assert seat is not None
            CIV.play(g, bot_move(bots[seat], CIV, g))
        wins += sum(seats[s].startswith("ismcts") for s in g.winners)
    assert wins >= 5


def test_r24_values_are_paranoid_and_shared_by_team_mates() -> None:
    """R21-R24: a leaf is worth v to the searching seat (and its team-mate), 1 - v to the others;
    a finished game 1 to its winners."""
    g = advance(new_game(3, seed=2), random.Random(2), 30)
    v = values(g, 1)
    assert 0 < v[1] < 1 and v[0] == v[2] == 1 - v[1]
    t = advance(new_game(4, teams=True, seed=3), random.Random(3), 30)
    v = values(t, 2)
    assert v[0] == v[2] and v[1] == v[3] == 1 - v[2]
    random_playout(g, random.Random(3))
    v = values(g, 0)
    assert (v[0] > 0) == (0 in g.winners)


def test_budgets() -> None:
    assert parse_budget("2000it") == (2000, None)
    assert parse_budget("1s") == (None, 1.0)
    assert parse_budget("250ms") == (None, 0.25)
    assert make_bot(CIV, "ismcts", seed=1).name == "ismcts:1000it"
    assert make_bot(CIV, "ismcts:2s", seed=1).name == "ismcts:2s"
    for bad in ("fast", "0it", "-1s", "it", "1h"):
        with pytest.raises(ValueError, match="ismcts budget"):
            make_bot(CIV, f"ismcts:{bad}")
    bot = ISMCTSBot(CIV, 1, iterations=None, seconds=0.02)
    g = advance(new_game(2, seed=4), random.Random(4), 5)
    bot.choose(_decision(g))
    assert bot.last_iterations >= 1


def test_play_and_arena_accept_ismcts() -> None:
    """The terminal game seats the search bot by default; arena and simulate take it by name."""
    import json

    from typer.testing import CliRunner

    from civcards.cli import app
    from civcards.terminal.seats import default_bot, default_seats, parse_seats

    assert default_bot(CIV) == "ismcts"
    assert default_seats(3, CIV) == ["human", "ismcts", "ismcts"]
    assert parse_seats("human,ismcts:1s,greedy", CIV) == ["human", "ismcts:1s", "greedy"]
    runner = CliRunner()
    r = runner.invoke(
        app,
        [
            "arena",
            "--bots",
            "ismcts:20it,random",
            "--games",
            "2",
            "--players",
            "2",
            "--json",
            "--no-progress",
        ],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["games"] == 2 and set(out["win_rate"]) == {"ismcts:20it", "random"}
    assert {"mu", "sigma"} <= set(out["ratings"]["ismcts:20it"])
    r = runner.invoke(
        app,
        ["simulate", "--games", "1", "--players", "2", "--bots", "ismcts:20it,greedy", "--json"],
    )
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["arena", "--bots", "ismcts:fast,random", "--games", "2", "--json"])
    assert r.exit_code == 2 and "ismcts budget" in r.output


def test_ismcts_searches_any_game_with_a_determinizer() -> None:
    """The search is generic: on the test-only game (factored and hidden steps, no kit of
    its own) it plays whole games through the interface and beats random."""
    toy = get_game("toy")
    wins = 0.0
    for i in range(6):
        state = toy.new_state(2, toy.check_options(2, {}), seed=40 + i)
        seats = ["ismcts:60it", "random"] if i % 2 == 0 else ["random", "ismcts:60it"]
        bots = [make_bot(toy, x, seed=i) for x in seats]
        while not state.finished:
            toy.play(state, bot_move(bots[state.to_move], toy, state))
        result = toy.result(state)
        assert result is not None
        wins += sum(1 / len(result.winners) for w in result.winners if seats[w] != "random")
    assert wins >= 4


def test_ismcts_follows_its_move_below_a_factored_step() -> None:
    """Below a factored (not hidden) step the bot answers with the move it searched."""
    toy = get_game("toy")
    state = toy.new_state(2, toy.check_options(2, {}), seed=3)
    bot = make_bot(toy, "ismcts:80it", seed=1)
    seen_step = False
    while not state.finished:
        seat = state.to_move
        choices = toy.choices(state)
        d = Decision(seat, choices, observation=toy.observe(state, seat), game=toy)
        pick = bot.choose(d)
        while not pick.final:
            seen_step = seen_step or not pick.hidden
            exp = toy.expand(state, pick)
            d = d.below(pick, exp.choices, exp.reveal)
            pick = bot.choose(d)
            assert pick in exp.choices
        toy.apply_choice(state, pick)
    assert seen_step

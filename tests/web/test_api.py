"""The HTTP API against a real ``civcards serve`` process and a real SQLite file.

Every refused request gets a clear status and message and changes nothing.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest

from civcards import carta
from civcards.game_api import get_game

from . import net
from .conftest import ServerProcess, texts

H = "X-Seat-Token"


def two_humans(server: ServerProcess, seed: int = 7, **kw: Any) -> tuple[str, list[str]]:
    g = server.create(
        players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "human"}], seed=seed, **kw
    )
    return g["id"], [s["token"] for s in g["seats"]]


def state(server: ServerProcess, gid: str, token: str | None = None) -> dict[str, Any]:
    headers = {H: token} if token else {}
    r = net.get(f"{server.base}/api/games/{gid}/state", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def snapshot(server: ServerProcess, gid: str, tokens: list[str]) -> list[dict[str, Any]]:
    return [state(server, gid, t) for t in tokens] + [state(server, gid)]


def move(
    server: ServerProcess, gid: str, token: str | None, mv: Any, expected: Any
) -> httpx.Response:
    headers = {H: token} if token else {}
    return net.post(
        f"{server.base}/api/games/{gid}/moves",
        json={"move": mv, "expected": expected},
        headers=headers,
        timeout=10,
    )


def to_move_token(st: dict[str, Any], tokens: list[str]) -> str:
    seat: int = st["game"]["to_move"]
    return tokens[seat]


def test_create_gives_tokens_only_to_human_seats(server: ServerProcess) -> None:
    g = server.create(
        players=3,
        seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}],
        private=False,  # listed
    )
    assert [s["token"] is not None for s in g["seats"]] == [True, False, True]
    assert g["seats"][0]["token"] != g["seats"][2]["token"]
    assert g["seats"][0]["invite"].endswith("&token=" + g["seats"][0]["invitation"])
    assert g["seats"][1]["bot"] == "greedy"
    # the public facts never hold a token
    info = net.get(f"{server.base}/api/games/{g['id']}").json()
    assert "token" not in json.dumps(info)
    listed = net.get(f"{server.base}/api/games").json()
    assert any(x["id"] == g["id"] for x in listed)
    assert g["seats"][0]["token"] not in json.dumps(listed)


def test_seat_sees_its_hand_spectator_sees_none(server: ServerProcess) -> None:
    gid, tokens = two_humans(server, seed=11)
    local = carta.new_game(2, seed=11)
    for seat, tok in enumerate(tokens):
        st = state(server, gid, tok)
        assert st["seat"] == seat
        assert st["observation"] == json.loads(json.dumps(carta.observe(local, seat).to_dict()))
    spec = state(server, gid)
    assert spec["seat"] is None and spec["observation"]["hand"] == ""
    assert spec["options"] == [] and spec["pending"] is None
    assert spec["observation"] == json.loads(json.dumps(carta.observe(local, None).to_dict()))
    # only the seat to move gets options
    mover = local.to_move
    assert mover is not None
    # choices are {text, final, hidden}, formatted once, in the game's order
    offered = state(server, gid, tokens[mover])["options"]
    assert offered == [c.to_json() for c in get_game("carta").choices(local)]
    assert texts(offered) == carta.seat_options(local)
    assert state(server, gid, tokens[1 - mover])["options"] == []


def test_refused_requests_change_nothing(server: ServerProcess) -> None:
    gid, tokens = two_humans(server, seed=3)
    other_gid, other_tokens = two_humans(server, seed=4)
    before = snapshot(server, gid, tokens)
    st = before[0]
    n = st["move_number"]
    mover = st["game"]["to_move"]
    tok = tokens[mover]
    legal = texts(state(server, gid, tok)["options"])
    bad_cases: list[tuple[httpx.Response, int, str]] = [
        (move(server, gid, None, legal[0], n), 401, "token"),
        (move(server, gid, "x" * 30, legal[0], n), 403, "token"),
        (move(server, gid, other_tokens[0], legal[0], n), 403, "token"),
        (move(server, gid, tokens[1 - mover], legal[0], n), 409, "not your turn"),
        (move(server, gid, tok, legal[0], n + 1), 409, "move number"),
        (move(server, gid, tok, legal[0], n - 1 if n else 5), 409, "move number"),
        (move(server, gid, tok, "fly to the moon", n), 400, "cannot be read"),
        (move(server, gid, tok, "", n), 400, "notation"),
        (move(server, gid, tok, "end", n), 422, "not legal"),
        (move(server, gid, tok, "attack S", n), 422, "not legal"),
        (move(server, gid, tok, 17, n), 422, "move"),
        (move(server, gid, tok, legal[0], "one"), 422, "expected"),
        (move(server, gid, tok, legal[0], -1), 422, "expected"),
        (move(server, gid, tok, "discovery discard ?", n), 400, "cannot be read"),
        (move(server, gid, tok, "discovery discard MMRRS", n), 422, "not one of your choices"),
        (move(server, "nosuchgame", tok, legal[0], n), 404, "no such game"),
        (move(server, "x" * 40, tok, legal[0], n), 422, "game_id"),
    ]
    for r, status, words in bad_cases:
        assert r.status_code == status, (r.status_code, r.text)
        body = r.json()
        assert words in body["detail"].lower(), body
        assert body["code"]
        assert "Traceback" not in r.text
    raw = [
        net.post(
            f"{server.base}/api/games/{gid}/moves",
            content=b"{not json",
            headers={H: tok, "content-type": "application/json"},
        ),
        net.post(
            f"{server.base}/api/games/{gid}/moves",
            json={"move": legal[0], "expected": n, "seat": 1},
            headers={H: tok},
        ),
        net.post(f"{server.base}/api/games/{gid}/moves", json=[1, 2], headers={H: tok}),
        net.post(f"{server.base}/api/games/{gid}/moves", headers={H: tok}),
    ]
    for r in raw:
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "invalid_request"
    # the record is not given before the end (it holds the deck)
    r = net.get(f"{server.base}/api/games/{gid}/record")
    assert r.status_code == 409 and "deck" in r.json()["detail"]
    r = net.post(f"{server.base}/api/games/{gid}/rematch", headers={H: tok})
    assert r.status_code == 409
    assert snapshot(server, gid, tokens) == before
    assert state(server, other_gid, other_tokens[0])["move_number"] == 0


def test_bad_games_are_refused(server: ServerProcess) -> None:
    url = server.base + "/api/games"
    cases = [
        ({"players": 5, "seats": [{"kind": "human"}] * 5}, "players"),
        ({"players": 3, "options": {"teams": True}, "seats": [{"kind": "human"}] * 3}, "team"),
        ({"game": "chess", "players": 2, "seats": [{"kind": "human"}] * 2}, "the games are"),
        ({"players": 2, "options": {"colour": "red"}, "seats": [{"kind": "human"}] * 2}, "option"),
        ({"players": 2, "deal": "basic", "seats": [{"kind": "human"}] * 2}, "deal"),
        ({"players": 2, "seats": [{"kind": "human"}] * 3}, "seats"),
        ({"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "godlike"}]}, "bot"),
        ({"players": 2, "seats": [{"kind": "alien"}, {"kind": "human"}]}, "kind"),
        ({"players": 2, "options": {"deal": "poker"}, "seats": [{"kind": "human"}] * 2}, "deal"),
        ({"players": 2, "seats": [{"kind": "human", "name": "a\x00b"}] * 2}, "name"),
        ({"players": 2, "seats": [{"kind": "human", "name": "n" * 41}] * 2}, "name"),
        ({"players": 2}, "seats"),
    ]
    before = len(net.get(url).json())
    for body, words in cases:
        r = net.post(url, json=body)
        assert r.status_code == 422, (body, r.text)
        assert words in r.json()["detail"].lower(), r.json()
    assert len(net.get(url).json()) == before


def test_a_move_is_applied_once(server: ServerProcess) -> None:
    gid, tokens = two_humans(server, seed=5)
    st = state(server, gid, tokens[0])
    tok = to_move_token(st, tokens)
    opts = texts(state(server, gid, tok)["options"])
    r1 = move(server, gid, tok, opts[0], 0)
    assert r1.status_code == 200 and r1.json()["applied"] == opts[0]
    assert r1.json()["move_number"] == 1
    after = snapshot(server, gid, tokens)
    r2 = move(server, gid, tok, opts[0], 0)  # resent
    assert r2.status_code == 409 and r2.json()["code"] == "stale"
    assert snapshot(server, gid, tokens) == after
    assert after[0]["observation"]["history"] == [opts[0]]


def test_non_canonical_notation_is_accepted(server: ServerProcess) -> None:
    gid, tokens = two_humans(server, seed=9)
    tok = to_move_token(state(server, gid, tokens[0]), tokens)
    opt = state(server, gid, tok)["options"][0]["text"]  # e.g. "play M"
    r = move(server, gid, tok, "  " + opt.upper().replace(" ", "   ") + " ", 0)
    assert r.status_code == 200, r.text
    assert r.json()["applied"] == opt


def test_join_sets_the_name(server: ServerProcess) -> None:
    gid, tokens = two_humans(server)
    r = net.post(
        f"{server.base}/api/games/{gid}/join", json={"name": "Bea"}, headers={H: tokens[1]}
    )
    assert r.status_code == 200 and r.json()["seat"] == 1
    seats = net.get(f"{server.base}/api/games/{gid}").json()["seats"]
    assert seats[1]["name"] == "Bea" and seats[1]["joined"]
    r = net.post(f"{server.base}/api/games/{gid}/join", json={"name": "Bea"}, headers={H: "nope"})
    assert r.status_code == 403


def play_random(
    server: ServerProcess, gid: str, tokens: list[str | None], rng: random.Random, limit: int
) -> int:
    """Play random choices for the human seats (committing to hidden steps too)."""
    made = 0
    waited = 0
    while made < limit:
        info = net.get(f"{server.base}/api/games/{gid}").json()
        if info["status"] == "finished":
            break
        tok = tokens[info["to_move"]]
        if tok is None:  # a bot's turn: it moves at once (bot delay 0), give it a moment
            waited += 1
            assert waited < 500, "the bot did not move"
            time.sleep(0.01)
            continue
        st = state(server, gid, tok)
        if st["pending"]:
            choice = rng.choice(st["pending"]["choices"])
        else:
            choice = rng.choice(st["options"])
        r = move(server, gid, tok, choice["text"], st["move_number"])
        assert r.status_code == 200, r.text
        made += 1
    return made


def test_full_game_against_a_bot_then_record_and_rematch(server: ServerProcess) -> None:
    g = server.create(players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}], seed=21)
    gid, tok = g["id"], g["seats"][0]["token"]
    play_random(server, gid, [tok, None], random.Random(1), 2000)
    final = state(server, gid, tok)
    assert final["game"]["status"] == "finished"
    obs = final["observation"]
    assert obs["finished"] and obs["winners"]
    r = net.get(f"{server.base}/api/games/{gid}/record")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    rec = carta.parse_record(r.text)
    replayed = carta.replay(rec)
    assert replayed.ok and replayed.state.finished
    assert replayed.state.winners == obs["winners"]
    assert rec.names == ["Ana", "greedy bot 2"]
    assert len(rec.moves) == final["move_number"]
    # rematch: the same seats, a fresh game; each seat gets its token once
    r = net.post(f"{server.base}/api/games/{gid}/rematch", headers={H: tok})
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["seat"] == 0
    assert state(server, gid)["game"]["rematch_id"] == new["id"]
    st = state(server, new["id"], new["token"])
    assert st["seat"] == 0 and st["game"]["seats"][1]["kind"] == "bot"
    again = net.post(f"{server.base}/api/games/{gid}/rematch", headers={H: tok})
    assert again.status_code == 409


def find_hidden_choice(
    server: ServerProcess, gid: str, tokens: list[str], rng: random.Random
) -> tuple[str, dict[str, Any]] | None:
    """Play random final choices until a hidden step is offered; its seat's token and view."""
    for _ in range(600):
        info = net.get(f"{server.base}/api/games/{gid}").json()
        if info["status"] == "finished":
            return None
        tok = tokens[info["to_move"]]
        st = state(server, gid, tok)
        hidden = [o for o in st["options"] if o["hidden"]]
        if hidden:
            return tok, st
        opts = texts(st["options"])
        # prefer plays and effects over ending, to reach Science/Religion discards
        non_end = [o for o in opts if o != "end"]
        choice = rng.choice(non_end) if non_end and rng.random() < 0.7 else rng.choice(opts)
        assert move(server, gid, tok, choice, st["move_number"]).status_code == 200
    return None


def test_pending_choice_reveals_only_to_its_seat_and_survives_restart(
    server: ServerProcess,
) -> None:
    # the module's server, crashed and started again here (a restart keeps its database and
    # port, so the module's other tests are served as before: no server of its own to start)
    rng = random.Random(4)
    found = None
    for seed in range(30):
        gid, tokens = two_humans(server, seed=100 + seed)
        found = find_hidden_choice(server, gid, tokens, rng)
        if found:
            break
    assert found, "no Discovery/Inquisition came up"
    tok, st = found
    seat = st["seat"]
    other = tokens[1 - seat]
    n = st["move_number"]
    step = next(o for o in st["options"] if o["hidden"])
    assert not step["final"]
    option = step["text"]
    # a full move of that kind, without committing first, is refused the same way
    kind = option.split()[0]
    before = snapshot(server, gid, tokens)
    r = move(
        server,
        gid,
        tok,
        f"{kind} discard MMMMM" if kind == "discovery" else "inquisition 1 give M",
        n,
    )
    assert r.status_code == 422 and "committed" in r.json()["detail"]
    assert snapshot(server, gid, tokens) == before
    r = move(server, gid, tok, option, n)
    assert r.status_code == 200, r.text
    res = r.json()
    assert res["applied"] is None and res["move_number"] == n
    pending = res["pending"]
    assert pending["option"] == option and pending["hidden"] and pending["choices"]
    assert all(c["text"].startswith(kind) and c["final"] for c in pending["choices"])
    mine = state(server, gid, tok)
    assert mine["pending"] == pending and mine["options"] == []
    # nobody else hears of it
    assert state(server, gid, other)["pending"] is None
    assert state(server, gid)["pending"] is None
    assert state(server, gid, other) == before[1 - seat]
    # no going back: other options are refused now
    for bad in ("end", option):
        r = move(server, gid, tok, bad, n)
        assert r.status_code == 422 and r.json()["code"] == "pending_choice"
    # the commitment survives a crash of the server
    server.restart(hard=True)
    assert state(server, gid, tok)["pending"] == pending
    choice = pending["choices"][-1]["text"]
    r = move(server, gid, tok, choice, n)
    assert r.status_code == 200 and r.json()["applied"] == choice
    after = state(server, gid, tok)
    assert after["pending"] is None and after["move_number"] == n + 1
    assert after["observation"]["history"][-1] == choice


def human_bot_human(
    server: ServerProcess, bot: str, seed: int, rng: random.Random, moves: int
) -> tuple[str, list[str | None], list[str]]:
    """A 3-player game (human, ``bot``, human) played at random for ``moves`` human moves:
    its id, the seats' tokens (None for the bot) and the humans' tokens."""
    g = server.create(
        players=3,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": bot}, {"kind": "human"}],
        seed=seed,
    )
    tokens = [s["token"] for s in g["seats"]]
    play_random(server, g["id"], tokens, rng, moves)
    # the human's last move may hand the turn to the bot: wait for its move, so that the
    # game stands still at a human's turn (a view taken now is the view after a restart)
    for _ in range(500):
        info = net.get(f"{server.base}/api/games/{g['id']}").json()
        if info["status"] == "finished" or tokens[info["to_move"]] is not None:
            break
        time.sleep(0.01)
    else:
        raise AssertionError("the bot did not move")
    return g["id"], tokens, [t for t in tokens if t]


def test_restart_rebuilds_the_same_views(server: ServerProcess) -> None:
    # the module's server, restarted here (its database and port kept)
    gid, tokens, real = human_bot_human(server, "random", 33, random.Random(2), 25)
    before = snapshot(server, gid, real)
    server.restart()
    assert snapshot(server, gid, real) == before
    server.restart(hard=True)
    assert snapshot(server, gid, real) == before
    # and play goes on (the bot too)
    play_random(server, gid, tokens, random.Random(3), 10)
    assert state(server, gid)["move_number"] > before[0]["move_number"]


def test_bots_play_a_whole_game_by_themselves(server: ServerProcess) -> None:
    g = server.create(players=4, options={"teams": True}, seats=[{"kind": "bot"}] * 4, seed=2)
    gid = g["id"]
    for _ in range(100):
        info = net.get(f"{server.base}/api/games/{gid}").json()
        if info["status"] == "finished":
            break
        time.sleep(0.1)
    assert info["status"] == "finished"
    rec = carta.parse_record(net.get(f"{server.base}/api/games/{gid}/record").text)
    assert carta.replay(rec).state.finished


@pytest.mark.parametrize("path", ["/api/games/nope/state", "/api/games/nope", "/nothing-here"])
def test_unknown_paths_are_404_with_a_message(server: ServerProcess, path: str) -> None:
    r = net.get(server.base + path)
    assert r.status_code == 404 and r.json()["detail"]


def test_log_holds_no_secrets(server: ServerProcess) -> None:
    gid, tokens = two_humans(server, seed=44)
    for t in tokens:
        state(server, gid, t)
    text = server.log()
    for t in tokens:
        assert t not in text


def test_a_search_bot_plays_at_the_table(server: ServerProcess) -> None:
    """ismcts is seated by name (with a budget); it answers every turn; budgets are capped."""
    g = server.create(
        players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "ismcts:40it"}], seed=31
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    assert g["seats"][1]["bot"] == "ismcts:40it"
    made = play_random(server, gid, [tok, None], random.Random(2), 12)
    info = net.get(f"{server.base}/api/games/{gid}").json()
    assert made == 12 or info["status"] == "finished"
    st = state(server, gid, tok)
    # the bot answered: more moves were made than the human's, by seat 1 too
    assert st["move_number"] > made and 1 in st["observation"]["movers"]
    for bad in ("ismcts:100000it", "ismcts:30s", "ismcts:fast"):
        r = server.client().post(
            "/api/games",
            json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": bad}]},
        )
        assert r.status_code == 422 and r.json()["code"] in ("bad_bot", "invalid_request"), r.text


def test_a_move_may_lie_many_steps_deep(server: ServerProcess) -> None:
    """A civ4 move was seen 9 steps below the view's choices: the request model takes
    such a path (the game judges the steps), and still bounds it."""
    gid, tokens = two_humans(server)
    n = state(server, gid, tokens[0])["move_number"]
    url = f"{server.base}/api/games/{gid}/moves"
    deep = net.post(
        url, json={"move": "end", "expected": n, "steps": ["x"] * 9},
        headers={H: tokens[0]}, timeout=10,
    )  # fmt: skip
    assert deep.status_code != 422, deep.text
    too_deep = net.post(
        url, json={"move": "end", "expected": n, "steps": ["x"] * 65},
        headers={H: tokens[0]}, timeout=10,
    )  # fmt: skip
    assert too_deep.status_code == 422, too_deep.text
    assert state(server, gid, tokens[0])["move_number"] == n

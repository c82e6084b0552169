"""Issue 38, items 3 and 11: what a resignation means for an account (a loss, whatever the
bot that takes over does; the game still viewable), changing the password, the login
limit counted across processes, and a rated game's rematch (rated too). Through a real
``civcards serve`` over a real SQLite file (and a real Redis)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from . import net
from .conftest import ServerProcess
from .test_accounts import TOY, csrf, fresh_name, play_out, ratings, register, two_seat_game

pytest.importorskip("argon2")

H = "X-Seat-Token"
#: with every seat taking its first choice, seat 0 wins this toy deal 32 to 23; from move 4
#: on the deck is empty, so whoever plays seat 0 then, its pile ends the same
SEAT_0_WINS = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("acctgames") / "acct.db", env=TOY)
    s.start()
    yield s
    s.stop()


def first_choices(server: ServerProcess, gid: str, tokens: dict[int, str], moves: int) -> None:
    """``moves`` moves, each seat taking its first choice (down the steps)."""
    with httpx.Client(base_url=server.base, timeout=30) as c:
        for _ in range(moves):
            g = c.get(f"/api/games/{gid}").json()
            head = {H: tokens[g["to_move"]]}
            v = c.get(f"/api/games/{gid}/state", headers=head).json()
            choice = v["options"][0]
            steps: list[str] = []
            while not choice["final"]:
                r = c.post(
                    f"/api/games/{gid}/moves",
                    headers=head,
                    json={"move": choice["text"], "expected": v["move_number"], "steps": steps},
                )
                steps.append(choice["text"])
                choice = r.json()["expansion"]["choices"][0]
            r = c.post(
                f"/api/games/{gid}/moves",
                headers=head,
                json={"move": choice["text"], "expected": v["move_number"], "steps": steps},
            )
            assert r.status_code == 200, r.text


def history(c: httpx.Client) -> dict[str, dict[str, Any]]:
    return {g["id"]: g for g in c.get("/api/account/games").json()}


# -- item 3: a resignation is a loss ----------------------------------------------------------


def test_resigning_a_rated_game_is_a_loss_even_when_the_bot_wins_it(
    server: ServerProcess,
) -> None:
    a = register(server, fresh_name("Quits"))
    b = register(server, fresh_name("Stays"))
    gid, tokens = two_seat_game(server, a, b, rated=True, seed=SEAT_0_WINS)
    first_choices(server, gid, tokens, 4)
    r = net.post(f"{server.base}/api/games/{gid}/resign", headers={H: tokens[0]})
    assert r.status_code == 200, r.text
    assert r.json()["takeovers"][0]["reason"] == "resigned"
    # the game they left, from the account's history: viewed as a spectator of the seat
    # (never the hand the bot holds now), not moved
    r = a.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": csrf(a)})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 0
    seen = net.get(f"{server.base}/api/games/{gid}/state", headers={H: r.json()["token"]})
    assert seen.status_code == 200, seen.text
    assert seen.json()["taken_over_seat"] == 0 and seen.json()["options"] == []
    final = play_out(server, gid, tokens, only=1)
    # the game itself: the bot playing seat 0 won it
    assert final["result"]["winners"] == [0] and not final["result"]["shared"]
    # ... but the person who resigned lost, and the one who stayed won: the table says so
    # too (its result names the people's winner, and who resigned)
    assert final["result"]["people_winners"] == [1] and final["result"]["resigned"] == [0]
    assert final["result"]["winners_text"].endswith(final["names"][1])
    assert "resigned" in final["result"]["resigned_text"]
    assert history(a)[gid]["result"] == "lost"
    assert history(b)[gid]["result"] == "won"
    quit_, stayed = ratings(a)["toy"], ratings(b)["toy"]
    assert quit_["mu"] < 25 < stayed["mu"]
    assert (quit_["wins"], stayed["wins"]) == (0.0, 1.0)
    assert history(a)[gid]["rating_after"] < history(a)[gid]["rating_before"] + 1e-9
    # the finished game: still viewable from the history, still not movable
    r = a.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": csrf(a)})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    v = net.get(f"{server.base}/api/games/{gid}/state", headers={H: token}).json()
    assert v["game"]["status"] == "finished" and v["options"] == []
    moved = net.post(
        f"{server.base}/api/games/{gid}/moves",
        headers={H: token},
        json={"move": "play 1", "expected": v["move_number"]},
    )
    assert moved.status_code == 409
    a.close()
    b.close()


# -- item 11: a rated game's rematch ----------------------------------------------------------


def test_the_rematch_of_a_rated_game_is_rated(server: ServerProcess) -> None:
    a = register(server, fresh_name("Again"))
    b = register(server, fresh_name("Again"))
    gid, tokens = two_seat_game(server, a, b, rated=True, seed=SEAT_0_WINS)
    play_out(server, gid, tokens)
    r = a.post(f"/api/games/{gid}/rematch", headers={H: tokens[0]})
    assert r.status_code == 200, r.text
    new, mine = r.json()["id"], {0: r.json()["token"]}
    r = b.post(f"/api/games/{gid}/rematch", headers={H: tokens[1]})
    assert r.status_code == 200 and r.json()["id"] == new
    mine[1] = r.json()["token"]
    assert history(a)[new]["rated"] is True
    assert history(b)[new]["rated"] is True
    # and it counts: played out, both ratings have two games
    play_out(server, new, mine)
    assert ratings(a)["toy"]["games"] == ratings(b)["toy"]["games"] == 2
    # a rated rematch's seat belongs to an account: asked for anonymously, it is refused
    c = register(server, fresh_name("Anon"))
    d = register(server, fresh_name("Anon"))
    gid2, tokens2 = two_seat_game(server, c, d, rated=True, seed=SEAT_0_WINS)
    play_out(server, gid2, tokens2)
    r = net.post(f"{server.base}/api/games/{gid2}/rematch", headers={H: tokens2[0]})
    assert r.status_code in (401, 403), r.text
    assert "log in" in r.json()["detail"]
    for x in (a, b, c, d):
        x.close()


# -- item 11: changing the password -------------------------------------------------------------


def test_changing_the_password_needs_the_old_one_and_ends_the_other_sessions(
    server: ServerProcess,
) -> None:
    name = fresh_name("Pw")
    here = register(server, name, "the first password")
    there = httpx.Client(base_url=server.base, timeout=30)  # another browser, logged in too
    r = there.post("/api/account/login", json={"name": name, "password": "the first password"})
    assert r.status_code == 200
    b = register(server, fresh_name("Pw"))
    gid, tokens = two_seat_game(server, here, b, rated=False)  # a seat whose token is kept
    url = "/api/account/password"
    token = csrf(here)
    body = {"password": "the first password", "new_password": "a second password"}
    # no CSRF token, a wrong current password, a new one too short: refused, nothing changes
    r = here.post(url, json=body)
    assert r.status_code == 403 and r.json()["code"] == "bad_csrf"
    r = here.post(
        url, json={**body, "password": "not the password"}, headers={"X-CSRF-Token": token}
    )
    assert r.status_code == 401 and r.json()["code"] == "bad_password", r.text
    r = here.post(url, json={**body, "new_password": "short"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 422 and r.json()["code"] == "bad_password", r.text
    assert there.get("/api/account/me").json()["account"]["name"] == name
    # changed: this browser stays logged in (the same session), the other is logged out
    r = here.post(url, json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.text
    assert r.json()["account"]["name"] == name and r.json()["csrf"] == token
    assert here.get("/api/account/me").json()["account"]["name"] == name
    assert there.get("/api/account/me").json()["account"] is None
    # the seat's kept token still opens (sealed again with the new password's key)
    r = here.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.json() == {"seat": 0, "token": tokens[0]}
    with httpx.Client(base_url=server.base, timeout=30) as third:
        old = third.post(
            "/api/account/login", json={"name": name, "password": "the first password"}
        )
        assert old.status_code == 401
        new = third.post("/api/account/login", json={"name": name, "password": "a second password"})
        assert new.status_code == 200
        r = third.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": csrf(third)})
        assert r.status_code == 200 and r.json() == {"seat": 0, "token": tokens[0]}
    for x in (here, there, b):
        x.close()


# -- item 11: the login limit, counted across processes ----------------------------------------


@pytest.fixture
def redis_url() -> Iterator[str]:
    pytest.importorskip("redis")
    from .conftest import env_flag
    from .redis_server import TempRedis, find_redis

    binary = find_redis()
    if binary is None:
        (pytest.fail if env_flag("CIVCARDS_REQUIRE_REDIS") else pytest.skip)(
            "redis-server is not installed"
        )
    assert binary is not None
    rd = TempRedis(binary)
    rd.start()
    try:
        yield rd.url
    finally:
        rd.stop()


def test_the_login_limit_is_counted_across_processes_through_redis(
    tmp_path: Path, redis_url: str
) -> None:
    env = {
        **TOY,
        "CIVCARDS_LOGIN_BURST": "4",
        "CIVCARDS_LOGIN_RATE": "0.001",
        "CIVCARDS_LOGIN_ADDRESS_BURST": "100",
    }
    db = tmp_path / "shared.db"
    procs = [
        ServerProcess(db, env=env, extra_args=["--redis", redis_url, "--bot-workers", "0"])
        for _ in range(2)
    ]
    try:
        for p in procs:
            p.start()
        a, b = procs
        register(a, "Rita", "rita's password").close()
        # four wrong guesses, two through each process: the account's burst of 4 is spent
        for p in (a, b, a, b):
            with httpx.Client(base_url=p.base, timeout=30) as c:
                r = c.post("/api/account/login", json={"name": "Rita", "password": "guess"})
                assert r.status_code == 401, r.text
        for p in (a, b):  # the fifth, through either: refused, even with the right password
            with httpx.Client(base_url=p.base, timeout=30) as c:
                r = c.post(
                    "/api/account/login", json={"name": "Rita", "password": "rita's password"}
                )
                assert r.status_code == 429, r.text
                assert r.json()["code"] == "login_rate_limited"
    finally:
        for p in procs:
            p.stop()
    for p in procs:
        assert "Traceback" not in p.log(), p.log()[-3000:]


def test_the_shared_login_limit_counts_alone_while_redis_is_away() -> None:
    """Redis unreachable: each process counts on its own (as without Redis), never fails."""
    pytest.importorskip("redis")
    import asyncio

    import redis.asyncio as aioredis

    from civcards.loadtest import free_port
    from civcards.server.limits import SharedRateLimiter

    async def run() -> list[float]:
        client = aioredis.Redis.from_url(
            f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.5
        )
        limiter = SharedRateLimiter(0.001, 2, client)
        try:
            return [await limiter.take("ip:1.2.3.4") for _ in range(3)]
        finally:
            await client.aclose()

    waits = asyncio.run(run())
    assert waits[:2] == [0.0, 0.0] and waits[2] > 0

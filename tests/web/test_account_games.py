"""Issue 38, items 3 and 11: what a resignation means for an account (a loss, whatever the
bot that takes over does; the game still viewable), changing the password, the login
limit counted across processes, and a rated game's rematch (rated too). Through a real
``civcards serve`` over a real SQLite file (and a real Redis)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

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
    r = httpx.post(f"{server.base}/api/games/{gid}/resign", headers={H: tokens[0]})
    assert r.status_code == 200, r.text
    assert r.json()["takeovers"][0]["reason"] == "resigned"
    # the game they left, from the account's history: viewed as a spectator of the seat
    # (never the hand the bot holds now), not moved
    r = a.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": csrf(a)})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 0
    seen = httpx.get(f"{server.base}/api/games/{gid}/state", headers={H: r.json()["token"]})
    assert seen.status_code == 200, seen.text
    assert seen.json()["taken_over_seat"] == 0 and seen.json()["options"] == []
    final = play_out(server, gid, tokens, only=1)
    # the game itself: the bot playing seat 0 won it
    assert final["result"]["winners"] == [0] and not final["result"]["shared"]
    # ... but the person who resigned lost, and the one who stayed won
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
    v = httpx.get(f"{server.base}/api/games/{gid}/state", headers={H: token}).json()
    assert v["game"]["status"] == "finished" and v["options"] == []
    moved = httpx.post(
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
    r = httpx.post(f"{server.base}/api/games/{gid2}/rematch", headers={H: tokens2[0]})
    assert r.status_code in (401, 403), r.text
    assert "log in" in r.json()["detail"]
    for x in (a, b, c, d):
        x.close()

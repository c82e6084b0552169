"""Accounts (docs/accounts.md) through a real ``civcards serve`` over a real SQLite file:
the password's hash, sessions (fixation, cookie flags, logout), CSRF, the login rate limit,
the history, a seat's token from another browser, deletion, and ratings of rated games
(once, across restarts)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import toygame

from . import net, test_postgres
from .conftest import ROOT, ServerProcess

argon2 = pytest.importorskip("argon2")

TOY = {"CIVCARDS_EXTRA_GAMES": "tests.toygame:GAME"}
#: the fixture of a throwaway PostgreSQL (module-wide)
pg_url = test_postgres.pg_url
COOKIE = "civcards_session"
#: a seed whose toy game, played by always taking the first choice, has one winner
DECISIVE_SEED = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("acct") / "acct.db", env=TOY)
    s.start()
    yield s
    s.stop()


@pytest.fixture
def own(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "own.db", env=TOY)
    s.start()
    yield s
    s.stop()


_names = iter(range(10**6))


def fresh_name(prefix: str = "P") -> str:
    return f"{prefix}{next(_names)}"


def browser(server: ServerProcess) -> httpx.Client:
    """A client that keeps cookies, as a browser does."""
    return httpx.Client(base_url=server.base, timeout=30)


def register(server: ServerProcess, name: str, password: str = "correct horse") -> httpx.Client:
    c = browser(server)
    r = c.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    assert r.json()["account"]["name"] == name
    return c


def csrf(c: httpx.Client) -> str:
    token = c.get("/api/account/me").json()["csrf"]
    assert isinstance(token, str) and token
    return token


def db(server: ServerProcess) -> sqlite3.Connection:
    return sqlite3.connect(server.db_path)


def two_seat_game(
    server: ServerProcess, a: httpx.Client, b: httpx.Client, *, rated: bool, seed: int = 1
) -> tuple[str, dict[int, str]]:
    """A 2-player toy game created by ``a`` (who takes seat 0, as the lobby does) and
    joined by ``b`` through its invitation (seat 1): the id and both seats' tokens."""
    r = a.post(
        "/api/games",
        json={
            "game": "toy",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "rated": rated,
            "seed": seed,
        },
    )
    assert r.status_code == 201, r.text
    created = r.json()
    gid = created["id"]
    j = a.post(
        f"/api/games/{gid}/join",
        headers={"X-Seat-Token": created["seats"][0]["token"]},
        json={},
    )
    assert j.status_code == 200, j.text
    k = b.post(f"/api/games/{gid}/claim", headers={"X-Seat-Token": created["seats"][1]["token"]})
    assert k.status_code == 200, k.text
    return gid, {0: j.json()["token"], 1: k.json()["token"]}


def play_out(
    server: ServerProcess, gid: str, tokens: dict[int, str], only: int | None = None
) -> dict[str, Any]:
    """Play the game to its end, each seat taking its first choice (down the steps);
    the final view. With ``only``, that seat's moves only (bots make the others)."""
    with httpx.Client(base_url=server.base, timeout=30) as c:
        for _ in range(1000):
            v = c.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]}).json()
            if v["game"]["status"] == "finished":
                return dict(v)
            seat = v["game"]["to_move"]
            if only is not None and seat != only:
                time.sleep(0.02)  # a bot's turn
                continue
            head = {"X-Seat-Token": tokens[seat]}
            mine = c.get(f"/api/games/{gid}/state", headers=head).json()
            choice = mine["options"][0]
            steps: list[str] = []
            while not choice["final"]:
                r = c.post(
                    f"/api/games/{gid}/moves",
                    headers=head,
                    json={
                        "move": choice["text"],
                        "expected": mine["move_number"],
                        "steps": steps,
                    },
                )
                assert r.status_code == 200, r.text
                steps.append(choice["text"])
                choice = r.json()["expansion"]["choices"][0]
            r = c.post(
                f"/api/games/{gid}/moves",
                headers=head,
                json={"move": choice["text"], "expected": mine["move_number"], "steps": steps},
            )
            assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def set_cookie_header(r: httpx.Response) -> str:
    headers = [v for k, v in r.headers.multi_items() if k.lower() == "set-cookie"]
    assert len(headers) == 1, headers
    return headers[0]


# -- passwords and logging in -------------------------------------------------------------


def test_the_password_is_stored_as_an_argon2_hash_and_nowhere_as_itself(
    server: ServerProcess,
) -> None:
    name = fresh_name("Hash")
    password = "a Password never stored 123"
    register(server, name, password).close()
    with db(server) as con:
        (stored,) = con.execute(
            "SELECT password_hash FROM accounts WHERE name = ?", (name,)
        ).fetchone()
    assert stored.startswith("$argon2id$")
    assert password not in stored
    assert argon2.PasswordHasher().verify(stored, password)
    raw = b"".join(p.read_bytes() for p in server.db_path.parent.glob(server.db_path.name + "*"))
    assert password.encode() not in raw


def test_a_wrong_password_is_refused_in_one_sentence_as_an_unknown_name_is(
    server: ServerProcess,
) -> None:
    name = fresh_name("Wrong")
    register(server, name, "the right one").close()
    with browser(server) as c:
        wrong = c.post("/api/account/login", json={"name": name, "password": "not the one"})
        unknown = c.post(
            "/api/account/login", json={"name": fresh_name("Nobody"), "password": "not the one"}
        )
        assert wrong.status_code == 401 and unknown.status_code == 401
        assert wrong.json() == unknown.json()  # nothing tells whether the name exists
        body = wrong.json()
        assert body["code"] == "bad_login"
        assert body["detail"] == "the name or the password is wrong"
        assert "set-cookie" not in wrong.headers
        assert c.get("/api/account/me").json() == {"account": None, "csrf": None}
        ok = c.post("/api/account/login", json={"name": name.upper(), "password": "the right one"})
        assert ok.status_code == 200 and ok.json()["account"]["name"] == name


def test_registering_a_taken_name_or_a_short_password_is_refused(server: ServerProcess) -> None:
    name = fresh_name("Taken")
    register(server, name).close()
    with browser(server) as c:
        r = c.post("/api/account/register", json={"name": name.lower(), "password": "long enough"})
        assert r.status_code == 409 and r.json()["code"] == "account_taken"
        r = c.post("/api/account/register", json={"name": fresh_name(), "password": "short"})
        assert r.status_code == 422 and r.json()["code"] == "bad_password"
        r = c.post("/api/account/register", json={"name": "a\u202eb", "password": "long enough"})
        assert r.status_code == 422 and r.json()["code"] == "bad_name"


def test_a_session_id_set_before_logging_in_is_not_the_one_after(server: ServerProcess) -> None:
    name = fresh_name("Fix")
    register(server, name, "fixation pw").close()
    planted = "attacker-chosen-session-id-0123456789"
    with browser(server) as victim:
        victim.cookies.set(COOKIE, planted, domain="127.0.0.1")
        r = victim.post("/api/account/login", json={"name": name, "password": "fixation pw"})
        assert r.status_code == 200
        after = r.cookies.get(COOKIE)
        assert after and after != planted
        # the planted id is no session; the new one is
        with browser(server) as attacker:
            attacker.cookies.set(COOKIE, planted, domain="127.0.0.1")
            assert attacker.get("/api/account/me").json()["account"] is None
        # logging in again: a new id again, and the previous session is revoked
        r2 = victim.post("/api/account/login", json={"name": name, "password": "fixation pw"})
        again = r2.cookies.get(COOKIE)
        assert again and again != after
        with browser(server) as old:
            old.cookies.set(COOKIE, after, domain="127.0.0.1")
            assert old.get("/api/account/me").json()["account"] is None
    with db(server) as con:
        stored = [h for (h,) in con.execute("SELECT id_hash FROM account_sessions")]
    assert again not in stored and after not in stored  # only their hashes are kept


def test_the_session_cookie_is_httponly_and_samesite_and_secure_over_https(
    server: ServerProcess,
) -> None:
    with browser(server) as c:
        r = c.post(
            "/api/account/register", json={"name": fresh_name("Cookie"), "password": "cookie pw1"}
        )
        cookie = set_cookie_header(r)
        attrs = {a.strip().split("=")[0].lower(): a for a in cookie.split(";")}
        assert cookie.startswith(f"{COOKIE}=")
        assert "httponly" in attrs
        assert attrs["samesite"].strip().lower() == "samesite=lax"
        assert attrs["path"].strip() == "Path=/"
        assert "secure" not in attrs  # plain http (this test's): no Secure, or no cookie
        # a client's own X-Forwarded-Proto is no proxy's (no --trust-proxy): plain http still
        # (behind a trusted proxy that speaks https: test_hardening.py)
        r = c.post(
            "/api/account/register",
            json={"name": fresh_name("Cookie"), "password": "cookie pw2"},
            headers={"X-Forwarded-Proto": "https"},
        )
        assert r.status_code == 201
        assert "secure" not in set_cookie_header(r).lower().replace(" ", "").split(";")


def test_logout_revokes_the_session(server: ServerProcess) -> None:
    c = register(server, fresh_name("Out"))
    sid = c.cookies.get(COOKIE)
    r = c.post("/api/account/logout", headers={"X-CSRF-Token": csrf(c)})
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert c.get("/api/account/me").json()["account"] is None
    with browser(server) as again:  # the old id, sent anyway, is dead
        again.cookies.set(COOKIE, str(sid), domain="127.0.0.1")
        assert again.get("/api/account/me").json()["account"] is None
    c.close()


# -- CSRF ---------------------------------------------------------------------------------


def test_a_change_made_with_the_cookie_needs_the_csrf_token(server: ServerProcess) -> None:
    name = fresh_name("Csrf")
    c = register(server, name, "csrf password")
    token = csrf(c)
    for headers in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": token[:-1]}):
        r = c.post("/api/account/logout", headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "bad_csrf", r.text
        r = c.post("/api/account/delete", json={"password": "csrf password"}, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "bad_csrf"
    assert c.get("/api/account/me").json()["account"]["name"] == name  # nothing changed
    # a page of another site: refused even with the token (which it cannot read anyway)
    evil = {"X-CSRF-Token": token, "Origin": "http://evil.example"}
    r = c.post("/api/account/logout", headers=evil)
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"
    # ... and for the rest of the API its requests carry no account: no rated game for it
    r = c.post(
        "/api/games",
        headers={"Origin": "http://evil.example"},
        json={"game": "toy", "players": 2, "rated": True, "seats": [{"kind": "human"}] * 2},
    )
    assert r.status_code == 401 and r.json()["code"] == "login_needed"
    # the same page's own request (same Origin as the host) with the token: done
    own_origin = {"X-CSRF-Token": token, "Origin": server.base}
    assert c.post("/api/account/logout", headers=own_origin).status_code == 200
    c.close()


def test_the_seat_token_of_an_account_is_given_only_with_the_csrf_token(
    server: ServerProcess,
) -> None:
    a = register(server, fresh_name("A"))
    b = register(server, fresh_name("B"))
    gid, tokens = two_seat_game(server, a, b, rated=False)
    r = a.post(f"/api/account/games/{gid}/seat")
    assert r.status_code == 403 and r.json()["code"] == "bad_csrf"
    assert tokens[0] not in r.text
    with browser(server) as anonymous:
        r = anonymous.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": "x"})
        assert r.status_code == 401 and r.json()["code"] == "not_logged_in"
    c = register(server, fresh_name("C"))
    r = c.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": csrf(c)})
    assert r.status_code == 404 and r.json()["code"] == "not_your_game"
    for x in (a, b, c):
        x.close()


# -- the login rate limit ------------------------------------------------------------------


def test_logging_in_too_often_is_refused_429_per_account_and_per_address(
    tmp_path: Path,
) -> None:
    s = ServerProcess(
        tmp_path / "rl.db",
        env={
            **TOY,
            "CIVCARDS_LOGIN_BURST": "3",
            "CIVCARDS_LOGIN_RATE": "0.001",
            "CIVCARDS_LOGIN_ADDRESS_BURST": "6",
            "CIVCARDS_LOGIN_ADDRESS_RATE": "0.001",
        },
    )
    s.start()
    try:
        with browser(s) as c:  # registering counts against the address: 1 of 6
            r = c.post("/api/account/register", json={"name": "Rita", "password": "rita's pw"})
            assert r.status_code == 201
        with browser(s) as c:
            for _ in range(3):
                r = c.post("/api/account/login", json={"name": "Rita", "password": "guess"})
                assert r.status_code == 401, r.text
            r = c.post("/api/account/login", json={"name": "rita", "password": "rita's pw"})
            assert r.status_code == 429, r.text  # the account's 4th: even the right password
            assert r.json()["code"] == "login_rate_limited"
            assert r.json()["detail"].startswith("too many attempts to log in")
            assert int(r.headers["Retry-After"]) >= 1
            assert "set-cookie" not in r.headers
            # another name from the same address: its 6th attempt is the address's last
            r = c.post("/api/account/login", json={"name": "Other", "password": "guess"})
            assert r.status_code == 401
            r = c.post("/api/account/login", json={"name": "Other", "password": "guess"})
            assert r.status_code == 429 and r.json()["code"] == "login_rate_limited"
    finally:
        s.stop()


# -- games from any browser, history, deletion ----------------------------------------------


def test_the_history_after_a_game_and_the_seat_from_another_browser(
    server: ServerProcess,
) -> None:
    an, bo = fresh_name("Ana"), fresh_name("Bo")
    a = register(server, an, "ana's password")
    b = register(server, bo, "bo's password")
    gid, tokens = two_seat_game(server, a, b, rated=False)
    game = net.get(f"{server.base}/api/games/{gid}").json()
    assert [s["name"] for s in game["seats"]] == [an, bo]  # the accounts' names by default
    # from a second browser: log in, find the game, get the seat's token (the same one:
    # the first browser goes on playing)
    with browser(server) as second:
        r = second.post("/api/account/login", json={"name": an, "password": "ana's password"})
        assert r.status_code == 200
        hist = second.get("/api/account/games").json()
        assert [(g["id"], g["seat"], g["status"]) for g in hist] == [(gid, 0, "playing")]
        assert hist[0]["result"] is None and hist[0]["rated"] is False
        r = second.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": csrf(second)})
        assert r.status_code == 200, r.text
        assert r.json() == {"seat": 0, "token": tokens[0]}
    final = play_out(server, gid, tokens)
    winners = final["result"]["winners"]
    for client, seat in ((a, 0), (b, 1)):
        hist = client.get("/api/account/games").json()
        assert len(hist) == 1
        g = hist[0]
        assert (g["id"], g["seat"], g["status"], g["game"]) == (gid, seat, "finished", "toy")
        assert g["names"] == [an, bo]
        want = ("shared" if final["result"]["shared"] else "won") if seat in winners else "lost"
        assert g["result"] == want
        assert g["rating_before"] is None and g["rating_after"] is None  # not rated
    assert a.get("/api/account/ratings").json() == []
    with browser(server) as anonymous:
        r = anonymous.get("/api/account/games")
        assert r.status_code == 401 and r.json()["code"] == "not_logged_in"
    a.close()
    b.close()


def test_a_revoked_seat_token_is_replaced_when_the_account_asks_for_it(
    server: ServerProcess,
) -> None:
    a = register(server, fresh_name("Rev"))
    b = register(server, fresh_name("Rev"))
    gid, tokens = two_seat_game(server, a, b, rated=False)
    # revoked anonymously (another browser, not logged in): the kept token is dead
    r = net.post(f"{server.base}/api/games/{gid}/revoke", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 200
    r = a.post(f"/api/account/games/{gid}/seat", headers={"X-CSRF-Token": csrf(a)})
    assert r.status_code == 200
    new = r.json()["token"]
    assert new != tokens[0]
    state = net.get(f"{server.base}/api/games/{gid}/state", headers={"X-Seat-Token": new})
    assert state.status_code == 200 and state.json()["seat"] == 0
    a.close()
    b.close()


def test_deleting_an_account_removes_its_personal_data_and_anonymises_its_games(
    server: ServerProcess,
) -> None:
    gone, stays = fresh_name("Gone"), fresh_name("Stays")
    a = register(server, gone, "delete me please")
    b = register(server, stays, "i stay here")
    gid, tokens = two_seat_game(server, a, b, rated=False)
    play_out(server, gid, tokens)
    token = csrf(a)
    r = a.post(
        "/api/account/delete", json={"password": "wrong one"}, headers={"X-CSRF-Token": token}
    )
    assert r.status_code == 401 and r.json()["code"] == "bad_password"
    r = a.post(
        "/api/account/delete",
        json={"password": "delete me please"},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 200, r.text
    assert a.get("/api/account/me").json()["account"] is None
    r = a.post("/api/account/login", json={"name": gone, "password": "delete me please"})
    assert r.status_code == 401
    # the game stays, its seat anonymised (the reader's language names it: "Seat 1" …)
    game = net.get(f"{server.base}/api/games/{gid}").json()
    assert [s["name"] for s in game["seats"]] == ["", stays]
    record = net.get(f"{server.base}/api/games/{gid}/record")
    assert record.status_code == 200 and gone not in record.text
    assert [g["names"] for g in b.get("/api/account/games").json()] == [["", stays]]
    with db(server) as con:
        for table, column in (("accounts", "name"), ("seats", "name")):
            rows = con.execute(f"SELECT count(*) FROM {table} WHERE {column} = ?", (gone,))
            assert rows.fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM account_sessions").fetchone()[0] >= 1  # b's
        (left,) = con.execute(
            "SELECT count(*) FROM account_seats WHERE game_id = ? AND seat = 0", (gid,)
        ).fetchone()
        assert left == 0
    a.close()
    b.close()


# -- rated games ------------------------------------------------------------------------------


def test_rated_games_have_only_account_seats(server: ServerProcess) -> None:
    a = register(server, fresh_name("Rated"))
    body: dict[str, Any] = {"game": "toy", "players": 2, "rated": True}
    r = a.post("/api/games", json={**body, "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert r.status_code == 422 and r.json()["code"] == "rated_bots"
    r = net.post(f"{server.base}/api/games", json={**body, "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 401 and r.json()["code"] == "login_needed"
    r = a.post("/api/games", json={**body, "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201
    created = r.json()
    gid, inv = created["id"], [s["token"] for s in created["seats"]]
    # an anonymous player cannot take a seat; the invitation stays good
    r = net.post(f"{server.base}/api/games/{gid}/claim", headers={"X-Seat-Token": inv[1]})
    assert r.status_code == 403 and r.json()["code"] == "account_needed"
    assert a.post(f"/api/games/{gid}/claim", headers={"X-Seat-Token": inv[0]}).status_code == 200
    r = a.post(f"/api/games/{gid}/claim", headers={"X-Seat-Token": inv[1]})
    assert r.status_code == 409 and r.json()["code"] == "already_seated"
    b = register(server, fresh_name("Rated"))
    assert b.post(f"/api/games/{gid}/claim", headers={"X-Seat-Token": inv[1]}).status_code == 200
    a.close()
    b.close()


def ratings(c: httpx.Client) -> dict[str, dict[str, Any]]:
    return {r["game"]: r for r in c.get("/api/account/ratings").json()}


def test_a_rated_game_changes_both_ratings_once_even_across_restarts(
    own: ServerProcess,
) -> None:
    a = register(own, "Winner?", "password one")
    b = register(own, "Loser?", "password two")
    gid, tokens = two_seat_game(own, a, b, rated=True, seed=DECISIVE_SEED)
    assert ratings(a) == {} and ratings(b) == {}
    final = play_out(own, gid, tokens)
    result = final["result"]
    assert not result["shared"] and len(result["winners"]) == 1, result  # the seed's point
    won = result["winners"][0]
    after = {0: ratings(a)["toy"], 1: ratings(b)["toy"]}
    for seat in (0, 1):
        r = after[seat]
        assert r["games"] == 1 and r["title"] == toygame.GAME.title
        assert r["sigma"] < 25 / 3  # less uncertain than a new rating
        assert r["wins"] == (1.0 if seat == won else 0.0)
    assert after[won]["mu"] > 25 > after[1 - won]["mu"]
    hist = a.get("/api/account/games").json()[0]
    assert hist["rated"] is True and hist["rating_before"] == pytest.approx(0.0, abs=1e-3)
    assert hist["rating_after"] == pytest.approx(after[0]["ordinal"], abs=1e-3)

    own.restart()  # nothing counted twice
    assert {0: ratings(a)["toy"], 1: ratings(b)["toy"]} == after

    # the server stopped after the game's last move was stored, before the ratings: the
    # next start counts it, once
    own.stop()
    with db(own) as con:
        con.execute("DELETE FROM ratings")
        con.execute("DELETE FROM rating_changes")
        con.execute("UPDATE rated_games SET applied_at = NULL")
    own.start()
    assert {0: ratings(a)["toy"], 1: ratings(b)["toy"]} == after
    own.restart()
    assert {0: ratings(a)["toy"], 1: ratings(b)["toy"]} == after
    a.close()
    b.close()


def test_accounts_and_ratings_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    """The same on PostgreSQL (the migration, the session lookups, a rated game counted
    once across a restart, deletion)."""
    s = ServerProcess(tmp_path / "pg", db_url=pg_url, env=TOY)
    s.start()
    try:
        an = fresh_name("PgA")
        a = register(s, an, "pg password a")
        b = register(s, fresh_name("PgB"), "pg password b")
        gid, tokens = two_seat_game(s, a, b, rated=True, seed=DECISIVE_SEED)
        play_out(s, gid, tokens)
        after = {0: ratings(a)["toy"], 1: ratings(b)["toy"]}
        assert after[0]["games"] == after[1]["games"] == 1
        assert after[0]["ordinal"] != after[1]["ordinal"]
        s.restart()
        assert {0: ratings(a)["toy"], 1: ratings(b)["toy"]} == after
        assert [g["result"] for g in a.get("/api/account/games").json()] in (["won"], ["lost"])
        r = a.post(
            "/api/account/delete",
            json={"password": "pg password a"},
            headers={"X-CSRF-Token": csrf(a)},
        )
        assert r.status_code == 200
        game = net.get(f"{s.base}/api/games/{gid}").json()
        assert game["seats"][0]["name"] == "" and an not in str(game)
        a.close()
        b.close()
    finally:
        s.stop()


def test_a_game_played_before_registering_joins_the_account_with_its_token(
    server: ServerProcess,
) -> None:
    r = net.post(
        f"{server.base}/api/games",
        json={"game": "toy", "players": 2, "seats": [{"kind": "human"}] * 2, "seed": 5},
    )
    created = r.json()
    gid = created["id"]
    tokens = {
        i: net.post(
            f"{server.base}/api/games/{gid}/claim", headers={"X-Seat-Token": s["token"]}
        ).json()["token"]
        for i, s in enumerate(created["seats"])
    }
    final = play_out(server, gid, tokens)
    a = register(server, fresh_name("Late"))
    assert a.get("/api/account/games").json() == []
    path = f"/api/account/games/{gid}/link"
    r = a.post(path, headers={"X-Seat-Token": tokens[1]})
    assert r.status_code == 403 and r.json()["code"] == "bad_csrf"
    r = a.post(path, headers={"X-Seat-Token": "made-up", "X-CSRF-Token": csrf(a)})
    assert r.status_code == 403 and r.json()["code"] == "bad_token"
    r = a.post(path, headers={"X-Seat-Token": tokens[1], "X-CSRF-Token": csrf(a)})
    assert r.status_code == 200, r.text
    hist = a.get("/api/account/games").json()
    want = (
        "lost"
        if 1 not in final["result"]["winners"]
        else ("shared" if final["result"]["shared"] else "won")
    )
    assert [(g["id"], g["seat"], g["result"]) for g in hist] == [(gid, 1, want)]
    b = register(server, fresh_name("Late"))  # the same token, another account: refused
    r = b.post(path, headers={"X-Seat-Token": tokens[1], "X-CSRF-Token": csrf(b)})
    assert r.status_code == 409 and r.json()["code"] == "seat_linked"
    a.close()
    b.close()


def test_a_deleted_accounts_rated_seat_cannot_be_taken_into_another_account(
    server: ServerProcess,
) -> None:
    a = register(server, fresh_name("Del"), "delete this one")
    b = register(server, fresh_name("Del"))
    gid, tokens = two_seat_game(server, a, b, rated=True)
    r = a.post(
        "/api/account/delete",
        json={"password": "delete this one"},
        headers={"X-CSRF-Token": csrf(a)},
    )
    assert r.status_code == 200
    c = register(server, fresh_name("Del"))
    r = c.post(
        f"/api/account/games/{gid}/link",
        headers={"X-Seat-Token": tokens[0], "X-CSRF-Token": csrf(c)},
    )
    assert r.status_code == 409 and r.json()["code"] == "rated_seat"
    for x in (a, b, c):
        x.close()


@pytest.mark.parametrize("value", ["lots", "-1", "inf"])
def test_a_bad_login_limit_stops_serve_with_one_sentence(value: str) -> None:
    env = {**os.environ, "CIVCARDS_LOGIN_BURST": value}
    r = subprocess.run(
        [sys.executable, "-m", "civcards.cli", "serve", "--port", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2, r.stderr
    assert f"CIVCARDS_LOGIN_BURST={value!r}" in r.stderr and "Traceback" not in r.stderr

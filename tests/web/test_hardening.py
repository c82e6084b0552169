"""Issue 22, defect 8: security headers on every answer, the Host header and the WebSocket
Origin checked (with the options for a deployment behind a proxy), pages that run under
their Content-Security-Policy, and no cookies."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from civcards.server.security import Security, normalize_origin

from . import net
from .conftest import ServerProcess

CIV: dict[str, Any] = {
    "players": 2,
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    "seed": 3,
}


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server as behind a proxy: one public host name, another site's origin allowed,
    the proxy's X-Forwarded-Host believed."""
    s = ServerProcess(
        tmp_path_factory.mktemp("proxied") / "civ.db",
        extra_args=[
            "--allowed-hosts",
            "civ.example.org,*.civ.example.org",
            "--allowed-origins",
            "https://friends.example.net",
            "--trust-proxy",
        ],
        env=FEW_GAMES,
    )
    s.start()
    yield s
    s.stop()


def check_headers(r: httpx.Response) -> None:
    csp = r.headers.get("content-security-policy", "")
    assert "default-src 'self'" in csp, r.url
    assert "frame-ancestors 'none'" in csp
    assert r.headers.get("x-frame-options") == "DENY"
    assert r.headers.get("x-content-type-options") == "nosniff"
    assert r.headers.get("referrer-policy") == "no-referrer"
    assert "set-cookie" not in r.headers  # seat tokens are never cookies


def test_every_answer_carries_the_headers(server: ServerProcess) -> None:
    gid = server.create(**CIV)["id"]
    with server.client() as c:
        for path in (
            "/",
            f"/game/{gid}",
            "/api/games",
            f"/api/games/{gid}/state",
            "/static/lobby.js",
            "/api/games/nosuchgame",
            "/openapi.json",
        ):
            check_headers(c.get(path))
        check_headers(c.post("/api/games", json={"players": "x"}))  # a 422
        csp = c.get("/").headers["content-security-policy"]
        # the pages run only this server's scripts and styles: nothing inline
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        docs = c.get("/docs")
        assert "frame-ancestors 'none'" in docs.headers["content-security-policy"]


def test_host_header_is_checked(server: ServerProcess) -> None:
    with server.client() as c:
        assert c.get("/api/games").status_code == 200  # 127.0.0.1: a loopback name
        assert c.get("/api/games", headers={"Host": f"localhost:{server.port}"}).status_code == 200
        r = c.get("/api/games", headers={"Host": "evil.example"})
        assert r.status_code == 400
        check_headers(r)
        # a rebinding page's host cannot hand the forwarded host in: the proxy is not trusted
        r = c.get("/api/games", headers={"Host": "evil.example", "X-Forwarded-Host": "localhost"})
        assert r.status_code == 400


def test_allowed_hosts_behind_a_proxy(proxied: ServerProcess) -> None:
    with proxied.client() as c:
        assert c.get("/api/games").status_code == 400  # 127.0.0.1 is not the public name
        assert c.get("/api/games", headers={"Host": "civ.example.org"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "eu.civ.example.org"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "civ.example.org.evil"}).status_code == 400
        fwd = {"X-Forwarded-Host": "civ.example.org"}  # the proxy's Host, as nginx may send
        assert c.get("/api/games", headers=fwd).status_code == 200
        fwd = {"X-Forwarded-Host": "evil.example", "Host": "civ.example.org"}
        assert c.get("/api/games", headers=fwd).status_code == 400


def hello(url: str, **kw: Any) -> dict[str, Any]:
    with connect(url, open_timeout=10, **kw) as ws:
        ws.send(json.dumps({"token": None}))
        frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
        return frame


def test_websocket_origin_is_checked(server: ServerProcess) -> None:
    gid = server.create(**CIV)["id"]
    url = f"ws://127.0.0.1:{server.port}/ws/{gid}"
    assert hello(url)["type"] == "state"  # no Origin: not a browser
    assert hello(url, origin=f"http://127.0.0.1:{server.port}")["type"] == "state"
    for origin in ("http://evil.example", f"http://127.0.0.1:{server.port + 1}", "null"):
        with connect(url, open_timeout=10, origin=Origin(origin)) as ws:
            frame = json.loads(ws.recv(timeout=10))
            assert frame["type"] == "error" and frame["code"] == "bad_origin", origin
    assert "refused the origin" in server.log()


def test_websocket_origins_behind_a_proxy(proxied: ServerProcess) -> None:
    r = net.post(
        proxied.base + "/api/games", json=CIV, headers={"Host": "civ.example.org"}, timeout=20
    )
    gid = r.json()["id"]
    url = f"ws://127.0.0.1:{proxied.port}/ws/{gid}"
    fwd = {"X-Forwarded-Host": "civ.example.org"}
    assert hello(url, origin="https://civ.example.org", additional_headers=fwd)["type"] == "state"
    assert (
        hello(url, origin="https://friends.example.net", additional_headers=fwd)["type"] == "state"
    )
    # a refused origin gets its error frame at once, before it can send anything
    with connect(
        url, open_timeout=10, origin=Origin("https://evil.example"), additional_headers=fwd
    ) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_origin"


def test_origin_rules() -> None:
    s = Security(allowed_origins=(normalize_origin("HTTPS://Play.example.org:443/"),))
    assert s.origin_allowed("https://play.example.org", "civ.example.org")
    assert s.origin_allowed("https://civ.example.org", "civ.example.org:443")
    assert s.origin_allowed("http://localhost:8000", "localhost:8000")
    assert not s.origin_allowed("http://localhost:8001", "localhost:8000")
    assert not s.origin_allowed("https://civ.example.org.evil", "civ.example.org")
    assert not s.origin_allowed("null", "civ.example.org")
    assert s.origin_allowed(None, "civ.example.org")
    assert Security.from_env({}, listen="127.0.0.1").allowed_hosts[0] == "localhost"
    assert Security.from_env({}, listen="0.0.0.0").allowed_hosts == ("*",)
    env = {"CIVCARDS_ALLOWED_HOSTS": "a.org, b.org", "CIVCARDS_TRUST_PROXY": "1"}
    sec = Security.from_env(env, listen="127.0.0.1")
    assert sec.allowed_hosts == ("a.org", "b.org") and sec.trust_proxy


def test_pages_run_under_their_policy(server: ServerProcess, tmp_path: Path) -> None:
    """Chromium enforces the policy: the lobby and a table (with its bars) show no
    violation and no script error."""
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("Debian's chromium is not installed")
    created = server.create(**CIV)
    seat = created["seats"][0]
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(chromium), args=["--headless", "--no-sandbox"])
        try:
            page = b.new_page()
            problems: list[str] = []
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on(
                "console",
                lambda m: (
                    problems.append(m.text)
                    if "Content Security Policy" in m.text or m.type == "error"
                    else None
                ),
            )
            page.goto(server.base + "/")
            page.wait_for_selector("#seats li")
            page.goto(f"{server.base}/game/{created['id']}#seat=0&token={seat['token']}")
            page.wait_for_selector("[data-testid=player-0]")
            width = page.eval_on_selector(".track .fill", "e => e.style.width")
            assert width.endswith("%")
            assert problems == []
        finally:
            b.close()


# -- the client's address: the socket's peer, or a listed proxy's X-Forwarded-For --------

#: games per address: 3 at once, then one per 100 s (the test servers turn it off)
FEW_GAMES = {"CIVCARDS_CREATE_RATE": "0.01", "CIVCARDS_CREATE_BURST": "3"}
GAME = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def creations(s: ServerProcess, host: str | None = None) -> list[int]:
    """Six game creations, each claiming to come from another address through every
    forwarding header there is."""
    codes = []
    for i in range(6):
        headers = {
            "X-Forwarded-For": f"203.0.113.{i + 1}",
            "Forwarded": f"for=198.51.100.{i + 1};proto=https",
            "X-Real-IP": f"192.0.2.{i + 1}",
            "X-Forwarded-Proto": "https",
        }
        if host is not None:
            headers["Host"] = host
        codes.append(net.post(s.base + "/api/games", json=GAME, headers=headers).status_code)
    return codes


def test_without_trust_proxy_the_client_is_the_sockets_peer(tmp_path: Path) -> None:
    """Issue 38, defect 10: Uvicorn believed 127.0.0.1's X-Forwarded-For, so a client picked
    its own address: 0 of 40 creations were refused. Without ``--trust-proxy`` every
    forwarding header is ignored."""
    s = ServerProcess(tmp_path / "plain.db", env=FEW_GAMES)
    s.start()
    try:
        assert creations(s) == [201] * 3 + [429] * 3
        # the log names the peer, never an address a header made up
        log = s.log()
        assert "203.0.113." not in log and "198.51.100." not in log
        assert "127.0.0.1:" in log
    finally:
        s.stop()


def test_with_trust_proxy_a_listed_proxy_names_the_client(
    tmp_path: Path, proxied: ServerProcess
) -> None:
    """Behind a proxy (127.0.0.1 by default, the peer here) each forwarded address is a
    client of its own; a proxy that is not listed is believed in nothing."""
    assert creations(proxied, "civ.example.org") == [201] * 6
    assert "203.0.113.6:" in proxied.log()
    # the proxy speaks https: an account's cookie is Secure
    r = net.post(
        proxied.base + "/api/account/register",
        json={"name": f"Proxied{secrets.randbelow(10**6)}", "password": "behind a proxy"},
        headers={"Host": "civ.example.org", "X-Forwarded-Proto": "https"},
    )
    assert r.status_code == 201, r.text
    assert "secure" in r.headers["set-cookie"].lower().replace(" ", "").split(";")
    s = ServerProcess(
        tmp_path / "elsewhere.db",
        extra_args=[
            "--allowed-hosts",
            "civ.example.org",
            "--trust-proxy",
            "--trusted-proxies",
            "192.0.2.7,10.1.0.0/16",
        ],
        env=FEW_GAMES,
    )
    s.start()
    try:
        assert creations(s, "civ.example.org") == [201] * 3 + [429] * 3
        assert "203.0.113." not in s.log()
        # nor its X-Forwarded-Host
        with s.client() as c:
            assert c.get("/api/games", headers={"Host": "civ.example.org"}).status_code == 200
            fwd = {"Host": "evil.example", "X-Forwarded-Host": "civ.example.org"}
            assert c.get("/api/games", headers=fwd).status_code == 400
    finally:
        s.stop()


def test_trusted_proxies_rules() -> None:
    env = {"CIVCARDS_TRUST_PROXY": "1", "CIVCARDS_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7"}
    sec = Security.from_env(env)
    assert sec.trusts("10.3.4.5") and sec.trusts("192.0.2.7")
    assert not sec.trusts("192.0.2.8") and not sec.trusts("127.0.0.1") and not sec.trusts(None)
    assert Security.from_env({"CIVCARDS_TRUST_PROXY": "1"}).trusts("127.0.0.1")
    assert not Security.from_env({"CIVCARDS_TRUSTED_PROXIES": "127.0.0.1"}).trusts("127.0.0.1")
    with pytest.raises(ValueError, match="CIVCARDS_TRUSTED_PROXIES"):
        Security.from_env({"CIVCARDS_TRUST_PROXY": "1", "CIVCARDS_TRUSTED_PROXIES": "nowhere"})

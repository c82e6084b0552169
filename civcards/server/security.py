"""Hardening: response headers (CSP, framing, sniffing, referrer), the ``Host`` header and
the WebSocket ``Origin``.

The ``Host`` check is Starlette's :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`;
behind a proxy that rewrites ``Host``, :class:`ProxyMiddleware` (``--trust-proxy``) first
puts the proxy's ``X-Forwarded-Host`` in its place. The client's address (the limits per
address, the logs) is the socket's peer: ``civcards serve`` tells Uvicorn to believe no
forwarding header, and only with ``--trust-proxy``, and only from a peer among
``--trusted-proxies``, does :class:`ProxyMiddleware` take the client's address, scheme and
host from the proxy's ``X-Forwarded-For``, ``X-Forwarded-Proto`` and ``X-Forwarded-Host``.

Seat tokens travel in headers and WebSocket messages, never in cookies, so no check of
``Origin`` is needed for HTTP requests (a page elsewhere cannot make a browser send a token
it does not know); the WebSocket's ``Origin`` is checked all the same, so that no other
site can open a live view from a visitor's browser. The optional accounts' session cookie
(``accounts.py``) is no seat's credential; the changes made with it need its CSRF token and
a same-site ``Origin``.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the pages' policy: only this server's own scripts, styles, images (and data: icons),
#: fetches and WebSockets; no plugins, no <base>, never inside a frame
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: FastAPI's API documentation pages (/docs, /redoc) load Swagger UI and ReDoc from their CDN
#: with an inline start-up script
CSP_DOCS = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
    "https://cdn.redoc.ly; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})

#: the header every HTTP answer carries
HEADERS: dict[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: the Host names a server listening on a loopback address answers by default
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")

ENV_HOSTS = "CIVCARDS_ALLOWED_HOSTS"
ENV_ORIGINS = "CIVCARDS_ALLOWED_ORIGINS"
ENV_TRUST_PROXY = "CIVCARDS_TRUST_PROXY"
ENV_TRUSTED_PROXIES = "CIVCARDS_TRUSTED_PROXIES"

#: the proxies believed by default with ``--trust-proxy``: one on the same machine
DEFAULT_PROXIES = ("127.0.0.1", "::1")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(entries: Sequence[str], where: str) -> tuple[Network, ...]:
    """Addresses (``10.0.0.2``) and networks (``10.0.0.0/8``) of trusted proxies;
    ValueError with a sentence naming ``where`` for one that is neither."""
    out = []
    for e in entries:
        try:
            out.append(ipaddress.ip_network(e, strict=False))
        except ValueError:
            raise ValueError(
                f"{where}: {e!r} is not an IP address or network (10.0.0.2, 10.0.0.0/8)"
            ) from None
    return tuple(out)


def split_list(text: str | None) -> list[str]:
    """``"a, b,c"`` -> ``["a", "b", "c"]``."""
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def is_loopback(host: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


@dataclass(frozen=True)
class Security:
    """Which ``Host`` names the server answers (``*``: any; ``*.example.org``: its
    subdomains), which other origins may open its WebSockets (its own is always allowed),
    and whether a proxy's ``X-Forwarded-*`` headers are believed (``trust_proxy``), from
    which peers (``proxies``: addresses and networks)."""

    allowed_hosts: tuple[str, ...] = ("*",)
    allowed_origins: tuple[str, ...] = ()
    trust_proxy: bool = False
    proxies: tuple[str, ...] = DEFAULT_PROXIES

    def __post_init__(self) -> None:
        parse_proxies(self.proxies, "--trusted-proxies")

    @cached_property
    def networks(self) -> tuple[Network, ...]:
        """:attr:`proxies` as networks (an address: a network of one)."""
        return parse_proxies(self.proxies, "--trusted-proxies")

    def trusts(self, peer: str | None) -> bool:
        """Whether the forwarding headers of a request from ``peer`` are believed: only with
        :attr:`trust_proxy`, from a listed proxy."""
        if not self.trust_proxy or not peer:
            return False
        try:
            addr = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(addr in n for n in self.networks)

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, listen: str | None = None
    ) -> Security:
        """From ``CIVCARDS_ALLOWED_HOSTS``, ``CIVCARDS_ALLOWED_ORIGINS`` and
        ``CIVCARDS_TRUST_PROXY``; with no hosts given, a server listening on ``listen`` (a
        loopback address) answers only its loopback names, any other every name."""
        env = os.environ if env is None else env
        hosts = split_list(env.get(ENV_HOSTS))
        if not hosts:
            hosts = list(LOOPBACK_HOSTS) if listen is not None and is_loopback(listen) else ["*"]
        proxies = tuple(split_list(env.get(ENV_TRUSTED_PROXIES))) or DEFAULT_PROXIES
        parse_proxies(proxies, ENV_TRUSTED_PROXIES)  # a bad entry: a sentence naming it
        return cls(
            allowed_hosts=tuple(hosts),
            allowed_origins=tuple(normalize_origin(o) for o in split_list(env.get(ENV_ORIGINS))),
            trust_proxy=env.get(ENV_TRUST_PROXY, "").strip().lower() in ("1", "true", "yes", "on"),
            proxies=proxies,
        )

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """Whether a WebSocket with this ``Origin`` header may connect to ``host``. No
        ``Origin`` (not a browser): allowed; the same host as the request's: allowed; else
        only an origin of :attr:`allowed_origins` (``*``: any)."""
        if origin is None:
            return True
        norm = normalize_origin(origin)
        if "*" in self.allowed_origins or norm in self.allowed_origins:
            return True
        if host is None or origin == "null":
            return False
        return _netloc(norm) == _host_port(host, _scheme(norm))


def normalize_origin(origin: str) -> str:
    """``HTTPS://Example.org:443/`` -> ``https://example.org``."""
    origin = origin.strip().rstrip("/")
    if origin in ("*", "null"):
        return origin
    parts = urlsplit(origin)
    scheme = parts.scheme.lower()
    netloc = _host_port(parts.netloc, scheme)
    return f"{scheme}://{netloc}"


def _scheme(origin: str) -> str:
    return origin.split("://", 1)[0] if "://" in origin else ""


def _netloc(origin: str) -> str:
    return origin.split("://", 1)[1] if "://" in origin else origin


def _host_port(netloc: str, scheme: str) -> str:
    """The host (lower case) and its port, left out when it is the scheme's default."""
    netloc = netloc.strip().lower()
    default = {"http": "80", "ws": "80", "https": "443", "wss": "443"}.get(scheme)
    if default and netloc.endswith(f":{default}"):
        netloc = netloc[: -len(default) - 1]
    return netloc


class HostCheckMiddleware(TrustedHostMiddleware):
    """Starlette's ``Host`` check (400 for a name not allowed), except for the paths in
    ``exempt``: a load balancer probes the health checks by address."""

    def __init__(
        self, app: ASGIApp, allowed_hosts: Sequence[str], exempt: Sequence[str] = ()
    ) -> None:
        super().__init__(app, allowed_hosts=allowed_hosts, www_redirect=False)
        self.exempt = frozenset(exempt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("path") in self.exempt:
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


class ProxyMiddleware:
    """ASGI middleware (``--trust-proxy``): a request whose peer is a trusted proxy
    (:meth:`Security.trusts`) has the client's address of its ``X-Forwarded-For`` (the
    nearest address that is no trusted proxy), the scheme of its ``X-Forwarded-Proto`` and
    the ``Host`` of its first ``X-Forwarded-Host``. Any other request's headers change
    nothing: a client cannot name its own address."""

    def __init__(self, app: ASGIApp, security: Security) -> None:
        self.app = app
        self.security = security

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = scope.get("client")
            if self.security.trusts(peer[0] if peer else None):
                self.forward(scope)
        await self.app(scope, receive, send)

    def forward(self, scope: Scope) -> None:
        """Believe the proxy: changed in place, so that the server's access log names the
        client too."""
        headers = Headers(scope=scope)
        hops = [h.strip() for h in ",".join(headers.getlist("x-forwarded-for")).split(",")]
        hops = [h for h in hops if h]
        if hops:
            client = hops[0]
            for hop in reversed(hops):  # the nearest hop no trusted proxy added
                client = hop
                if not self.security.trusts(hop):
                    break
            scope["client"] = (client, 0)
        proto = headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
        if proto in ("http", "https"):
            scope["scheme"] = proto if scope["type"] == "http" else proto.replace("http", "ws")
        fwd = headers.get("x-forwarded-host")
        if fwd:
            host = fwd.split(",")[0].strip().encode("latin-1")
            raw = [(k, v) for k, v in scope["headers"] if k != b"host"]
            scope["headers"] = [*raw, (b"host", host)]


class SecurityHeadersMiddleware:
    """ASGI middleware: every HTTP answer carries :data:`HEADERS` and a
    Content-Security-Policy (:data:`CSP`; :data:`CSP_DOCS` for the API documentation)."""

    def __init__(self, app: ASGIApp, docs_paths: Sequence[str] = tuple(DOCS_PATHS)) -> None:
        self.app = app
        self.docs_paths = frozenset(docs_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = CSP_DOCS if scope.get("path") in self.docs_paths else CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for k, v in HEADERS.items():
                    headers[k] = v
                headers["Content-Security-Policy"] = csp
            await send(message)

        await self.app(scope, receive, send_with_headers)

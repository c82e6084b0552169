"""Hardening: response headers (CSP, framing, sniffing, referrer), the ``Host`` header and
the WebSocket ``Origin``.

The ``Host`` check is Starlette's :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`;
behind a proxy that rewrites ``Host``, :class:`ForwardedHostMiddleware` (``--trust-proxy``)
first puts the proxy's ``X-Forwarded-Host`` in its place. Seat tokens travel in headers and
WebSocket messages, never in cookies, so no check of ``Origin`` is needed for HTTP requests
(a page elsewhere cannot make a browser send a token it does not know); the WebSocket's
``Origin`` is checked all the same, so that no other site can open a live view from a
visitor's browser. The optional accounts' session cookie (``accounts.py``) is no seat's
credential; the changes made with it need its CSRF token and a same-site ``Origin``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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


def split_list(text: str | None) -> list[str]:
    """``"a, b,c"`` -> ``["a", "b", "c"]``."""
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def is_loopback(host: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


@dataclass(frozen=True)
class Security:
    """Which ``Host`` names the server answers (``*``: any; ``*.example.org``: its
    subdomains), which other origins may open its WebSockets (its own is always allowed),
    and whether a proxy's ``X-Forwarded-Host`` is believed."""

    allowed_hosts: tuple[str, ...] = ("*",)
    allowed_origins: tuple[str, ...] = ()
    trust_proxy: bool = False

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
        return cls(
            allowed_hosts=tuple(hosts),
            allowed_origins=tuple(normalize_origin(o) for o in split_list(env.get(ENV_ORIGINS))),
            trust_proxy=env.get(ENV_TRUST_PROXY, "").strip().lower() in ("1", "true", "yes", "on"),
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


class ForwardedHostMiddleware:
    """ASGI middleware (``--trust-proxy``): a request's ``Host`` is the first
    ``X-Forwarded-Host`` the proxy sent, when it sent one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            fwd = Headers(scope=scope).get("x-forwarded-host")
            if fwd:
                host = fwd.split(",")[0].strip().encode("latin-1")
                raw = [(k, v) for k, v in scope["headers"] if k != b"host"]
                scope = dict(scope, headers=[*raw, (b"host", host)])
        await self.app(scope, receive, send)


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

"""The tests' one-off HTTP requests without building an HTTP client for each.

``httpx.get(...)`` and its kin build a client, and with it a TLS context (the certificate
bundle read and parsed), for every request: about 0.05 s on an idle machine and 0.2 s on
the busy 2-CPU CI machine, over some 250 requests of the web tests. :func:`get`,
:func:`post` and the rest take the same arguments and send through one shared transport;
each request is still a client of its own (no cookie carries from one to the next) on a
connection of its own (none is kept open), as with httpx's functions.
"""

from __future__ import annotations

import time
from typing import Any

import httpx

#: one transport for every request: its TLS context is built once; no connection kept alive
_TRANSPORT = httpx.HTTPTransport(limits=httpx.Limits(max_keepalive_connections=0))


def request(method: str, url: str, **kw: Any) -> httpx.Response:
    """As :func:`httpx.request` (the request's arguments; the body read)."""
    # not closed: closing a client closes its transport, which is shared
    return httpx.Client(transport=_TRANSPORT).request(method, url, **kw)


def get(url: str, **kw: Any) -> httpx.Response:
    return request("GET", url, **kw)


def post(url: str, **kw: Any) -> httpx.Response:
    return request("POST", url, **kw)


def put(url: str, **kw: Any) -> httpx.Response:
    return request("PUT", url, **kw)


def patch(url: str, **kw: Any) -> httpx.Response:
    return request("PATCH", url, **kw)


def delete(url: str, **kw: Any) -> httpx.Response:
    return request("DELETE", url, **kw)


def patient(method: str, url: str, *, tries: int = 30, **kw: Any) -> httpx.Response:
    """As :func:`request`, but a ``429`` is waited out as its ``Retry-After`` says (as a
    well-behaved client does) and the request sent again, up to ``tries`` times: for the
    tests that come after a burst of requests on a shared server and check other answers."""
    for _ in range(tries - 1):
        r = request(method, url, **kw)
        if r.status_code != 429:
            return r
        time.sleep(float(r.headers.get("retry-after", "1")))
    return request(method, url, **kw)

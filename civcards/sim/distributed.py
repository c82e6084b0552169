"""Games spread over a Ray cluster (``simulate --ray``; the optional extra ``ray``).

Each chunk of games is one Ray task running :func:`civcards.sim.simulate.run_chunk`,
so a game is played exactly as in a local process and the results are the
same as with ``--jobs 1``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..game_api import Game

R = TypeVar("R")


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """ValueError with a sentence when ``host:port`` (or ``ray://host:port``) does not answer.

    Ray itself retries an unreachable address for minutes; ``local`` and
    ``auto`` are left to Ray.
    """
    if address in ("local", "auto"):
        return
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ValueError(
            f"--ray {address!r}: give 'local', 'auto' or an address such as "
            "ray://host:10001 or host:6379"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ValueError(f"cannot reach the Ray cluster at {address!r} ({e})") from None


def run_on_ray(
    fn: Callable[[Any, int, Game], R],
    cfg: Any,
    chunks: list[tuple[int, int]],
    game: Game,
    address: str,
) -> Iterator[list[R]]:
    """Yield each chunk's results as its Ray task finishes.

    ``address`` is ``"local"`` for a Ray started here (or the one already
    started in this process), else the address of a running cluster
    (``auto``, ``ray://host:10001``, ``host:6379``).
    """
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--ray needs Ray: pip install 'civcards[ray]' (or make install EXTRAS=...,ray)"
        ) from None
    from .simulate import run_chunk

    started = False
    if not ray.is_initialized():
        check_reachable(address)
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise ValueError(f"cannot connect to the Ray cluster at {address!r} ({e})") from None
        started = True
    try:
        task: Any = ray.remote(run_chunk)
        game_ref = ray.put(game)
        cfg_ref = ray.put(cfg)
        pending = [task.remote(fn, cfg_ref, a, b, game_ref) for a, b in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                out: list[R] = ray.get(ref)
                yield out
    finally:
        if started:
            ray.shutdown()

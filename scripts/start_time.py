"""Start-up cost of the command line and of the web table, old tree against new.

    python scripts/start_time.py OLD_TREE NEW_TREE [--runs 5]

Each tree is a checkout of the repository (``git worktree add /tmp/old REV``, or
``git archive REV civcards | tar -x -C /tmp/old``); its ``civcards`` is imported from it
(``python -m`` puts the working folder first on the path). For each run, in turn for the
old tree and the new one (alternating, so that a neighbour's load falls on both alike):

- ``civcards --help``: the CPU seconds of the process;
- ``civcards serve`` over a new SQLite file until ``/healthz`` answers 200: the CPU
  seconds of the server process at that moment (``/proc``), of the server and its
  children then (the bot worker it spawns at start), and the wall seconds;
- a bot worker's start (spawned: ``civcards.cli`` as its main module, ``botpool``, the
  games and the search bot, as ``botpool``'s initializer loads them): its CPU seconds.

Prints one line a run and tree, then the medians.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

TICK = os.sysconf("SC_CLK_TCK")
WORKER = (
    "import multiprocessing.spawn, civcards.cli, civcards.server.botpool as b; "
    "b.all_games(); import civcards.bots.ismcts"
)


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_cpu(pid: int) -> float:
    """CPU seconds of the live process ``pid``."""
    f = _stat(pid)
    return (int(f[11]) + int(f[12])) / TICK


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root``, its live descendants and their reaped children."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                children.setdefault(int(_stat(int(d))[1]), []).append(int(d))
            except OSError:
                continue
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        try:
            f = _stat(pid)
        except OSError:
            continue
        total += sum(int(x) for x in f[11:15]) / TICK
        todo += children.get(pid, [])
    return total


def child_cpu(cmd: list[str], cwd: Path) -> float:
    """CPU seconds of running ``cmd`` to its end."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_start(tree: Path) -> tuple[float, float, float]:
    """(server CPU, server and children CPU, wall) until ``/healthz`` answers."""
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "start.db"
    cmd = [sys.executable, "-m", "civcards.cli", "serve", "--port", str(port)]
    cmd += ["--db", f"sqlite:///{db}", "--bot-delay", "0", "--log-level", "warning"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with httpx.Client(timeout=1) as client:
            while True:
                try:
                    if client.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None:
                    raise RuntimeError(f"the server in {tree} exited at start")
                time.sleep(0.02)
        wall = time.monotonic() - t0
        return process_cpu(proc.pid), tree_cpu(proc.pid), wall
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    names = ("help", "serve", "serve+children", "serve wall", "worker")
    seen: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for i in range(args.runs):
        for label, tree in (("old", args.old), ("new", args.new)):
            help_cpu = child_cpu([sys.executable, "-m", "civcards.cli", "--help"], tree)
            serve, tree_total, wall = serve_start(tree)
            worker = child_cpu([sys.executable, "-c", WORKER], tree)
            row = dict(zip(names, (help_cpu, serve, tree_total, wall, worker), strict=True))
            for k, v in row.items():
                seen[label].setdefault(k, []).append(v)
            print(f"run {i} {label}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()))
    for label in ("old", "new"):
        med = {k: statistics.median(v) for k, v in seen[label].items()}
        print(f"median {label}: " + ", ".join(f"{k} {v:.3f}" for k, v in med.items()))


if __name__ == "__main__":
    main()

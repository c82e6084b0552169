"""Recorded positions for the browser tests: each file of tests/data/layout/ names a game
(its set-up, the shuffle's seed and the seed of its choices) and the kinds of decision it
must come to; :func:`derive` plays it again through the game interface (seeded random
choices, the same every time), and :class:`Recorded` reaches its positions through the
server's API as a browser does: each move is posted as its path of choices (the steps
expanded, a hidden step committed to, then the move) by the seat that made it.

The moves are derived, not stored, so that a change to the rules or the cards moves the
positions instead of breaking them; scripts/layout_positions.py chooses the seeds (the
shortest game that comes to every decision wanted) and writes the files.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from civcards.game_api import Choice, Game, get_game

from . import net

DATA = Path(__file__).resolve().parents[1] / "data" / "layout"
#: the seats' names: long ones among them, as players choose
NAMES = ["Ana", "Bartholomäus", "Chloé", "Dagoberto"]
#: a derived game stops here at the latest
MAX_MOVES = 1500


def civ4_decisions(game: Game, state: Any) -> list[str]:
    """The kinds of decision of the seat to move in a civ4 position: its step (draft,
    settle, collect, discard, purchase, walls, defend, damage, place) and, in a purchase,
    what its choices offer (a plot to pay for, a build, an attack, trades)."""
    board = game.web_view(state, state.to_move, NAMES[: state.n], "en")
    step = str(board["step"])
    out = [step]
    if step == "purchase":
        kinds = {c.text.split()[0] for c in game.choices(state)}
        out += [f"purchase-{k}" for k in ("plot", "build", "attack", "trade") if k in kinds]
    return out


def carta_decisions(game: Game, state: Any) -> list[str]:
    """The kinds of decision in a carta position: a draft, a card to play, several effects."""
    texts = [c.text for c in game.choices(state)]
    out = []
    if any(t.startswith("keep ") for t in texts):
        out.append("draft")
    if any(t.startswith("play ") for t in texts):
        out.append("play")
    if len({t.split()[0] for t in texts if not t.startswith(("play", "end"))}) >= 3:
        out.append("effects")
    return out


DECISIONS = {"civ4": civ4_decisions, "carta": carta_decisions}


def pick(game: Game, state: Any, rng: random.Random) -> list[Choice]:
    """A random path of choices to a whole move (a step at a time); the end of a step less
    often than the rest, so that purchases and attacks come up."""
    choices = game.choices(state)
    plain = [c for c in choices if c.text != "end"]
    c = rng.choice(plain) if plain and rng.random() < 0.85 else rng.choice(choices)
    path = [c]
    while not c.final:
        c = rng.choice(game.expand(state, c).choices)
        path.append(c)
    return path


def entry(seat: int, path: list[Choice]) -> dict[str, Any]:
    kinds = [("move" if c.final else "hidden" if c.hidden else "step") for c in path]
    return {"seat": seat, "path": [[k, c.text] for k, c in zip(kinds, path, strict=True)]}


def derive(spec: dict[str, Any]) -> dict[str, Any]:
    """The game of ``spec`` (a file's set-up and seeds) played to its last wanted decision
    (to its end when "finished" is wanted): its moves, and where each kind of decision
    first comes up (``positions``: the moves before it and the seat that views it)."""
    game = get_game(spec["game"])
    players = int(spec["players"])
    state = game.new_state(players, game.check_options(players, spec["options"]), spec["seed"])
    rng = random.Random(spec["choices_seed"])
    decide = DECISIONS[spec["game"]]
    wanted = set(spec["wanted"])
    moves: list[dict[str, Any]] = []
    positions: dict[str, dict[str, Any]] = {}
    while not state.finished and len(moves) < MAX_MOVES and not wanted <= positions.keys():
        for d in decide(game, state):
            positions.setdefault(d, {"moves": len(moves), "seat": state.to_move})
        path = pick(game, state, rng)
        if "hidden" not in positions and any(c.hidden for c in path):
            # the position just after a hidden step is committed to (its cards shown)
            cut = next(i for i, c in enumerate(path) if c.hidden) + 1
            positions["hidden"] = {
                "moves": len(moves),
                "seat": state.to_move,
                "commit": entry(state.to_move, path[:cut]),
            }
        moves.append(entry(state.to_move, path))
        game.apply_choice(state, path[-1])
    if state.finished:
        positions["finished"] = {"moves": len(moves), "seat": 0}
    positions = {k: v for k, v in positions.items() if k in wanted}
    return {
        **spec,
        "positions": dict(sorted(positions.items(), key=lambda kv: int(kv[1]["moves"]))),
        "moves": moves,
    }


def load(name: str) -> dict[str, Any]:
    """The game of tests/data/layout/``name``.json, derived (:func:`derive`); every decision
    it wants is there, or one sentence says which are not."""
    spec = json.loads((DATA / f"{name}.json").read_text())
    rec = derive(spec)
    missing = sorted(set(spec["wanted"]) - rec["positions"].keys())
    assert not missing, (
        f"the game of {name}.json no longer comes to {missing}: choose its seeds again with "
        "scripts/layout_positions.py"
    )
    return rec


@dataclass
class Recorded:
    """A derived game on a server: its record and the game created for it."""

    record: dict[str, Any]
    gid: str
    tokens: list[str]
    base: str
    #: the moves made so far
    done: int = 0
    #: the path of the move being made that was committed to at a stop (a hidden step)
    committed: list[list[str]] = field(default_factory=list)

    def link(self, seat: int) -> str:
        """The address that opens the table as ``seat`` (its own token: claimed already)."""
        return f"{self.base}/game/{self.gid}#seat={seat}&token={self.tokens[seat]}"

    def stops(self) -> list[tuple[int, list[str]]]:
        """The move numbers where the record stops, each with the decisions found there."""
        at: dict[int, list[str]] = {}
        for name, p in self.record["positions"].items():
            at.setdefault(int(p["moves"]), []).append(name)
        return sorted(at.items())

    def seat_at(self, name: str) -> int:
        return int(self.record["positions"][name]["seat"])

    def _post(self, client: httpx.Client, seat: int, move: str, steps: list[str]) -> None:
        r = client.post(
            f"/api/games/{self.gid}/moves",
            headers={"X-Seat-Token": self.tokens[seat]},
            json={"move": move, "expected": self.done, "steps": steps},
        )
        assert r.status_code == 200, (self.done, move, steps, r.text)

    def play_path(self, client: httpx.Client, seat: int, path: list[list[str]]) -> None:
        """Post a path of choices: steps gathered, a hidden step committed, a move made."""
        steps: list[str] = []
        for kind, text in path:
            if kind == "step":
                steps.append(text)
            elif kind == "hidden":
                self._post(client, seat, text, steps)
                steps = []
            else:
                self._post(client, seat, text, steps)
                self.done += 1

    def advance(self, upto: int) -> None:
        """Make the recorded moves up to move number ``upto``."""
        with httpx.Client(base_url=self.base, timeout=20) as client:
            while self.done < upto:
                m = self.record["moves"][self.done]
                path = [list(x) for x in m["path"]]
                if self.committed:  # its hidden step was committed to at the stop
                    assert path[: len(self.committed)] == self.committed, (path, self.committed)
                    path = path[len(self.committed) :]
                    self.committed = []
                self.play_path(client, int(m["seat"]), path)

    def commit(self, name: str) -> None:
        """At the stop ``name`` of a hidden step: commit to it (its cards are shown next)."""
        c = self.record["positions"][name]["commit"]
        with httpx.Client(base_url=self.base, timeout=20) as client:
            self.play_path(client, int(c["seat"]), [list(x) for x in c["path"]])
        self.committed = [list(x) for x in c["path"]]


def start(base: str, record: dict[str, Any]) -> Recorded:
    """Create the record's game on the server at ``base`` (its seed; every seat a human,
    claimed and joined)."""
    players = int(record["players"])
    r = net.post(
        f"{base}/api/games",
        json={
            "game": record["game"],
            "players": players,
            "options": record["options"],
            "seed": record["seed"],
            "seats": [{"kind": "human", "name": NAMES[i]} for i in range(players)],
        },
        timeout=20,
    )
    assert r.status_code == 201, r.text
    g = r.json()
    tokens = []
    for s in g["seats"]:  # every seat claimed and taken (no "join" panel at the stops)
        r = net.post(
            f"{base}/api/games/{g['id']}/join", headers={"X-Seat-Token": s["token"]}, json={}
        )
        assert r.status_code == 200, r.text
        tokens.append(str(r.json()["token"]))
    return Recorded(record, g["id"], tokens, base)


def open_page(
    browser: Any, rec: Recorded, seat: int, moves: int, size: tuple[int, int], *, to_move: bool
) -> Any:
    """A page of ``seat`` at the position after ``moves`` moves of ``rec`` (already reached),
    in a new English context of ``size``; with ``to_move``, once the page also shows that
    ``seat`` is to move. The page's script errors are collected in ``page.errors``."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(rec.link(seat))
    page.wait_for_function(
        "([n, s]) => { const t = document.querySelector('#table');"
        " return !!t && Number(t.dataset.moves) === n && (s === null || t.dataset.toMove === String(s)); }",
        arg=[moves, seat if to_move else None],
    )
    page.errors = errors
    return page

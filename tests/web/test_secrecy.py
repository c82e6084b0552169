"""Property: no response to seat A ever holds more than A's own observation (R25).

Each view is compared, field by field, with what the engine says seat A may
know (``carta.observe``), replayed locally from the same seed and moves; a
spectator's with the public observation. The other seats' hands therefore
never reach A, whatever the moves.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from civcards import carta
from civcards.game_api import Choice, get_game
from civcards.server.i18n_web import seat_name

from . import net
from .conftest import ServerProcess, texts

CIV = get_game("carta")

H = "X-Seat-Token"


def jsonish(x: Any) -> Any:
    return json.loads(json.dumps(x))


def expected_view(
    g: carta.GameState, seat: int | None, pending: tuple[int, str] | None
) -> dict[str, Any]:
    options: list[dict[str, Any]] = []
    pend = None
    if seat is not None and g.to_move == seat:
        if pending is not None and pending[0] == seat:
            exp = CIV.expand(g, Choice(pending[1], final=False, hidden=True))
            pend = {
                "option": pending[1],
                "hidden": True,
                "reveal": jsonish(exp.reveal),
                "choices": [c.to_json() for c in exp.choices],
            }
        else:
            options = [c.to_json() for c in CIV.choices(g)]
    return {
        "seat": seat,
        "move_number": len(g.history),
        "observation": jsonish(carta.observe(g, seat).to_dict()),
        "options": options,
        "pending": pend,
    }


def check_views(
    server: ServerProcess,
    gid: str,
    tokens: list[str],
    g: carta.GameState,
    pending: tuple[int, str] | None,
) -> None:
    for seat in [*range(len(tokens)), None]:
        headers = {H: tokens[seat]} if seat is not None else {}
        r = net.get(f"{server.base}/api/games/{gid}/state", headers=headers, timeout=10)
        assert r.status_code == 200
        view = r.json()
        game = view.pop("game")
        # the public facts are metadata only: no cards at all
        assert set(game) >= {"id", "seats", "status", "to_move", "move_number"}
        assert "hand" not in json.dumps(game)
        exp = expected_view(g, seat, pending)
        assert {k: view[k] for k in exp} == exp
        # the words added for the interface say nothing more than the view itself
        obs = exp["observation"]
        assert [(e["seat"], e["text"]) for e in view["log"]] == list(
            zip(obs["movers"], obs["history"], strict=True)
        )
        shown = texts(exp["options"])
        if exp["pending"]:
            shown += [exp["pending"]["option"], *texts(exp["pending"]["choices"])]
        assert set(view["words"]) == set(shown)
        # the seats' names in the view's language (a seat nobody named, a bot's default name)
        assert view["names"] == [
            seat_name(i, s["kind"], s["bot"], s["name"], view["lang"])
            for i, s in enumerate(game["seats"])
        ]
        assert (view["result"] is None) == (not g.finished)
        # the clocks (everyone's time, public) and the hints used (who and when, never what)
        for h in view.get("hints_used") or []:
            assert set(h) == {"seat", "index"}, h
        extra = set(view) - set(exp) - {"log", "words", "names", "lang", "result", "board"}
        assert not extra - {"clock", "hints_used"}, extra


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    deal=st.sampled_from(["basic", "draft"]),
    picks=st.lists(st.integers(0, 10**6), min_size=5, max_size=40),
)
def test_no_view_holds_another_seats_hand(
    server: ServerProcess, seed: int, players: int, deal: str, picks: list[int]
) -> None:
    created = server.create(
        players=players,
        options={"deal": deal},
        seats=[{"kind": "human"}] * players,
        seed=seed,
    )
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    g = carta.new_game(players, deal=deal, seed=seed)
    pending: tuple[int, str] | None = None
    check_views(server, gid, tokens, g, pending)
    for pick in picks:
        if g.finished:
            break
        seat = g.to_move
        assert seat is not None
        if pending is not None:
            full = CIV.expand(g, Choice(pending[1], final=False, hidden=True)).choices
            choice = full[pick % len(full)]
        else:
            opts = CIV.choices(g)
            choice = opts[pick % len(opts)]
        mv = choice.text
        r = net.post(
            f"{server.base}/api/games/{gid}/moves",
            json={"move": mv, "expected": len(g.history)},
            headers={H: tokens[seat]},
            timeout=10,
        )
        assert r.status_code == 200, r.text
        if choice.hidden:
            pending = (seat, mv)
            assert r.json()["pending"] == expected_view(g, seat, pending)["pending"]
        else:
            g.apply(mv)
            pending = None
            assert r.json()["pending"] is None
        check_views(server, gid, tokens, g, pending)

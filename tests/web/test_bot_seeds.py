"""Bots draw their randomness from a secret kept with the game, shown once it is over: while
a game is played no observer can foresee a bot's moves (and so test guesses about its hand);
a finished game's bot moves are made again from its record and secret."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from civcards.bots import bot_move, make_bot
from civcards.game_api import get_game
from civcards.server.core import bot_seed

from . import net
from .conftest import ServerProcess


def finished(server: ServerProcess, gid: str) -> dict[str, Any]:
    for _ in range(600):
        info: dict[str, Any] = net.get(f"{server.base}/api/games/{gid}").json()
        if info["status"] == "finished":
            return info
        time.sleep(0.05)
    raise AssertionError("the bots' game did not end")


def public_id_guess(gid: str, seat: int, n: int) -> int:
    """What an observer knows: the game's id (the bots were once seeded from it)."""
    h = hashlib.sha256(f"{gid}:{seat}:{n}".encode()).digest()
    return int.from_bytes(h[:8], "big")


def test_bot_moves_come_from_a_secret_shown_once_the_game_is_over(server: ServerProcess) -> None:
    # while a game is played, its secret is nowhere
    g = server.create(
        players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], private=False
    )
    info = net.get(f"{server.base}/api/games/{g['id']}").json()
    assert info["status"] == "playing" and info["bot_secret"] is None
    listed = net.get(f"{server.base}/api/games").text
    assert '"bot_secret":null' in listed.replace(" ", "") or "bot_secret" not in listed
    # a game of two random bots plays itself to the end
    g = server.create(players=2, seats=[{"kind": "bot", "bot": "random"}] * 2)
    gid = g["id"]
    info = finished(server, gid)
    secret = info["bot_secret"]
    assert isinstance(secret, str) and len(secret) >= 32
    record = json.loads(net.get(f"{server.base}/api/games/{gid}/record").text)
    moves = record["moves"]
    assert len(moves) > 20
    game = get_game(record.get("game", "carta"))
    state = game.from_record({**record, "moves": []})
    guessed = {}  # the old way: a bot per seat, seeded from the public id at its first move
    replayed = guesses = 0
    for n, move in enumerate(moves):
        seat = state.to_move
        again = bot_move(make_bot(game, "random", bot_seed(secret, seat, n)), game, state.copy())
        replayed += again == move
        if seat not in guessed:
            guessed[seat] = make_bot(game, "random", public_id_guess(gid, seat, n))
        guesses += bot_move(guessed[seat], game, state.copy()) == move
        game.play(state, move)
    assert replayed == len(moves)  # reproducible from the record and the secret
    assert guesses < 0.8 * len(moves), (guesses, len(moves))  # not from the public id

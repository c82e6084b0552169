"""Seats: whose token a seat's is, claiming a seat with its invitation (or a free seat of
an open table, :mod:`.clocks`), a new token (revoke), joining with a name. Each change is
stored, then the seat's token is indexed and the hooks (accounts) hear of it.

It imports :mod:`.cache`, :mod:`.broadcast`, :mod:`.names` and :mod:`.live`
(docs/architecture.md)."""

from __future__ import annotations

import hmac
import logging

from .broadcast import Fanout
from .cache import GameCache
from .db import hash_token
from .live import STALE, ApiError, Live, SeatHooks, new_token, tell
from .names import clean_name, seat_name

log = logging.getLogger("civcards.server")


def invitation(live: Live, token_hash: str) -> int | None:
    """The seat whose unused invitation ``token_hash`` is, if any."""
    for i, s in enumerate(live.seats):
        if s.invite_hash is not None and hmac.compare_digest(s.invite_hash, token_hash):
            return i
    return None


class Seats:
    def __init__(self, cache: GameCache, fanout: Fanout, hooks: list[SeatHooks]) -> None:
        self.cache = cache
        self.fanout = fanout
        self.hooks = hooks

    def seat_of(self, live: Live, token: str | None) -> int:
        """The seat whose credential ``token`` is; 403 otherwise (an invitation is not a
        seat's credential: it is claimed first, :meth:`claim`)."""
        if not token:
            raise ApiError(401, "no_token", "this needs your seat's token (header X-Seat-Token)")
        h = hash_token(token)
        for attempt in range(2):
            for i, s in enumerate(live.seats):
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                    return i
            # another process may have given the seat out (a rematch) since this one loaded it
            if attempt == 0 and not (self.fanout.shared and self.cache.sync(live)):
                break
        if invitation(live, h) is not None:
            raise ApiError(
                403,
                "unclaimed",
                "this is an invitation: take the seat with it first (POST "
                f"/api/games/{live.id}/join), which gives you the seat's own token",
            )
        raise ApiError(403, "bad_token", "this token is not a seat of this game")

    def seat_or_spectator(self, live: Live, token: str | None) -> int | None:
        return None if not token else self.seat_of(live, token)

    def give(
        self, live: Live, seat: int, *, name: str, joined: bool, unclaimed: bool = False
    ) -> str | None:
        """Under the game's lock: ``seat`` gets a fresh token of its own in place of its
        invitation (with ``unclaimed``: only while it has no token), named ``name``;
        the token (shown once), or None when another process was first (nothing changed
        here but a refresh). The hooks hear of the new token."""
        info = live.seats[seat]
        tok = new_token()
        new_hash = hash_token(tok)
        if not self.cache.records.claim_seat(
            live.id,
            seat,
            invite_hash=info.invite_hash,
            token_hash=new_hash,
            name=name,
            joined=joined,
            unclaimed=unclaimed,
        ):
            self.cache.sync(live)
            return None
        info.invite_hash = None
        info.name = name
        info.joined = joined
        self.cache.set_token(live, seat, new_hash)
        tell(self.hooks, "seat_token", live, seat, tok)
        return tok

    async def claim(
        self, live: Live, invite: str | None, *, join: bool = False, name: str | None = None
    ) -> tuple[int, str]:
        """Claim the seat of the invitation ``invite``: the seat gets a fresh token of its
        own (returned, shown once) and the invitation is dead. With ``join``, take the seat
        at once, named ``name`` (:meth:`join`'s rules), in the same transaction."""
        name = clean_name(name)
        if not invite:
            raise ApiError(401, "no_token", "this needs the invitation's token (X-Seat-Token)")
        h = hash_token(invite)
        used = ApiError(
            403,
            "bad_token",
            "this invitation is not (or no longer) one of this game's: an invitation takes "
            "its seat once; ask whoever holds the seat, or the game's creator",
        )
        async with live.lock:
            seat = invitation(live, h)
            if seat is None and self.fanout.shared and self.cache.sync(live):
                seat = invitation(live, h)
            if seat is None:
                raise used
            for hook in self.hooks:  # may refuse (a rated game's seat needs an account)
                hook.claiming(live, seat)
            info = live.seats[seat]
            new_name = seat_name(live, seat, name) if join else info.name
            tok = self.give(live, seat, name=new_name, joined=info.joined or join)
            if tok is None:  # another process was first
                raise used
        log.info("game %s: seat %d claimed", live.id, seat)
        await self.fanout.changed(live)
        return seat, tok

    async def revoke(self, live: Live, seat: int) -> str:
        """A new token for ``seat`` (returned, shown once); the old one is dead at once, and
        the sockets opened with it are closed."""
        async with live.lock:
            old = live.seats[seat].token_hash
            tok = new_token()
            new_hash = hash_token(tok)
            if not self.cache.records.replace_token(live.id, seat, old, new_hash):
                self.cache.sync(live)
                raise ApiError(409, "stale", STALE)
            self.cache.set_token(live, seat, new_hash)
            tell(self.hooks, "seat_token", live, seat, tok)
        log.info("game %s: seat %d has a new token", live.id, seat)
        await self.fanout.changed(live)
        return tok

    async def join(self, live: Live, seat: int, name: str | None) -> None:
        """Take the seat (joined) and give its name: unique within the game, and fixed once
        the game has started."""
        name = clean_name(name)
        async with live.lock:
            info = live.seats[seat]
            new_name = seat_name(live, seat, name)
            self.cache.records.join_seat(live.id, seat, new_name)
            info.name = new_name
            info.joined = True
        await self.fanout.changed(live)

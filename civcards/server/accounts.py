"""Accounts, optional: anonymous play stays the default (docs/accounts.md).

A player may register a name and a password. Then their seats follow them to any browser,
their games form a history with results, and rated games between accounts give them a
rating per game (openskill's Plackett-Luce model, as ``civcards arena`` uses).

Security, in short:

- the password is stored as an Argon2id hash (argon2-cffi, RFC 9106's low-memory
  profile), never as itself;
- the session is a random id in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
  https); the server keeps only its SHA-256. Logging in always starts a new session (the
  one the browser had, if any, is revoked: no session fixation); logging out revokes it;
- every change made with the cookie needs the session's CSRF token in the
  ``X-CSRF-Token`` header (a synchronizer token derived from the session id, given by
  ``GET /api/account/me``, which only this site's pages can read); a change sent from a
  page of another site (its ``Origin``) is refused, and for the rest of the API the cookie
  is then not used at all;
- logging in is rate-limited per address and per account (:class:`.limits.RateLimiter`);
- seat tokens stay what they were, headers and never cookies. A seat taken while logged in
  is linked to the account, and its token is kept encrypted (AES-GCM) with the account's
  key: Argon2id of the password with a salt of its own, never stored; each session holds
  the key encrypted with a key derived from its session id, which only the browser has.
  Whoever reads the database learns no seat token.

The tables are created by the migration ``0004_accounts``. The table's core knows nothing
of accounts: :class:`Accounts` observes it (:class:`.core.SeatHooks`).
"""

from __future__ import annotations

import hmac
import logging
import math
import os
import secrets
from datetime import timedelta
from functools import cached_property
from typing import Any, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import delete, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..game_api import GameError, Result, get_game
from .account_rows import (
    AccountRow,
    AccountSeatRow,
    RatedGameRow,
    RatingChangeRow,
    RatingRow,
    SessionRow,
)
from .account_session import (
    KDF,
    SESSION_DAYS,
    SESSION_ID,
    LoginLimits,
    LoginRateLimited,
    Who,
    as_aware,
    derive_key,
    ordinal,
    seal,
    seal_seat_token,
    seat_aad,
    session_aead,
    unseal,
)
from .core import ApiError, Live, SeatHooks, SeatInfo, TableServer, name_key
from .db import GameRow, SeatRow, hash_token, utcnow
from .limits import SharedRateLimiter
from .outcomes import live_outcome, outcome, people_result, resigned_seats

log = logging.getLogger("civcards.server")

# -- the accounts ---------------------------------------------------------------------------


def _link_row(
    live: Live, seat: int, who: Who, sealed: str, result: str | None = None
) -> AccountSeatRow:
    """A seat of ``live`` linked to the account of ``who``, its token ``sealed``."""
    return AccountSeatRow(
        game_id=live.id,
        seat=seat,
        account_id=who.account_id,
        token_enc=sealed,
        result=result,
        linked_at=utcnow(),
    )


class Accounts(SeatHooks):
    """Accounts over the table's database; observes its seats and games (linking seats,
    results, ratings)."""

    def __init__(
        self, server: TableServer, limits: LoginLimits | None = None, redis: Any = None
    ) -> None:
        self.server = server
        self.engine = server.engine
        self.hasher = PasswordHasher.from_parameters(KDF)
        limits = LoginLimits.from_env() if limits is None else limits
        # counted in Redis when processes share it (``serve --redis``): N processes do not
        # give N times the attempts
        self.by_account = SharedRateLimiter(
            limits.account_rate, limits.account_burst, redis, "civcards:login:account:"
        )
        self.by_address = SharedRateLimiter(
            limits.address_rate, limits.address_burst, redis, "civcards:login:address:"
        )
        #: whether a game is rated (never changes once it is created)
        self._rated: dict[str, bool] = {}

    @cached_property
    def _dummy(self) -> str:
        """A hash to verify against when the name is unknown (the same time either way):
        made by the first login, whatever its name, not at the server's start (0.2 CPU s)."""
        return self.hasher.hash(secrets.token_hex(16))

    # -- sessions -----------------------------------------------------------

    def who(self, sid: str | None = None, s: Session | None = None) -> Who | None:
        """The account of the session ``sid`` (default: the request's), if it is valid."""
        if sid is None:
            holder = SESSION_ID.get()
            sid = holder[0] if holder else None
        if not sid or len(sid) > 128:
            return None
        q = (
            select(SessionRow, AccountRow)
            .join(AccountRow, AccountRow.id == SessionRow.account_id)
            .where(SessionRow.id_hash == hash_token(sid))
        )
        if s is None:
            with Session(self.engine) as own:
                row = own.execute(q).first()
        else:
            row = s.execute(q).first()
        if row is None:
            return None
        sess, acc = row
        if as_aware(sess.expires_at) <= utcnow():
            return None
        key = unseal(session_aead(sid), sess.wrapped_key, sess.id_hash.encode())
        if key is None:
            return None
        return Who(acc.id, acc.name, as_aware(acc.created_at), sid, key)

    def new_session(self, account_id: str, key: bytes, old_sid: str | None) -> str:
        """A fresh session (the old one, if any, is revoked): its id, for the cookie."""
        sid = secrets.token_urlsafe(32)
        id_hash = hash_token(sid)
        now = utcnow()
        with Session(self.engine) as s, s.begin():
            if old_sid:
                s.execute(delete(SessionRow).where(SessionRow.id_hash == hash_token(old_sid)))
            s.execute(delete(SessionRow).where(SessionRow.expires_at < now))
            s.add(
                SessionRow(
                    id_hash=id_hash,
                    account_id=account_id,
                    wrapped_key=seal(session_aead(sid), key, id_hash.encode()),
                    created_at=now,
                    expires_at=now + timedelta(days=SESSION_DAYS),
                )
            )
        return sid

    def revoke_session(self, sid: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id_hash == hash_token(sid)))

    async def limit(self, address: str, account: str | None) -> None:
        """429 when an address or an account tried to log in too often."""
        waits = [await self.by_address.take(address)]
        if account is not None:
            waits.append(await self.by_account.take(account))
        wait = max(waits)
        if wait > 0:
            raise LoginRateLimited(math.ceil(wait))

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one of the hash ``stored`` (None: an unknown name,
        checked against a dummy hash all the same)."""
        dummy = self._dummy  # made (once) whether the name is known or not
        try:
            return self.hasher.verify(stored or dummy, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    # -- accounts -----------------------------------------------------------

    def find(self, key: str) -> AccountRow | None:
        with Session(self.engine) as s:
            return s.scalars(select(AccountRow).where(AccountRow.name_key == key)).first()

    def register(self, name: str, password: str) -> tuple[AccountRow, bytes]:
        """A new account (slow: Argon2 twice): the row and the account's key."""
        salt = os.urandom(16)
        pw_hash = self.hasher.hash(password)
        key = derive_key(password, salt)
        row = AccountRow(
            id=secrets.token_urlsafe(12),
            name=name,
            name_key=name_key(name),
            password_hash=pw_hash,
            key_salt=salt.hex(),
            created_at=utcnow(),
        )
        try:
            with Session(self.engine, expire_on_commit=False) as s, s.begin():
                s.add(row)
        except IntegrityError:
            raise ApiError(409, "account_taken", "this name is taken: choose another") from None
        return row, key

    def login(self, key: str, password: str) -> tuple[AccountRow, bytes] | None:
        """The account and its key when ``password`` is right (slow: Argon2 twice)."""
        row = self.find(key)
        if not self.verify(row.password_hash if row else None, password) or row is None:
            return None
        if self.hasher.check_needs_rehash(row.password_hash):
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(AccountRow)
                    .where(AccountRow.id == row.id)
                    .values(password_hash=self.hasher.hash(password))
                )
        return row, derive_key(password, bytes.fromhex(row.key_salt))

    def change_password(self, who: Who, current: str, new: str) -> bool:
        """Change the account's password (slow: Argon2 four times); False when ``current``
        is wrong. The account's key changes with it: the seats' kept tokens are sealed
        anew, the session ``who`` keeps the new key, the account's other sessions end."""
        with Session(self.engine) as s:
            row = s.get(AccountRow, who.account_id)
        if row is None or not self.verify(row.password_hash, current):
            return False
        old_key = derive_key(current, bytes.fromhex(row.key_salt))
        salt = os.urandom(16)
        new_key = derive_key(new, salt)
        pw_hash = self.hasher.hash(new)
        keep = hash_token(who.sid)
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(AccountRow)
                .where(AccountRow.id == row.id, AccountRow.password_hash == row.password_hash)
                .values(password_hash=pw_hash, key_salt=salt.hex())
            )
            if cast("CursorResult[Any]", res).rowcount != 1:  # changed meanwhile
                return False
            for link in s.scalars(
                select(AccountSeatRow).where(
                    AccountSeatRow.account_id == row.id, AccountSeatRow.token_enc.is_not(None)
                )
            ):
                aad = seat_aad(link.game_id, link.seat)
                raw = unseal(AESGCM(old_key), link.token_enc or "", aad)
                link.token_enc = None if raw is None else seal(AESGCM(new_key), raw, aad)
            s.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == row.id, SessionRow.id_hash != keep
                )
            )
            s.execute(
                update(SessionRow)
                .where(SessionRow.id_hash == keep)
                .values(wrapped_key=seal(session_aead(who.sid), new_key, keep.encode()))
            )
        return True

    async def delete(self, who: Who) -> None:
        """Remove the account's personal data (its name, password hash, sessions, links,
        ratings); its seats' names are emptied in every game, which stays, anonymised."""
        with Session(self.engine) as s, s.begin():
            links = s.execute(
                select(AccountSeatRow.game_id, AccountSeatRow.seat).where(
                    AccountSeatRow.account_id == who.account_id
                )
            ).all()
            for gid, seat in links:
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == gid, SeatRow.seat == seat)
                    .values(name="")
                )
            for table in (SessionRow, AccountSeatRow, RatingRow, RatingChangeRow):
                s.execute(delete(table).where(table.account_id == who.account_id))
            s.execute(delete(AccountRow).where(AccountRow.id == who.account_id))
        for gid, seat in links:  # the games held in memory: the same
            live = self.server.games.get(gid)
            if live is None:
                continue
            async with live.lock:
                live.seats[seat].name = ""
            await self.server.changed(live)
        log.info("an account was deleted (%d seats anonymised)", len(links))

    # -- the hooks (core.SeatHooks) ----------------------------------------------

    def rated(self, game_id: str) -> bool:
        known = self._rated.get(game_id)
        if known is None:
            with Session(self.engine) as s:
                known = s.get(RatedGameRow, game_id) is not None
            if len(self._rated) > 50_000:
                self._rated.clear()
            self._rated[game_id] = known
        return known

    def creating(self, s: Session, game_id: str, seats: list[SeatInfo], rated: bool) -> None:
        if not rated:
            return
        if any(x.kind != "human" for x in seats):
            raise ApiError(
                422,
                "rated_bots",
                "a rated game has no bots: every seat is a player with an account",
            )
        if self.who(s=s) is None:
            raise ApiError(
                401, "login_needed", "log in to create a rated game: its players are accounts"
            )
        s.add(RatedGameRow(game_id=game_id, applied_at=None))
        self._rated[game_id] = True

    def claiming(self, live: Live, seat: int) -> None:
        if not self.rated(live.id):
            return
        who = self.who()
        if who is None:
            raise ApiError(
                403,
                "account_needed",
                "this is a rated game: log in (or register) to take a seat in it",
            )
        with Session(self.engine) as s:
            held = s.scalars(
                select(AccountSeatRow.seat).where(
                    AccountSeatRow.game_id == live.id,
                    AccountSeatRow.account_id == who.account_id,
                )
            ).first()
        if held is not None:
            raise ApiError(
                409, "already_seated", "your account already holds a seat in this rated game"
            )

    def seat_token(self, live: Live, seat: int, token: str) -> None:
        who = self.who()
        with Session(self.engine) as s, s.begin():
            link = s.get(AccountSeatRow, (live.id, seat))
            if who is None:
                if link is not None:  # taken anonymously: the stored token is dead
                    link.token_enc = None
                return
            sealed = seal_seat_token(who.key, live.id, seat, token)
            if link is None:
                s.add(_link_row(live, seat, who, sealed))
            elif link.account_id == who.account_id:
                link.token_enc = sealed
            else:
                link.token_enc = None
                return
            # a seat with no name of its own takes the account's (before the game starts)
            info = live.seats[seat]
            if info.name or live.moves or live.pending is not None:
                return
            key = name_key(who.name)
            if any(name_key(o.name) == key for i, o in enumerate(live.seats) if i != seat):
                return
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == live.id, SeatRow.seat == seat)
                .values(name=who.name)
            )
        info.name = who.name

    def finished(self, live: Live) -> None:
        result = live.game.result(live.state)
        if result is None:
            return
        resigned = resigned_seats(live)
        result = people_result(result, resigned)  # a resignation is a loss (issue 38)
        with Session(self.engine) as s, s.begin():
            for link in s.scalars(select(AccountSeatRow).where(AccountSeatRow.game_id == live.id)):
                link.result = outcome(result, link.seat)
        if self.rated(live.id):
            self.apply_ratings(live.id, live.game.name, result, resigned)

    # -- ratings ------------------------------------------------------------

    def apply_ratings(
        self, game_id: str, game: str, result: Result, resigned: frozenset[int] = frozenset()
    ) -> bool:
        """Count a finished rated game in its accounts' ratings, once: False if it was
        counted already (by this process or another, before a restart or not). ``result``
        is the people's (:func:`people_result`): the seats of ``resigned`` rank last."""
        from openskill.models import PlackettLuce

        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(RatedGameRow)
                .where(RatedGameRow.game_id == game_id, RatedGameRow.applied_at.is_(None))
                .values(applied_at=utcnow())
            )
            if cast("CursorResult[Any]", res).rowcount != 1:
                return False
            seats: dict[str, int] = {}
            for link in s.scalars(
                select(AccountSeatRow)
                .where(AccountSeatRow.game_id == game_id)
                .order_by(AccountSeatRow.seat)
            ):
                seats.setdefault(link.account_id, link.seat)
            if len(seats) < 2:
                return True
            model = PlackettLuce()
            rows: dict[str, RatingRow] = {}
            for acc in seats:
                row = s.scalars(
                    select(RatingRow)
                    .where(RatingRow.account_id == acc, RatingRow.game == game)
                    .with_for_update()
                ).first()
                if row is None:
                    fresh = model.rating()
                    row = RatingRow(
                        account_id=acc,
                        game=game,
                        mu=float(fresh.mu),
                        sigma=float(fresh.sigma),
                        games=0,
                        wins=0.0,
                    )
                    s.add(row)
                rows[acc] = row
            accs = list(seats)
            teams = [[model.rating(mu=rows[a].mu, sigma=rows[a].sigma)] for a in accs]
            ranks: list[float] = [
                1.0 if seats[a] in result.winners else 3.0 if seats[a] in resigned else 2.0
                for a in accs
            ]
            new = model.rate(teams, ranks=ranks)
            for a, team in zip(accs, new, strict=True):
                row = rows[a]
                s.add(
                    RatingChangeRow(
                        game_id=game_id,
                        account_id=a,
                        mu_before=row.mu,
                        sigma_before=row.sigma,
                        mu_after=float(team[0].mu),
                        sigma_after=float(team[0].sigma),
                    )
                )
                row.mu = float(team[0].mu)
                row.sigma = float(team[0].sigma)
                row.games += 1
                if seats[a] in result.winners:
                    row.wins += 1.0 / len(result.winners) if result.shared else 1.0
                row.updated_at = utcnow()
        log.info("game %s: ratings updated (%d accounts)", game_id, len(seats))
        return True

    def catch_up(self) -> int:
        """At start: count the finished rated games not counted yet (the server stopped
        in between), and fill in the results of linked seats. Returns the games rated."""
        with Session(self.engine) as s:
            due = list(
                s.scalars(
                    select(RatedGameRow.game_id)
                    .join(GameRow, GameRow.id == RatedGameRow.game_id)
                    .where(RatedGameRow.applied_at.is_(None), GameRow.status == "finished")
                )
            )
            open_results = list(
                s.scalars(
                    select(AccountSeatRow.game_id)
                    .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                    .where(AccountSeatRow.result.is_(None), GameRow.status == "finished")
                    .distinct()
                )
            )
        done = 0
        for gid in dict.fromkeys(open_results + due):
            try:
                live = self.server.get(gid)
                result = live.game.result(live.state)
                if result is None:
                    continue
                resigned = resigned_seats(live)
                result = people_result(result, resigned)
                with Session(self.engine) as s, s.begin():
                    for link in s.scalars(
                        select(AccountSeatRow).where(AccountSeatRow.game_id == gid)
                    ):
                        link.result = outcome(result, link.seat)
                if gid in due and self.apply_ratings(gid, live.game.name, result, resigned):
                    done += 1
            except Exception:
                log.exception("game %s: its ratings could not be caught up", gid)
        return done

    # -- what the API shows -------------------------------------------------

    def history(self, who: Who, limit: int, offset: int) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.execute(
                select(AccountSeatRow, GameRow, RatedGameRow.game_id, RatingChangeRow)
                .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                .outerjoin(RatedGameRow, RatedGameRow.game_id == AccountSeatRow.game_id)
                .outerjoin(
                    RatingChangeRow,
                    (RatingChangeRow.game_id == AccountSeatRow.game_id)
                    & (RatingChangeRow.account_id == AccountSeatRow.account_id),
                )
                .where(AccountSeatRow.account_id == who.account_id)
                .order_by(GameRow.created_at.desc(), AccountSeatRow.seat)
                .limit(limit)
                .offset(offset)
            ).all()
            ids = list({link.game_id for link, *_ in rows})
            names: dict[str, dict[int, str]] = {}
            for gid, seat, name in s.execute(
                select(SeatRow.game_id, SeatRow.seat, SeatRow.name).where(SeatRow.game_id.in_(ids))
            ):
                names.setdefault(gid, {})[seat] = name
        out = []
        for link, game, rated_id, change in rows:
            try:
                title = get_game(game.kind).title
            except GameError:
                title = game.kind
            result = link.result
            if result is None and game.status == "finished":
                try:
                    result = live_outcome(self.server.get(game.id), link.seat)
                except Exception:  # a game this server cannot host any more: no result
                    log.warning("game %s: its result could not be read", game.id)
                    result = None
            seat_names = names.get(game.id, {})
            out.append(
                {
                    "id": game.id,
                    "game": game.kind,
                    "title": title,
                    "seat": link.seat,
                    "names": [seat_names.get(i, "") for i in range(game.players)],
                    "status": "finished" if game.status == "finished" else "playing",
                    "created_at": as_aware(game.created_at).isoformat(),
                    "rated": rated_id is not None,
                    "result": result,
                    "rating_before": (
                        None if change is None else ordinal(change.mu_before, change.sigma_before)
                    ),
                    "rating_after": (
                        None if change is None else ordinal(change.mu_after, change.sigma_after)
                    ),
                }
            )
        return out

    def ratings(self, account_id: str) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = list(
                s.scalars(
                    select(RatingRow)
                    .where(RatingRow.account_id == account_id)
                    .order_by(RatingRow.game)
                )
            )
        out = []
        for r in rows:
            try:
                title = get_game(r.game).title
            except GameError:
                title = r.game
            out.append(
                {
                    "game": r.game,
                    "title": title,
                    "mu": round(r.mu, 3),
                    "sigma": round(r.sigma, 3),
                    "ordinal": ordinal(r.mu, r.sigma),
                    "games": r.games,
                    "wins": r.wins,
                }
            )
        return out

    def link(self, who: Who, live: Live, seat: int, token: str) -> None:
        """Link a seat this browser holds (its token, checked) to the account: a game
        played before logging in joins the account's games."""
        with Session(self.engine) as s, s.begin():
            link = s.get(AccountSeatRow, (live.id, seat))
            if link is not None and link.account_id != who.account_id:
                raise ApiError(409, "seat_linked", "this seat belongs to another account")
            if link is None and self.rated(live.id):
                raise ApiError(
                    409,
                    "rated_seat",
                    "a rated game's seats belong to the accounts that took them",
                )
            sealed = seal_seat_token(who.key, live.id, seat, token)
            if link is None:
                s.add(_link_row(live, seat, who, sealed, live_outcome(live, seat)))
            else:
                link.token_enc = sealed

    async def seat_of(self, who: Who, game_id: str) -> dict[str, Any]:
        """The account's seat in a game and its token: the one kept (when it still works),
        else a new one (the seat's old token stops working)."""
        with Session(self.engine) as s:
            link = s.scalars(
                select(AccountSeatRow)
                .where(
                    AccountSeatRow.game_id == game_id,
                    AccountSeatRow.account_id == who.account_id,
                )
                .order_by(AccountSeatRow.seat)
            ).first()
        if link is None:
            raise ApiError(404, "not_your_game", "this game is not one of your account's")
        live = self.server.get(game_id)
        # a seat a bot took over (resigned, timed out, voted out) keeps its token: with it
        # the person views the game as a spectator of the seat (never the bot's hand while
        # it is played) and makes no move (core.TableServer.view and move)
        info = live.seats[link.seat]
        if link.token_enc is not None:
            raw = unseal(AESGCM(who.key), link.token_enc, seat_aad(game_id, link.seat))
            if raw is not None and info.token_hash is not None:
                token = raw.decode()
                if hmac.compare_digest(hash_token(token), info.token_hash):
                    return {"seat": link.seat, "token": token}
        # not known any more (revoked elsewhere, or the game moved on): a new one
        return {"seat": link.seat, "token": await self.server.revoke(live, link.seat)}

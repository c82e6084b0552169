"""Tables: creating a game (its set-up checked by the game, its seats' bots by
:func:`.botlevel.check_bot`, its bots within the pool's budget), its rematch, and the
lobby's list of public games.

It imports :mod:`.cache`, :mod:`.broadcast`, :mod:`.botrunner`, :mod:`.botlevel`,
:mod:`.botpool`, :mod:`.names`, :mod:`.store`, :mod:`.live` and the game API
(docs/architecture.md)."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from ..game_api import Game, GameError, OptionsError, get_game
from .botlevel import check_bot
from .botpool import BotBusy, BotPool, is_strong
from .botrunner import BotRunner
from .broadcast import Fanout
from .cache import GameCache
from .db import hash_token, utcnow
from .kinds import default_bot
from .live import STALE, ApiError, Live, SeatHooks, SeatInfo, new_token, tell
from .names import clean_name, name_key
from .store import Store

log = logging.getLogger("civcards.server")


class Tables:
    def __init__(
        self,
        cache: GameCache,
        fanout: Fanout,
        runner: BotRunner,
        pool: BotPool,
        hooks: list[SeatHooks],
        on_create: list[Callable[[Live], None]],
    ) -> None:
        self.cache = cache
        self.fanout = fanout
        self.runner = runner
        self.pool = pool
        self.hooks = hooks
        self.on_create = on_create
        #: whether a game may be created with a seed of its own (it would reveal the deck)
        self.allow_seed = False

    def list_games(
        self,
        limit: int = 50,
        offset: int = 0,
        *,
        game: str | None = None,
        status: str | None = None,
    ) -> list[dict[str, Any]]:
        """The public games, newest first: ``limit`` of them from ``offset``, of the game
        ``game`` only, with the ``status`` ``open`` (being played, a human seat free),
        ``playing`` or ``finished``. Private games are never listed."""
        out = []
        for gid in self.cache.records.public_ids(limit, offset, game, status):
            try:
                out.append(self.cache.get(gid).public())
            except ApiError:
                continue
        return out

    def create(
        self,
        *,
        kind: str,
        players: int,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        rematch_of: str | None = None,
        clock: dict[str, Any] | None = None,
        issue_tokens: bool = True,
        private: bool = True,
        rated: bool = False,
        creator: str | None = None,
        hints: bool = False,
    ) -> tuple[Live, dict[int, str]]:
        """Create a game of the registered game ``kind``; returns it and the tokens of its
        human seats (shown once). The set-up is checked by the game alone
        (:meth:`~civcards.game_api.Game.check_options`)."""
        try:
            game = get_game(kind)
        except GameError as e:
            raise ApiError(422, "bad_game", str(e)) from None
        if seed is not None and not self.allow_seed:
            raise ApiError(
                422,
                "seed_not_allowed",
                "this server does not accept a seed (it would reveal the deck)",
            )
        if hints and rated:
            raise ApiError(422, "hints_rated", "a rated game cannot allow hints")
        try:
            opts = game.check_options(players, options)
        except OptionsError as e:
            raise ApiError(422, "bad_setup", str(e), e.words) from None
        if len(seats) != players:
            raise ApiError(
                422, "bad_seats", f"a {players}-player game needs {players} seats, not {len(seats)}"
            )
        infos: list[SeatInfo] = []
        named: dict[str, int] = {}
        for i, spec in enumerate(seats):
            kind_s = spec.get("kind")
            if kind_s == "bot":
                level = check_bot(
                    game, spec.get("bot") or default_bot(game), f"seat {i}", self.pool.settings
                )
                name = clean_name(spec.get("name")) or f"{level} bot {i + 1}"
                infos.append(SeatInfo("bot", level, name, None, True))
            elif kind_s == "human":
                infos.append(SeatInfo("human", None, clean_name(spec.get("name")), None, False))
            else:
                raise ApiError(422, "bad_seats", f"seat {i}: a seat is 'human' or 'bot'")
            key = name_key(infos[-1].name)
            if key and key in named:
                raise ApiError(
                    422,
                    "name_taken",
                    f"seats {named[key]} and {i} are both named {infos[-1].name!r}: "
                    "names are unique within a game",
                )
            named[key] = i
        strong = self.bot_budget(game, infos, creator)
        try:
            state = game.new_state(players, opts, seed)
        except OptionsError as e:  # pragma: no cover - check_options refuses first
            raise ApiError(422, "bad_setup", str(e)) from None
        tokens: dict[int, str] = {}
        if issue_tokens:  # an invitation per human seat: claiming it gives the seat's token
            for i, info in enumerate(infos):
                if info.kind == "human":
                    tok = new_token()
                    tokens[i] = tok
                    info.invite_hash = hash_token(tok)
        gid = secrets.token_urlsafe(9)
        bot_secret = secrets.token_hex(16)
        setup = game.setup_record(state)
        stored = {**setup, "_options": opts}
        if clock is not None:
            stored["_clock"] = clock
        if hints:
            stored["_hints"] = True
        created = utcnow()
        row = Store.game_row(
            gid=gid,
            kind=game.name,
            players=players,
            stored=stored,
            finished=bool(state.finished),
            created=created,
            rematch_of=rematch_of,
            bot_secret=bot_secret,
            private=private,
        )
        self.cache.records.insert_game(
            row,
            infos,
            self.hooks,
            rated,
            lambda: ApiError(422, "rated_unavailable", "this table does not rate games"),
        )
        live = Live(
            id=gid,
            game=game,
            state=state,
            options=opts,
            seats=infos,
            moves=[],
            pending=None,
            created_at=created,
            rematch_of=rematch_of,
            bot_secret=bot_secret,
            private=private,
            clock=clock,
            hints=hints,
        )
        for made in self.on_create:
            made(live)
        self.cache.games[gid] = live
        self.cache.index(live)
        if strong:
            self.pool.add_strong(creator, gid)
        self.cache.evict_over_cap(keep=live)
        log.info("game %s created: %d players, %s", gid, players, game.name)
        return live, tokens

    def bot_budget(self, game: Game, infos: list[SeatInfo], creator: str | None) -> bool:
        """Refuse (429) a game with bots while the bots' queue is full, and one with a
        search bot beyond the creating address's share (:class:`~.botpool.BotSettings`);
        whether the game has a search bot."""
        levels = [s.bot or default_bot(game) for s in infos if s.kind == "bot"]
        if not levels:
            return False
        strong = any(is_strong(game, lv) for lv in levels)
        try:
            self.pool.check_room()
        except BotBusy as e:
            raise ApiError(429, "bots_busy", str(e)) from None
        if strong:
            live = {gid: not g.finished for gid, g in self.cache.games.items()}
            try:
                self.pool.admit_strong(creator, live)
            except BotBusy as e:
                raise ApiError(429, "bot_budget", str(e)) from None
        return strong

    async def rematch(self, live: Live, seat: int) -> tuple[Live, str]:
        """The rematch of a finished game (created by the first who asks) and this seat's token."""
        if not live.finished:
            raise ApiError(409, "not_finished", "a rematch is possible once the game is finished")
        async with live.lock:
            if self.fanout.shared:
                self.cache.sync(live)
            created = False
            if live.rematch_id is None:
                # a rated game's rematch is rated (its creator, the first to ask, logged in)
                rated = any(h.rated(live.id) for h in self.hooks)
                new, _ = self.create(
                    kind=live.game.name,
                    players=len(live.seats),
                    options=live.options,
                    seats=[
                        {"kind": "human", "bot": None, "name": ""}
                        if i in {t["seat"] for t in live.takeovers}
                        else {
                            "kind": s.kind,
                            "bot": s.bot,
                            "name": s.name if s.kind == "bot" else "",
                        }
                        for i, s in enumerate(live.seats)
                    ],
                    clock=live.clock,
                    rematch_of=live.id,
                    issue_tokens=False,
                    private=live.private,
                    rated=rated,
                )
                # only the first rematch counts (another process may have made one meanwhile)
                created = self.cache.records.link_rematch(live.id, new.id)
                if created:
                    live.rematch_id = new.id
                else:
                    self.cache.forget(new.id)
                    self.cache.sync(live)
            if live.rematch_id is None:
                raise ApiError(409, "stale", STALE)
            if not created:
                new = self.cache.get(live.rematch_id)
            info = new.seats[seat]
            taken = ApiError(
                409,
                "seat_taken",
                "your seat in the rematch was already given out; open it from your game list",
            )
            if info.token_hash is not None:
                raise taken
            for hook in self.hooks:  # may refuse (a rated rematch's seat needs an account)
                hook.claiming(new, seat)
            tok = new_token()
            token_hash = hash_token(tok)
            name = live.seats[seat].name
            if not self.cache.records.give_free_seat(new.id, seat, token_hash, name):
                raise taken
            self.cache.set_token(new, seat, token_hash)
            info.name = name
            tell(self.hooks, "seat_token", new, seat, tok)
        if created:
            await self.fanout.changed(live)
        if self.fanout.publish is not None:
            await self.fanout.publish(new.id, len(new.moves))
        self.runner.kick(new)
        return new, tok

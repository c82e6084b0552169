"""``civcards serve [--host 127.0.0.1] [--port 8000] [--db URL] [--redis URL]``: the web table.

Several processes may serve the same games: give them all the same PostgreSQL
``--db`` and the same ``--redis`` (docs/operations.md). Games beyond those that
ship with civcards are registered at start-up from ``CIVCARDS_EXTRA_GAMES``
(``module:attribute,...``; docs/web.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
        db: Annotated[
            str,
            typer.Option(
                help="Database URL: sqlite:///FILE or postgresql+psycopg://user:pw@host/db.",
                envvar="CIVCARDS_DB_URL",
            ),
        ] = "sqlite:///civcards.db",
        redis: Annotated[
            str | None,
            typer.Option(
                "--redis",
                help="Redis URL (redis://host:6379/0) shared by several serve processes over "
                "one PostgreSQL database: moves made through one reach the clients of all. "
                "Leave out for a single process.",
                envvar="CIVCARDS_REDIS_URL",
            ),
        ] = None,
        bot_delay: Annotated[
            float, typer.Option("--bot-delay", help="Seconds a bot waits before moving.", min=0)
        ] = 1.0,
        bot_workers: Annotated[
            int | None,
            typer.Option(
                "--bot-workers",
                help="Processes in which the bots think (default: CPUs - 1, at least 1; 0: "
                "in a thread of the server). Environment: CIVCARDS_BOT_WORKERS; the bots' "
                "budget: CIVCARDS_BOT_* (docs/operations.md).",
            ),
        ] = None,
        allow_seed: Annotated[
            bool,
            typer.Option(
                "--allow-seed",
                help="Accept a shuffle seed when creating a game (tests only: it reveals the deck).",
            ),
        ] = False,
        log_level: Annotated[str, typer.Option(help="Uvicorn log level.")] = "info",
        max_body: Annotated[
            int,
            typer.Option(
                help="Most bytes of a request body (413 beyond; 0: no limit).",
                min=0,
                envvar="CIVCARDS_MAX_BODY",
            ),
        ] = 64 * 1024,
        rate_limit: Annotated[
            float,
            typer.Option(
                help="Requests per second per address, or per valid seat token (429 beyond; 0: no limit).",
                min=0,
                envvar="CIVCARDS_RATE_LIMIT",
            ),
        ] = 50.0,
        rate_burst: Annotated[
            int,
            typer.Option(
                help="Requests a client may send at once.", min=1, envvar="CIVCARDS_RATE_BURST"
            ),
        ] = 500,
        ws_max_message: Annotated[
            int,
            typer.Option(
                help="Most characters of a WebSocket message (close 1009 beyond; 0: no limit).",
                min=0,
                envvar="CIVCARDS_WS_MAX_MESSAGE",
            ),
        ] = 16 * 1024,
        allowed_hosts: Annotated[
            str | None,
            typer.Option(
                "--allowed-hosts",
                help="Host names the server answers, comma-separated (*.example.org for "
                "subdomains, * for any; 400 otherwise). Default: the loopback names when "
                "listening on a loopback address, else any.",
                envvar="CIVCARDS_ALLOWED_HOSTS",
            ),
        ] = None,
        allowed_origins: Annotated[
            str | None,
            typer.Option(
                "--allowed-origins",
                help="Other origins whose pages may open the WebSocket, comma-separated "
                "(https://play.example.org); the server's own host is always allowed.",
                envvar="CIVCARDS_ALLOWED_ORIGINS",
            ),
        ] = None,
        trust_proxy: Annotated[
            bool,
            typer.Option(
                "--trust-proxy",
                help="Believe the X-Forwarded-For, -Proto and -Host of the proxies of "
                "--trusted-proxies (the client's address, the Host and Origin checks use "
                "them). Without it every forwarding header is ignored: the client is the "
                "socket's peer.",
                envvar="CIVCARDS_TRUST_PROXY",
            ),
        ] = False,
        trusted_proxies: Annotated[
            str | None,
            typer.Option(
                "--trusted-proxies",
                help="With --trust-proxy: the proxies' addresses or networks, comma-separated "
                "(10.0.0.2,10.1.0.0/16). Default: 127.0.0.1,::1 (a proxy on this machine).",
                envvar="CIVCARDS_TRUSTED_PROXIES",
            ),
        ] = None,
    ) -> None:
        """Run the web table: play in the browser or over the HTTP API (/docs)."""
        try:
            import uvicorn

            from ..server.app import create_app
            from ..server.limits import Limits
            from ..server.security import Security
        except ImportError as e:
            typer.echo(
                f"error: the web table needs the 'web' extra (pip install 'civcards[web]'): {e}",
                err=True,
            )
            raise typer.Exit(2) from None
        try:
            if redis:
                from ..server.bus import check_url

                check_url(redis)
        except ImportError as e:
            typer.echo(f"error: --redis needs the 'redis' package (civcards[web]): {e}", err=True)
            raise typer.Exit(2) from None
        except ValueError as e:
            typer.echo(f"error: cannot use --redis: {e}", err=True)
            raise typer.Exit(2) from None
        try:
            limits = replace(
                Limits.from_env(),
                max_body=max_body,
                rate=rate_limit,
                burst=rate_burst,
                ws_max_message=ws_max_message,
            )
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
        try:
            import os

            from ..server.app import eviction_settings

            eviction_settings(os.environ)  # $CIVCARDS_MAX_LIVE_GAMES etc. (docs/operations.md)
            from ..server.review import review_settings

            review_settings(os.environ)  # $CIVCARDS_ANALYSIS_* (docs/analysis.md)
            from ..server.clocks import beat_from_env

            beat_from_env()  # $CIVCARDS_CLOCK_BEAT (docs/operations.md)
            from ..server.account_session import LoginLimits

            LoginLimits.from_env()  # $CIVCARDS_LOGIN_* (docs/accounts.md)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
        try:
            import os

            from ..server.botpool import BotSettings

            # $CIVCARDS_BOT_* (docs/operations.md), the option winning
            bots = BotSettings.from_env(os.environ, workers=bot_workers)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
        try:
            from ..server.kinds import load_extra_games

            load_extra_games()  # $CIVCARDS_EXTRA_GAMES (docs/web.md)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
        try:
            security = Security.from_env(
                {
                    "CIVCARDS_ALLOWED_HOSTS": allowed_hosts or "",
                    "CIVCARDS_ALLOWED_ORIGINS": allowed_origins or "",
                    "CIVCARDS_TRUST_PROXY": "1" if trust_proxy else "",
                    "CIVCARDS_TRUSTED_PROXIES": trusted_proxies or "",
                },
                listen=host,
            )
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
        try:
            application = create_app(
                db,
                bot_delay=bot_delay,
                bots=bots,
                allow_seed=allow_seed,
                redis_url=redis or None,
                limits=limits,
                security=security,
            )
        except Exception as e:  # a bad URL: say so without a traceback
            typer.echo(f"error: cannot use the database {db!r}: {e}", err=True)
            raise typer.Exit(2) from None
        # CIVCARDS_PROFILE=FILE: profile the server process (cProfile) and write its stats to
        # FILE when it stops (docs/loadtest.md, "Profiling")
        profile = os.environ.get("CIVCARDS_PROFILE", "").strip()
        prof = None
        if profile:
            import cProfile
            import time

            prof = cProfile.Profile(time.thread_time)  # CPU time: not skewed by neighbours
            prof.enable()
        try:
            uvicorn.run(
                application,
                host=host,
                port=port,
                log_level=log_level,
                access_log=True,
                ws_ping_interval=20,
                ws_max_size=limits.ws_hard_cap(),
                # Uvicorn believes 127.0.0.1's X-Forwarded-For by default: a client there
                # could name its own address. The app believes a proxy only with
                # --trust-proxy, and only a listed one (security.ProxyMiddleware)
                proxy_headers=False,
                forwarded_allow_ips="",
            )
        finally:
            if prof is not None:
                prof.disable()
                prof.dump_stats(profile)

"""``civcards play``: a game at the terminal against bots, or hot-seat between humans.

civcards play                              # you and 2 bots, basic deal
civcards play --seats human,greedy,random --draft --save game.json
civcards play --resume game.json
civcards play --seats random,random --seed 1   # bots only: prints the game and result
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..carta import ConfigError, GameState, NotationError, new_game, parse_record, replay
from ..i18n import LANGS, t
from ..terminal.seats import (
    PlayUsageError,
    build_bots,
    default_seats,
    parse_seats,
    seat_names,
    seats_from_names,
)
from ..terminal.session import Session

EXIT_USAGE = 2


@dataclass
class PlayOptions:
    """The command line of ``civcards play``, as given."""

    players: int | None = None
    seats: str | None = None
    draft: bool = False
    teams: bool = False
    seed: int | None = None
    save: Path | None = None
    resume: Path | None = None
    lang: str = "en"
    names: str | None = None
    delay: float = 0.0
    no_color: bool = False


@dataclass
class Prepared:
    """A game ready to play: position, seats, names, where to save."""

    game: GameState
    specs: list[str]
    names: list[str]
    save: Path | None
    resumed: bool = False


def _check_save(path: Path | None) -> None:
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PlayUsageError("err.save_dir", path=path, error=f"no folder {folder}")
    if path.is_dir():
        raise PlayUsageError("err.save_dir", path=path, error="it is a folder")


def _names(opts: PlayOptions, n: int) -> list[str] | None:
    if opts.names is None:
        return None
    names = [x.strip() for x in opts.names.split(",")]
    if len(names) != n or not all(names):
        raise PlayUsageError("err.names", names=len(names), n=n)
    return names


def prepare(opts: PlayOptions) -> Prepared:
    """Check the options and set up (or load) the game; PlayUsageError on a mistake."""
    if opts.delay < 0:
        raise PlayUsageError("err.delay")
    if opts.players is not None and opts.players not in (2, 3, 4):
        raise PlayUsageError("err.players", n=opts.players)
    specs = parse_seats(opts.seats) if opts.seats is not None else None
    if opts.resume is not None:
        return _prepare_resume(opts, specs)
    players = opts.players
    if specs is not None:
        if players is not None and players != len(specs):
            raise PlayUsageError("err.seats_players", seats=len(specs), players=players)
        players = len(specs)
    if players is None:
        players = 4 if opts.teams else 3
    if specs is None:
        specs = default_seats(players)
    if opts.teams and players != 4:
        raise PlayUsageError("err.teams", n=players)
    _check_save(opts.save)
    names = _names(opts, players) or seat_names(specs, opts.lang)
    try:
        g = new_game(
            players, deal="draft" if opts.draft else "basic", teams=opts.teams, seed=opts.seed
        )
    except ConfigError as e:  # pragma: no cover - the checks above come first
        raise PlayUsageError("err.resume_read", path="-", error=str(e)) from None
    return Prepared(g, specs, names, opts.save)


def _prepare_resume(opts: PlayOptions, specs: list[str] | None) -> Prepared:
    path = opts.resume
    assert path is not None
    for flag, given in (("--draft", opts.draft), ("--teams", opts.teams), ("--seed", opts.seed)):
        if given:
            raise PlayUsageError("err.resume_conflict", option=flag)
    try:
        rec = parse_record(path.read_bytes())
    except OSError as e:
        raise PlayUsageError("err.resume_read", path=path, error=e.strerror or e) from None
    except NotationError as e:
        raise PlayUsageError("err.resume_read", path=path, error=str(e)) from None
    result = replay(rec)
    if not result.ok:
        raise PlayUsageError("err.resume_read", path=path, error=result.error)
    n = rec.players
    if opts.players is not None and opts.players != n:
        raise PlayUsageError("err.seats_players", seats=n, players=opts.players)
    if specs is None:
        specs = seats_from_names(rec.names) if rec.names else default_seats(n)
    elif len(specs) != n:
        raise PlayUsageError("err.seats_players", seats=len(specs), players=n)
    save = opts.save if opts.save is not None else path
    _check_save(save)
    names = _names(opts, n) or rec.names or seat_names(specs, opts.lang)
    return Prepared(result.state, specs, names, save, resumed=True)


def run_play(opts: PlayOptions, console: Console | None = None) -> int:
    """Run ``civcards play``; returns the exit status."""
    lang = opts.lang.lower()
    if lang not in LANGS:
        typer.echo(
            "civcards play: " + t("en", "err.lang", langs=", ".join(LANGS), lang=opts.lang),
            err=True,
        )
        return EXIT_USAGE
    opts.lang = lang
    try:
        prep = prepare(opts)
        bots = build_bots(prep.specs, opts.seed)
    except PlayUsageError as e:
        typer.echo(f"civcards play: {e.message(lang)}", err=True)
        return EXIT_USAGE
    except ValueError as e:  # a bot that does not accept its argument
        typer.echo(f"civcards play: {e}", err=True)
        return EXIT_USAGE
    if console is None:
        console = Console(highlight=False, no_color=True if opts.no_color else None)
    if prep.resumed and opts.resume is not None:
        console.print(t(lang, "ui.resumed", path=opts.resume, n=len(prep.game.history)))
    session = Session(
        prep.game,
        prep.specs,
        prep.names,
        bots,
        lang=lang,
        console=console,
        save_path=prep.save,
        delay=opts.delay,
    )
    return session.run()


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play_cmd(
        players: Annotated[
            int | None, typer.Option("--players", "-p", help="2, 3 or 4 players (default 3).")
        ] = None,
        seats: Annotated[
            str | None,
            typer.Option(
                help="Who sits where, e.g. human,greedy,random (any mix; several humans play hot-seat)."
            ),
        ] = None,
        draft: Annotated[bool, typer.Option("--draft", help="Draft deal (R8).")] = False,
        teams: Annotated[bool, typer.Option("--teams", help="Team game, 4 players (R24).")] = False,
        seed: Annotated[int | None, typer.Option(help="Seed of the shuffle and the bots.")] = None,
        save: Annotated[
            Path | None, typer.Option(help="Write the game record to FILE after every move.")
        ] = None,
        resume: Annotated[
            Path | None, typer.Option(help="Continue the unfinished game saved in FILE.")
        ] = None,
        lang: Annotated[
            str, typer.Option(envvar="CIVCARDS_LANG", help="Language: en, es, de, fr or pt.")
        ] = "en",
        names: Annotated[
            str | None, typer.Option(help="Names of the seats, comma-separated.")
        ] = None,
        delay: Annotated[float, typer.Option(help="Seconds to wait after each bot move.")] = 0.0,
        no_color: Annotated[bool, typer.Option("--no-color", help="No colours.")] = False,
    ) -> None:
        """Play CIV: Carta Impera Victoria at the terminal against bots (or hot-seat).

        Choose by number from the list, or type a move in notation (play S,
        attack C); ? lists the effects. Ctrl-C stops; with --save the game is
        kept after every move and --resume FILE continues it.
        """
        opts = PlayOptions(
            players, seats, draft, teams, seed, save, resume, lang, names, delay, no_color
        )
        raise typer.Exit(run_play(opts))

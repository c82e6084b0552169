"""What ``civcards play`` does with its command line (:mod:`civcards.commands.play`
declares it): check the options, set up the game or load a saved one, seat the bots, and
run the :class:`~civcards.terminal.session.Session`. The command line imports this module
only when the command runs, so ``civcards --help`` and the other commands do without the
terminal, its words and Rich."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from ..game_api import (
    DEFAULT_GAME,
    Game,
    GameError,
    OptionsError,
    game_for_record,
    get_game,
)
from ..i18n import LANGS, t
from .seats import (
    PlayUsageError,
    build_bots,
    default_seats,
    parse_seats,
    seat_names,
    seats_from_names,
)
from .session import Session, screen_of

EXIT_USAGE = 2
#: the number of players when none is given (within the game's range)
PREFERRED_PLAYERS = 3


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
    #: the game's registry name; None: the default game, or the record's with --resume
    game: str | None = None
    #: ``--option KEY=VALUE`` (or ``KEY``: yes), as given
    option: list[str] = field(default_factory=list)


@dataclass
class Prepared:
    """A game ready to play: the game, its position, seats, names, where to save."""

    game: Game
    state: Any
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


def _value(text: str) -> Any:
    """An option's value as typed: true/false, an integer, or the text."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(low)
    except ValueError:
        return text.strip()


def game_options(game: Game, opts: PlayOptions) -> dict[str, Any]:
    """The set-up options given: ``--option KEY=VALUE`` (``KEY`` alone: yes), and the flags ``--draft``
    and ``--teams``, each of which sets the game's option of that name (a yes/no
    option) or the option that has that value among its choices."""
    out: dict[str, Any] = {}
    for item in opts.option:
        key, sep, value = item.partition("=")
        if not key.strip() or (sep and not value.strip()):
            raise PlayUsageError("", text=f"--option takes NAME or NAME=VALUE, not {item!r}")
        out[key.strip()] = _value(value) if sep else True  # a bare NAME switches it on
    for flag, given in (("draft", opts.draft), ("teams", opts.teams)):
        if not given:
            continue
        for spec in game.options:
            if spec.kind == "bool" and spec.name == flag:
                out[spec.name] = True
                break
            if spec.kind == "choice" and flag in spec.choices:
                out[spec.name] = flag
                break
        else:
            raise PlayUsageError("", text=f"{game.title} has no --{flag} option")
    return out


def _check(game: Game, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return game.check_options(players, options)
    except OptionsError as e:
        raise PlayUsageError("", text=str(e)) from None


def default_players(game: Game, options: Mapping[str, Any]) -> int:
    """The number of players when none is given: 3 where the game and its options
    allow, else the fewest they allow."""
    lo, hi = int(game.min_players), int(game.max_players)
    preferred = min(max(PREFERRED_PLAYERS, lo), hi)
    for n in (preferred, *range(lo, hi + 1)):
        try:
            game.check_options(n, options)
        except OptionsError:
            continue
        return int(n)
    return preferred


def prepare(opts: PlayOptions) -> Prepared:
    """Check the options and set up (or load) the game; PlayUsageError on a mistake."""
    if opts.delay < 0:
        raise PlayUsageError("err.delay")
    if opts.resume is not None:
        return _prepare_resume(opts)
    try:
        game = get_game(opts.game or DEFAULT_GAME)
    except GameError as e:
        raise PlayUsageError("", text=str(e)) from None
    specs = parse_seats(opts.seats, game) if opts.seats is not None else None
    options = game_options(game, opts)
    players = opts.players
    if specs is not None:
        if players is not None and players != len(specs):
            raise PlayUsageError("err.seats_players", seats=len(specs), players=players)
        players = len(specs)
    if players is None:
        players = default_players(game, options)
    options = _check(game, players, options)
    if specs is None:
        specs = default_seats(players, game)
    _check_save(opts.save)
    names = _names(opts, players) or seat_names(specs, opts.lang)
    try:
        state = game.new_state(players, options, opts.seed)
    except GameError as e:  # pragma: no cover - check_options comes first
        raise PlayUsageError("", text=str(e)) from None
    return Prepared(game, state, specs, names, opts.save)


def _prepare_resume(opts: PlayOptions) -> Prepared:
    path = opts.resume
    assert path is not None
    for flag, given in (
        ("--draft", opts.draft),
        ("--teams", opts.teams),
        ("--seed", opts.seed is not None),
        ("--option", bool(opts.option)),
    ):
        if given:
            raise PlayUsageError("err.resume_conflict", option=flag)
    try:
        obj = json.loads(path.read_bytes())
    except OSError as e:
        raise PlayUsageError("err.resume_read", path=path, error=e.strerror or e) from None
    except (ValueError, UnicodeDecodeError) as e:
        raise PlayUsageError("err.resume_read", path=path, error=f"not JSON: {e}") from None
    try:
        game = game_for_record(obj)
        state = game.from_record(obj)
    except GameError as e:
        raise PlayUsageError("err.resume_read", path=path, error=str(e)) from None
    if opts.game is not None and get_game(opts.game).name != game.name:
        raise PlayUsageError("err.resume_conflict", option="--game")
    n = state.n
    saved = obj.get("names")
    rec_names = (
        [str(x) for x in saved]
        if isinstance(saved, list) and len(saved) == n and all(isinstance(x, str) for x in saved)
        else None
    )
    if opts.players is not None and opts.players != n:
        raise PlayUsageError("err.seats_players", seats=n, players=opts.players)
    specs = parse_seats(opts.seats, game) if opts.seats is not None else None
    if specs is None:
        specs = seats_from_names(rec_names, game) if rec_names else default_seats(n, game)
    elif len(specs) != n:
        raise PlayUsageError("err.seats_players", seats=len(specs), players=n)
    save = opts.save if opts.save is not None else path
    _check_save(save)
    names = _names(opts, n) or rec_names or seat_names(specs, opts.lang)
    return Prepared(game, state, specs, names, save, resumed=True)


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
        bots = build_bots(prep.specs, opts.seed, prep.game)
    except PlayUsageError as e:
        typer.echo(f"civcards play: {e.message(lang)}", err=True)
        return EXIT_USAGE
    except ValueError as e:  # a bot that does not accept its argument
        typer.echo(f"civcards play: {e}", err=True)
        return EXIT_USAGE
    if console is None:
        console = Console(highlight=False, no_color=True if opts.no_color else None)
    if prep.resumed and opts.resume is not None:
        made = screen_of(prep.game).moves_made(prep.state)
        console.print(t(lang, "ui.resumed", path=opts.resume, n=made))
    session = Session(
        prep.game,
        prep.state,
        prep.specs,
        prep.names,
        bots,
        lang=lang,
        console=console,
        save_path=prep.save,
        delay=opts.delay,
    )
    return session.run()

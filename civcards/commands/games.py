"""``civcards games [--json]``: the registered games; and the ``--game`` / ``--option``
helpers the other commands share."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from ..bots import bot_names
from ..game_api import DEFAULT_GAME, Game, GameError, all_games, get_game, parse_option_texts

EXIT_USAGE = 2

#: the help of every command's ``--game``
GAME_HELP = "The game (see `civcards games`)."
#: the help of ``--option``
OPTION_HELP = "A set-up option of the game, NAME=VALUE (repeatable; see `civcards games`)."

# The options several commands declare alike (the parameter's default stays with each
# command): ``name: GameOpt = None``.
GameOpt = Annotated[str | None, typer.Option("--game", "-g", help=GAME_HELP)]
SetupOpt = Annotated[list[str] | None, typer.Option("--option", "-O", help=OPTION_HELP)]
GamesOpt = Annotated[int, typer.Option("--games", "-n", help="Number of games.")]
PlayersOpt = Annotated[int, typer.Option("--players", "-p", help="Players per game.")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")]
DraftOpt = Annotated[
    bool, typer.Option("--draft", help="Deal by draft (CIV, R8): --option deal=draft.")
]
NoProgressOpt = Annotated[bool, typer.Option("--no-progress", help="No progress bar on stderr.")]


def resolve_game(name: str | None) -> Game:
    """The game named ``--game`` (default: the platform's default game); ValueError
    with a sentence for an unknown name."""
    try:
        return get_game(name if name is not None else DEFAULT_GAME)
    except GameError as e:
        raise ValueError(str(e)) from None


def parse_options(game: Game, texts: Sequence[str] | None) -> dict[str, Any]:
    """The options of ``--option NAME=VALUE`` (typed by the game's option specs; the
    game checks them itself); ValueError with a sentence for a malformed one."""
    return parse_option_texts(game, texts)


def game_json(game: Game) -> dict[str, Any]:
    """One entry of ``civcards games --json``."""
    return {
        "name": game.name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": [o.to_json() for o in game.options],
        "bots": bot_names(game),
    }


def games_json() -> dict[str, Any]:
    return {"games": [game_json(g) for g in all_games()]}


def games_text() -> str:
    lines = []
    for g in all_games():
        default = " (default)" if g.name == DEFAULT_GAME else ""
        lines.append(f"{g.name}{default}: {g.title}, {g.min_players}-{g.max_players} players")
        note = getattr(g, "note", None)
        if isinstance(note, str) and note:
            lines.append(f"  ({note})")
        for o in g.options:
            values = f" ({', '.join(o.choices)})" if o.choices else ""
            # a default that depends on the player count: "True at 2 players"
            values += "".join(f" ({v!s} at {n} players)" for n, v in o.player_defaults)
            lines.append(f"  --option {o.name}={o.default!s}{values}: {o.help}")
        lines.append(f"  bots: {', '.join(bot_names(g))}")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games_cmd(
        as_json: Annotated[
            bool, typer.Option("--json", help='Print one JSON object: {"games": [...]}.')
        ] = False,
    ) -> None:
        """List the registered games: players, set-up options and bots."""
        if as_json:
            typer.echo(json.dumps(games_json(), ensure_ascii=False))
        else:
            typer.echo(games_text())


__all__ = [
    "GAME_HELP",
    "OPTION_HELP",
    "game_json",
    "games_json",
    "parse_options",
    "register",
    "resolve_game",
]

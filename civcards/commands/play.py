"""``civcards play``: a game at the terminal against bots, or hot-seat between humans.

civcards play                              # you and 2 bots, basic deal
civcards play --seats human,greedy,random --draft --save game.json
civcards play --resume game.json           # the record says which game it is
civcards play --seats random,random --seed 1   # bots only: prints the game and result
civcards play --game NAME --option KEY=VALUE   # any registered game and its options (KEY alone: yes)

The command's work is :mod:`civcards.terminal.launch`, imported when it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..game_api import DEFAULT_GAME


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play_cmd(
        players: Annotated[
            int | None,
            typer.Option(
                "--players", "-p", help="How many players (default 3 where the game allows)."
            ),
        ] = None,
        seats: Annotated[
            str | None,
            typer.Option(
                help="Who sits where, e.g. human,greedy,random (any mix; several humans play hot-seat)."
            ),
        ] = None,
        draft: Annotated[
            bool,
            typer.Option("--draft", help="Draft deal (CIV, R8): the option with value 'draft'."),
        ] = False,
        teams: Annotated[
            bool,
            typer.Option("--teams", help="Team game (CIV: 4 players, R24): the option 'teams'."),
        ] = False,
        seed: Annotated[int | None, typer.Option(help="Seed of the shuffle and the bots.")] = None,
        save: Annotated[
            Path | None, typer.Option(help="Write the game record to FILE after every move.")
        ] = None,
        resume: Annotated[
            Path | None,
            typer.Option(help="Continue the unfinished game saved in FILE (any game)."),
        ] = None,
        lang: Annotated[
            str, typer.Option(envvar="CIVCARDS_LANG", help="Language: en, es, de, fr or pt.")
        ] = "en",
        names: Annotated[
            str | None, typer.Option(help="Names of the seats, comma-separated.")
        ] = None,
        delay: Annotated[float, typer.Option(help="Seconds to wait after each bot move.")] = 0.0,
        no_color: Annotated[bool, typer.Option("--no-color", help="No colours.")] = False,
        game: Annotated[
            str | None,
            typer.Option(
                "--game",
                help=f"The game to play (civcards games lists them; default {DEFAULT_GAME}).",
            ),
        ] = None,
        option: Annotated[
            list[str] | None,
            typer.Option(
                "--option",
                "-o",
                help="A set-up option of the game, NAME=VALUE or NAME for yes (repeatable).",
            ),
        ] = None,
    ) -> None:
        """Play a game at the terminal against bots (or hot-seat); CIV by default.

        Choose by number from the list, or type a move in notation (play S,
        attack C); ? shows the help. Ctrl-C stops; with --save the game is
        kept after every move and --resume FILE continues it.
        """
        from ..terminal.launch import PlayOptions, run_play

        opts = PlayOptions(
            players,
            seats,
            draft,
            teams,
            seed,
            save,
            resume,
            lang,
            names,
            delay,
            no_color,
            game,
            list(option or []),
        )
        raise typer.Exit(run_play(opts))

"""The ``civcards`` command line: play, replay, analyse, simulate, arena, report, bench,
train-value, train, serve, loadtest, games.

Each command lives in :mod:`civcards.commands`. ``civcards serve`` imports only
its own command, so the web process never loads Rich or the terminal game.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable

import typer

#: command name -> module in civcards.commands, in the order ``--help`` lists them
COMMANDS: dict[str, str] = {
    "play": "play",
    "replay": "replay",
    "analyse": "analyse",
    "simulate": "simulate",
    "arena": "arena",
    "report": "report",
    "bench": "bench",
    "train-value": "train_value",
    "train": "train",
    "serve": "serve",
    "loadtest": "loadtest",
    "games": "games",
}

#: commands whose process must stay free of Rich and the terminal (the web table)
LEAN = frozenset({"serve"})


def build_app(names: Iterable[str] | None = None) -> typer.Typer:
    """The Typer application with the commands ``names`` (all by default)."""
    cli = typer.Typer(
        name="civcards",
        help="Card games (CIV: Carta Impera Victoria, Civilization: The Card Game, and more: "
        "`civcards games`) — play, replay, simulate and benchmark.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    wanted = list(COMMANDS) if names is None else list(names)
    for name in wanted:
        module = importlib.import_module(f"civcards.commands.{COMMANDS[name]}")
        module.register(cli)
    return cli


def __getattr__(name: str) -> typer.Typer:
    # ``civcards.cli.app``: the whole application, built on first use
    if name == "app":
        full = build_app()
        globals()["app"] = full
        return full
    raise AttributeError(name)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    first = args[0] if args else None
    if first in LEAN:
        # a one-command Typer app is that command itself: it takes the arguments after its name
        build_app([first])(args=args[1:], prog_name=f"civcards {first}")
        return
    build_app()(args=args, prog_name="civcards")


if __name__ == "__main__":  # pragma: no cover
    main()

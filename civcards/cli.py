"""The ``civcards`` command line: play, replay, simulate, arena, report, bench, train-value,
serve, loadtest, games."""

from __future__ import annotations

import typer

from .commands import (
    arena,
    bench,
    games,
    loadtest,
    play,
    replay,
    report,
    serve,
    simulate,
    train_value,
)

app = typer.Typer(
    name="civcards",
    help="Card games (CIV: Carta Impera Victoria, and more: `civcards games`) — play, "
    "replay, simulate and benchmark.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (play, replay, simulate, arena, report, bench, train_value, serve, loadtest, games):
    module.register(app)


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()

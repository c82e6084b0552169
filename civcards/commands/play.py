"""``civcards play``."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("play")
    def _cmd() -> None:
        """(not yet written)"""
        typer.echo("not yet written", err=True)
        raise typer.Exit(2)

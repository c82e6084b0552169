"""placeholder"""
import typer
def register(app: typer.Typer) -> None:
    pass

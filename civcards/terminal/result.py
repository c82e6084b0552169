"""How a finished game was won: Hegemony (which domain) or Majorities (the table)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..carta import GameState
from ..games.carta.text import hegemony_domain, sides, tiebreak_text, winners_text
from ..i18n import domain_name, t
from .screen import DOMAIN_STYLES, team_letter


def majority_table(g: GameState, names: Sequence[str], lang: str) -> Table:
    """Cards per seat and domain, ✓ on each majority, and the points (by team in R24)."""
    table = Table(
        box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title=t(lang, "term.majorities")
    )
    table.add_column(t(lang, "ui.seat"), no_wrap=True)
    for d in range(6):
        table.add_column(
            Text(domain_name(lang, d), style="bold " + DOMAIN_STYLES[d]), justify="center"
        )
    table.add_column(t(lang, "ui.points"), justify="right")
    best = [max(a[d] for a in g.areas) for d in range(6)]
    points = g.points or []
    winners = set(g.winners)
    for s in range(g.n):
        label = Text(f"{s} {names[s]}", style="bold green" if s in winners else "")
        if g.teams:
            label.append(f" [{team_letter(s)}]", style="bright_black")
        row: list[RenderableType] = [label]
        for d in range(6):
            c = g.areas[s][d]
            top = c == best[d] and c > 0
            row.append(Text(f"{c}{' ✓' if top else ''}", style="bold" if top else ""))
        row.append("" if g.teams else str(points[s] if s < len(points) else ""))
        table.add_row(*row)
    if g.teams:
        for team, seats in enumerate(sides(g)):
            label = Text(
                t(lang, "ui.team_name", seats=f"{team_letter(team)} ({seats[0]}+{seats[1]})"),
                style="bold green" if seats[0] in winners else "bold",
            )
            row = [label]
            for d in range(6):
                scored = best[d] > 0 and any(g.areas[s][d] == best[d] for s in seats)
                row.append(Text("✓" if scored else "", style="bold"))
            row.append(str(points[team] if team < len(points) else ""))
            table.add_row(*row)
    return table


def result_view(g: GameState, names: Sequence[str], lang: str) -> Group:
    """The end of the game: who won and how."""
    parts: list[RenderableType] = [
        Text(t(lang, "ui.game_over"), style="bold reverse"),
        Text(winners_text(g, names, lang), style="bold green"),
    ]
    if g.victory == "hegemony":
        d, count, need = hegemony_domain(g)
        parts.append(
            Text(t(lang, "ui.by_hegemony", count=count, domain=domain_name(lang, d), need=need))
        )
    elif g.victory == "majority":
        parts.append(Text(t(lang, "ui.by_majority")))
        parts.append(majority_table(g, names, lang))
        parts.append(Text(t(lang, "ui.majority_legend"), style="bright_black"))
        tb = tiebreak_text(g, lang)
        if tb:
            parts.append(Text(tb, style="bold"))
    return Group(*parts)


__all__ = ["hegemony_domain", "majority_table", "result_view", "tiebreak_text"]

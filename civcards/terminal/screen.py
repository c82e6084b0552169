"""The table as Rich renderables, built from one seat's observation only (R25).

Everything drawn here comes from :class:`civcards.carta.Observation`, so no
other seat's hand can reach the screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..carta import Observation
from ..carta.cards import str_to_counts
from ..games.carta.text import LETTERS, cards_text, describe_move, seat_label
from ..i18n import domain_name, effect_name, t

ERAS = ("I", "II", "III")
DOMAIN_STYLES = ("red", "magenta", "yellow", "cyan", "green", "blue")


def era_text(era: int | None) -> str:
    return "—" if era is None else ERAS[era]


def team_letter(seat: int) -> str:
    return "AB"[seat % 2]


def title(obs: Observation, lang: str) -> Rule:
    l1, l2, heg = obs.thresholds
    parts = [
        t(lang, "ui.title"),
        f"{t(lang, 'term.era').capitalize()} {era_text(obs.era)}",
        t(lang, "ui.deck", n=obs.deck_size),
        t(lang, "ui.turn", n=obs.turn),
        t(lang, "ui.thresholds", l1=l1, l2=l2, heg=heg),
    ]
    return Rule(" · ".join(parts), style="bright_black")


def _cell(obs: Observation, seat: int, d: int, count: int, *, hegemony_cards: int) -> Text:
    l1, l2, _ = obs.thresholds
    letter = LETTERS[d]
    emb = sum(
        1
        for m in obs.markers
        if m["seat"] == seat and m["domain"] == letter and m["kind"] == "embargo"
    )
    dem = sum(
        1
        for m in obs.markers
        if m["seat"] == seat and m["domain"] == letter and m["kind"] == "democracy"
    )
    txt = Text()
    if count == 0:
        txt.append("·", style="bright_black")
    else:
        style = ""
        mark = ""
        if count >= hegemony_cards:
            style, mark = "bold reverse " + DOMAIN_STYLES[d], "♛"
        elif count >= l2:
            style, mark = "bold " + DOMAIN_STYLES[d], "★★"
        elif count >= l1:
            style, mark = DOMAIN_STYLES[d], "★"
        txt.append(str(count), style=style or None)
        if mark:
            txt.append(mark, style=style)
    if emb:
        txt.append(" E" + (str(emb) if emb > 1 else ""), style="bold red")
    if dem:
        txt.append(" D" + (str(dem) if dem > 1 else ""), style="bold magenta")
    coin = obs.coin
    if coin is not None and coin["seat"] == seat and coin["domain"] == letter:
        txt.append(" ◉", style="bold yellow")
    return txt


def seat_table(obs: Observation, names: Sequence[str], lang: str, viewer: int | None) -> Table:
    """Rows: seats; columns: hand size and the six domains with their counts."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
    table.add_column(t(lang, "ui.seat"), no_wrap=True)
    if obs.teams:
        table.add_column(t(lang, "ui.team"), justify="center")
    table.add_column(t(lang, "ui.hand"), justify="right", no_wrap=True)
    for d, letter in enumerate(LETTERS):
        header = Text(domain_name(lang, d), style="bold " + DOMAIN_STYLES[d])
        header.append(f"\n{letter}", style="bright_black")
        table.add_column(header, justify="center", min_width=5)
    _, _, heg = obs.thresholds
    for s in range(obs.players):
        counts = str_to_counts(obs.areas[s])
        label = Text()
        label.append("▶ " if obs.to_move == s else "  ", style="bold green")
        label.append(f"{s} ", style="bright_black")
        label.append(names[s], style="bold" if s == viewer else "")
        if s == obs.start:
            label.append(" ⚑", style="bright_black")
        hand = Text(str(obs.hand_sizes[s]))
        known = obs.known_in_hands[s] if viewer is not None and s != viewer else ""
        if known:
            hand.append(f" ({known})", style="bright_black")
        row: list[RenderableType] = [label]
        if obs.teams:
            row.append(team_letter(s))
        row.append(hand)
        for d in range(6):
            need = heg + sum(
                1
                for m in obs.markers
                if m["seat"] == s and m["domain"] == LETTERS[d] and m["kind"] == "democracy"
            )
            row.append(_cell(obs, s, d, counts[d], hegemony_cards=need))
        table.add_row(*row)
    return table


def info_lines(obs: Observation, names: Sequence[str], lang: str) -> list[Text]:
    """Markers, the Culture coin and the discard pile, one line each."""
    lines: list[Text] = []
    grouped: dict[tuple[str, int, int], list[str]] = {}
    for m in obs.markers:
        grouped.setdefault((m["kind"], m["seat"], m["by"]), []).append(m["domain"])
    for (kind, seat, by), letters in sorted(grouped.items()):
        key = "ui.marker_embargo" if kind == "embargo" else "ui.marker_democracy"
        domains = ", ".join(
            domain_name(lang, x) + (f" ×{letters.count(x)}" if letters.count(x) > 1 else "")
            for x in sorted(set(letters), key=LETTERS.index)
        )
        lines.append(
            Text(
                t(
                    lang,
                    key,
                    seat=seat_label(list(names), seat),
                    domain=domains,
                    by=seat_label(list(names), by),
                ),
                style="red" if kind == "embargo" else "magenta",
            )
        )
    if obs.coin is not None:
        lines.append(
            Text(
                "◉ "
                + t(
                    lang,
                    "ui.coin",
                    holder=seat_label(list(names), int(obs.coin["holder"])),
                    seat=seat_label(list(names), int(obs.coin["seat"])),
                    domain=domain_name(lang, str(obs.coin["domain"])),
                ),
                style="yellow",
            )
        )
    pile = obs.discard
    line = Text(f"{t(lang, 'ui.discard_pile')} ({len(pile)}): ", style="bold")
    line.append(cards_text(lang, pile) if pile else t(lang, "ui.empty"), style="")
    lines.append(line)
    if obs.phase == "draft" and obs.draft_centre:
        centre = Text(f"{t(lang, 'ui.draft_centre')}: ", style="bold")
        centre.append(cards_text(lang, obs.draft_centre))
        lines.append(centre)
    if obs.last_round and not obs.finished:
        lines.append(Text(t(lang, "ui.last_round"), style="bold red"))
    return lines


def move_groups(obs: Observation) -> list[tuple[int, list[str]]]:
    """The history as (mover, moves) runs of consecutive moves by one seat."""
    groups: list[tuple[int, list[str]]] = []
    for text, mover in zip(obs.history, obs.movers, strict=True):
        if groups and groups[-1][0] == mover and text.split()[0] not in ("keep", "take"):
            groups[-1][1].append(text)
        else:
            groups.append((mover, [text]))
    return groups


def past_moves_text(lang: str, moves: Sequence[str], names: Sequence[str]) -> str:
    """A turn's moves in words; the closing ``end`` goes without saying."""
    said = [describe_move(lang, m, list(names), past=True) for m in moves if m != "end"]
    return " · ".join(said) if said else describe_move(lang, "end", list(names))


def history_lines(
    obs: Observation, names: Sequence[str], lang: str, limit: int | None
) -> list[Text]:
    """The last ``limit`` runs of moves (all of them when None), as the viewer may see them."""
    groups = move_groups(obs)
    if limit is not None:
        groups = groups[-limit:]
    lines = []
    for mover, moves in groups:
        line = Text()
        line.append(f"{seat_label(list(names), mover)}: ", style="bold")
        line.append(past_moves_text(lang, moves, names))
        line.append("   [" + "; ".join(moves) + "]", style="bright_black")
        lines.append(line)
    return lines


def recent_panel(obs: Observation, names: Sequence[str], lang: str, limit: int) -> Group:
    lines = history_lines(obs, names, lang, limit)
    head = Text(t(lang, "ui.recent"), style="bold underline")
    if not lines:
        return Group(head, Text(t(lang, "ui.no_moves"), style="bright_black"))
    for line in lines:
        line.overflow = "ellipsis"
        line.no_wrap = True
    return Group(head, *lines)


def hand_line(obs: Observation, lang: str, hand_limit: int | None) -> Text:
    """The viewer's own hand, card by card, coloured by domain."""
    txt = Text(f"{t(lang, 'ui.your_hand')}: ", style="bold")
    counts = str_to_counts(obs.hand)
    if not obs.hand:
        txt.append(t(lang, "ui.empty") + "   ", style="bright_black")
    for d in range(6):
        if counts[d]:
            txt.append(f"[{LETTERS[d]}] ", style="bold " + DOMAIN_STYLES[d])
            txt.append(domain_name(lang, d) + (f" ×{counts[d]}" if counts[d] > 1 else ""))
            txt.append("   ")
    if hand_limit is not None:
        txt.append(f"({t(lang, 'ui.hand_size_is', n=hand_limit)})", style="bright_black")
    return txt


def turn_line(obs: Observation, names: Sequence[str], lang: str, viewer: int | None = None) -> Text:
    if obs.finished or obs.to_move is None:
        return Text(t(lang, "ui.phase.over"), style="bold")
    phase = obs.phase
    key = f"ui.phase.{phase}"
    if phase == "draft" and obs.draft_centre:
        key = "ui.phase.draft_take"
    if viewer == obs.to_move and names[obs.to_move] == t(lang, "ui.you"):
        txt = Text(t(lang, "ui.your_turn"), style="bold green")
    else:
        txt = Text(t(lang, "ui.turn_of", name=names[obs.to_move]), style="bold green")
    txt.append(" — " + t(lang, key))
    if obs.used_effects:
        used = ", ".join(effect_name(lang, k) for k in obs.used_effects)
        txt.append("   " + t(lang, "ui.used", effects=used), style="bright_black")
    return txt


def board(
    obs: Observation,
    names: Sequence[str],
    lang: str,
    *,
    viewer: int | None,
    hand_limit: int | None = None,
    recent: int = 6,
) -> Group:
    """The whole table as ``viewer`` sees it (None: a spectator, no hand shown)."""
    parts: list[RenderableType] = [
        title(obs, lang),
        seat_table(obs, names, lang, viewer),
        Text(t(lang, "help.legend") + "  ⚑ " + t(lang, "ui.start"), style="bright_black"),
        *info_lines(obs, names, lang),
        Text(""),
        recent_panel(obs, names, lang, recent),
    ]
    if not obs.finished:
        parts += [Text(""), turn_line(obs, names, lang, viewer)]
    if viewer is not None:
        if obs.phase == "draft" and obs.draft_packet:
            packet = Text(f"{t(lang, 'ui.draft_packet')}: ", style="bold")
            packet.append(cards_text(lang, obs.draft_packet))
            parts.append(packet)
        in_draft = obs.phase == "draft"
        parts.append(hand_line(obs, lang, None if in_draft else hand_limit))
    return Group(*parts)


def help_view(lang: str, thresholds: tuple[int, int, int]) -> Group:
    """Every effect by domain, named and explained, and how to enter moves."""
    l1, l2, heg = thresholds
    rows: list[tuple[int, str, str]] = [
        (0, "assassination", "help.level1"),
        (0, "purge", "help.level2"),
        (0, "attack", "help.discard"),
        (1, "holybook", "help.level1"),
        (1, "divineright", "help.level2"),
        (1, "inquisition", "help.discard"),
        (2, "development", "help.level1"),
        (2, "monopoly", "help.level2"),
        (2, "embargo", "help.discard"),
        (3, "experiment", "help.level1"),
        (3, "research", "help.level2"),
        (3, "discovery", "help.discard"),
        (4, "inspiration", ""),
        (5, "oligarchy", "help.level1"),
        (5, "republic", "help.level2"),
        (5, "democracy", "help.discard"),
    ]
    table = Table(box=None, show_header=False, pad_edge=False, expand=False)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True, style="bright_black")
    table.add_column(ratio=1)
    last = -1
    for d, kind, level in rows:
        dom = Text(domain_name(lang, d), style="bold " + DOMAIN_STYLES[d]) if d != last else Text()
        last = d
        name = Text(effect_name(lang, kind), style="bold")
        table.add_row(dom, name, t(lang, level) if level else "", t(lang, f"help.{kind}"))
    return Group(
        Rule(t(lang, "help.title")),
        Text(t(lang, "help.turn", l1=l1, l2=l2, heg=heg)),
        Text(""),
        table,
        Text(t(lang, "help.levels_legend"), style="bright_black"),
        Text(""),
        Text(t(lang, "help.commands"), style="bright_black"),
    )

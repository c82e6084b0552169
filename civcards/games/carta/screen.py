"""CIV at the terminal: its board, help, log, result and menu words, drawn with Rich.

Everything drawn from a position comes from one seat's
:class:`civcards.carta.Observation`, so no other seat's hand can reach the
screen (R25). Only the terminal imports this module (through
``Game.terminal_screen()``): Rich never loads in the web process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ...carta import GameState, Observation, observe
from ...carta.cards import counts_to_str, str_to_counts
from ...carta.explain import why_illegal
from ...carta.moves import EFFECT_KINDS, NotationError, parse_move
from ...carta.observation import public_move_text
from ...game_api import Choice, Expansion
from ...i18n import domain_name, effect_name, t
from .text import (
    LETTERS,
    cards_text,
    describe_move,
    hegemony_domain,
    move_kind,
    seat_label,
    sides,
    tiebreak_text,
    winners_text,
)

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


# -- menus ---------------------------------------------------------------------------

_KIND_ORDER = {k: i for i, k in enumerate(("end", "play", "keep", "take", *EFFECT_KINDS))}
_CARD_ORDER = str.maketrans("MRESCU", "012345")


def order_options(options: Sequence[str]) -> list[str]:
    """``end`` first, then play/draft moves, then the effects in the order of the rules.

    Within one kind, cards go in the order of the domains (M R E S C U).

    >>> order_options(["attack C", "end", "attack M"])
    ['end', 'attack M', 'attack C']
    """
    return sorted(
        options, key=lambda o: (_KIND_ORDER.get(move_kind(o), 99), o.translate(_CARD_ORDER))
    )


# -- the screen ------------------------------------------------------------------------


class CartaScreen:
    """CIV's :class:`civcards.terminal.protocol.TerminalScreen`."""

    def board(
        self,
        state: GameState,
        viewer: int | None,
        names: Sequence[str],
        lang: str,
        *,
        final: bool = False,
    ) -> RenderableType:
        g = state
        if final:
            obs = observe(g, viewer if viewer is not None else 0)
            return board(obs, names, lang, viewer=None, recent=g.n)
        assert viewer is not None
        return board(
            observe(g, viewer),
            names,
            lang,
            viewer=viewer,
            hand_limit=g.hand_size(viewer),
            recent=min(6, g.n + 2),
        )

    def help(self, state: GameState, lang: str) -> RenderableType:
        return help_view(lang, state.thresholds)

    def log(self, state: GameState, viewer: int, names: Sequence[str], lang: str) -> RenderableType:
        lines = history_lines(observe(state, viewer), names, lang, None)
        head = Text(t(lang, "ui.all_moves"), style="bold underline")
        return Group(head, *(lines or [Text(t(lang, "ui.no_moves"))]))

    def result(self, state: GameState, names: Sequence[str], lang: str) -> RenderableType:
        return result_view(state, names, lang)

    def moves_made(self, state: GameState) -> int:
        return len(state.history)

    def spectator_line(
        self, state: GameState, start: int, turn: int, names: Sequence[str], lang: str
    ) -> RenderableType:
        g = state
        mover = g.movers[start]
        texts = [public_move_text(g, i, None) for i in range(start, len(g.history))]
        line = Text(f"{t(lang, 'ui.turn', n=turn)} ", style="bright_black")
        line.append(f"{seat_label(list(names), mover)}: ", style="bold")
        line.append(past_moves_text(lang, texts, names))
        line.append("   [" + "; ".join(texts) + "]", style="bright_black")
        return line

    def order(self, texts: Sequence[str]) -> list[str]:
        return order_options(texts)

    def kind(self, text: str) -> str:
        return move_kind(text)

    def group_label(self, kind: str, count: int, lang: str) -> str:
        key = "move.group_play" if kind == "play" else "move.group"
        eff = effect_name(lang, kind) if kind not in ("play", "keep", "take") else kind
        return t(lang, key, effect=eff, count=count)

    def hidden_step(
        self, state: GameState, text: str, choices: Sequence[Choice], lang: str
    ) -> tuple[Choice, str] | None:
        # Discovery and Inquisition show hidden cards first: choosing one commits to it
        m = parse_move(text)
        steps = {c.text: c for c in choices if c.hidden}
        step: Choice | None = None
        if m.kind == "discovery":
            step = steps.get("discovery discard ?")
        elif m.kind == "inquisition":
            step = steps.get(f"inquisition {m.seat} give ?")
        if step is None:
            return None
        return step, t(lang, "ui.commit_first", effect=effect_name(lang, m.kind))

    def unreadable(self, text: str, error: str) -> str:
        try:
            parse_move(text)
        except NotationError as e:
            return str(e)  # the notation's own sentence, without the interface's lead
        return error  # pragma: no cover - called for unreadable moves only

    def refusal(self, state: GameState, text: str) -> str:
        return why_illegal(state, parse_move(text))

    def reveal(
        self,
        state: GameState,
        seat: int,
        step: Choice,
        expansion: Expansion,
        names: Sequence[str],
        lang: str,
    ) -> list[RenderableType]:
        reveal = str(expansion.reveal or "")
        words = step.text.split()
        kind = words[0]
        if kind == "discovery":
            shown = (
                t(lang, "ui.revealed_discovery", cards=cards_text(lang, reveal))
                if reveal
                else t(lang, "ui.revealed_discovery_none")
            )
        else:
            shown = t(
                lang,
                "ui.revealed_inquisition",
                seat=seat_label(list(names), int(words[1])),
                cards=cards_text(lang, reveal),
            )
        hand = state.hands[seat]
        pool = counts_to_str([a + b for a, b in zip(hand, str_to_counts(reveal), strict=True)])
        return [
            Text(t(lang, "ui.committed", effect=effect_name(lang, kind)), style="bold"),
            Text("➜ " + shown, style="bold yellow"),
            Text("   " + t(lang, "ui.pool", cards=cards_text(lang, pool)) + f"   [{pool}]"),
        ]


SCREEN: Any = CartaScreen()

__all__ = [
    "DOMAIN_STYLES",
    "SCREEN",
    "CartaScreen",
    "board",
    "help_view",
    "history_lines",
    "majority_table",
    "order_options",
    "result_view",
]

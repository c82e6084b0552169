"""Civilization: The Card Game at the terminal: its board, help, log, result and menus, with Rich.

Everything a board shows comes from one seat's :class:`civcards.civ4.Observation`
(C72), so no other seat's hand can reach the screen. Two things look further,
and show only public facts or the mover's own:

* the movers of the log (whose turn it was is public) are found by replaying
  the moves on a private copy of the game;
* the proposed choice, listed first in a menu, is the engine's
  :func:`civcards.civ4.default_move` for the seat to move (it reads that
  seat's own hand and public facts only).

The card set is RECONSTRUCTED (the original card list was never published):
the board and the help say so. Only the terminal imports this module, through
``Game.terminal_screen()``, so Rich never loads elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ... import civ4
from ...civ4 import CARDS, GameState, Observation, observe
from ...civ4.cards import CardSet, card_set_of
from ...civ4.observation import PlayerView
from ...game_api import Choice, Expansion
from ...i18n import t
from .public import Costs, movers
from .text import (
    card_help,
    card_name,
    cards_text,
    describe_move,
    reconstructed,
    seat_name,
    step_name,
    winners_text,
)

ERAS = {1: "I", 2: "II", 3: "III"}
RES_STYLES = ("yellow", "red", "cyan")



def _res_text(amounts: Sequence[int]) -> Text:
    """``2F 1C`` with each letter in its colour."""
    out = Text()
    first = True
    for i, letter in enumerate("FHC"):
        if amounts[i]:
            if not first:
                out.append(" ")
            out.append(f"{amounts[i]}{letter}", style=RES_STYLES[i])
            first = False
    if first:
        out.append("0", style="bright_black")
    return out


def _era(era: int | None, lang: str) -> str:
    return ERAS.get(era, "—") if era is not None else t(lang, "ccg.none")


# -- the board ----------------------------------------------------------------------------


def title(obs: Observation, lang: str) -> list[RenderableType]:
    """The title rule (game, round, step) and the label of the reconstructed card set."""
    parts = [t(lang, "ccg.title"), t(lang, "ccg.round", n=obs.round), step_name(obs.step, lang)]
    return [
        Rule(" · ".join(parts), style="bright_black"),
        Text(
            "⚠ " + reconstructed(lang, card_set_of(dict(obs.options)).set_name),
            style="italic bright_black",
        ),
    ]


def empire(
    obs: Observation, seat: int, names: Sequence[str], lang: str, viewer: int | None
) -> Group:
    """One seat: its header line (VP, supply, hand size, culture, happiness), techs and plots."""
    pv: PlayerView = obs.seats[seat]
    vp, techs, pop, wonders = pv.score
    head = Text()
    head.append("▶ " if obs.to_move == seat else "  ", style="bold green")
    head.append(f"{seat} ", style="bright_black")
    head.append(seat_name(names, seat), style="bold underline" if seat == viewer else "bold")
    head.append("  " + t(lang, "ccg.vp", vp=vp), style="bold blue")
    head.append(" (" + t(lang, "ccg.tiebreak", techs=techs, pop=pop, wonders=wonders) + ")")
    info = Text("    " + t(lang, "ccg.supply", res="").rstrip() + " ")
    info.append_text(_res_text(pv.supply))
    hand = len(pv.hand) if isinstance(pv.hand, tuple) else pv.hand
    info.append("  ·  " + t(lang, "ccg.hand_n", n=hand))
    info.append("  ·  ♪ " + t(lang, "ccg.culture_n", n=pv.culture), style="magenta")
    if obs.status[0] == seat:
        info.append(" ★", style="bold magenta")
    info.append("  ·  ☺ " + t(lang, "ccg.happiness_n", n=pv.happiness), style="yellow")
    if obs.status[1] == seat:
        info.append(" ★", style="bold yellow")
    lines: list[RenderableType] = [head, info]
    techs_text = ", ".join(
        f"{card_name(c, lang)} ({ERAS[CARDS.techs[c].era]})" for c in pv.techs
    ) or t(lang, "ccg.none")
    lines.append(
        Padding(Text(t(lang, "ccg.techs_line", techs=techs_text)), (0, 0, 0, 4), expand=False)
    )
    costs = Costs(obs, seat)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bright_black", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for i, (code, npop, on) in enumerate(pv.plots):
        name = Text(card_name(code, lang))
        name.append(f" [{code}]", style="bright_black")
        people = Text("●" * npop if npop else "·", style="bold" if npop else "bright_black")
        built = Text(", ".join(card_name(c, lang) for c in on))
        free = costs.free_slots(i)
        if free:
            built.append((" " if on else "") + "○" * free, style="bright_black")
        grid.add_row(f"    {i + 1}", name, _res_text(CARDS.plots[code].yields), people, built)
    lines.append(grid)
    return Group(*lines)


def markets(obs: Observation, lang: str, viewer: int | None) -> list[Text]:
    """The plot and tech markets (costs for the viewer) and the piles."""
    costs = Costs(obs, viewer) if viewer is not None else None
    head = (
        t(lang, "ccg.plot_market", cost=costs.plot())
        if costs is not None
        else t(lang, "ccg.plot_market_plain")
    )
    plots = Text(head + ": ", style="bold")
    for j, code in enumerate(obs.plot_market):
        if j:
            plots.append("  ·  ")
        plots.append(card_name(code, lang) + " ", style="")
        plots.append_text(_res_text(CARDS.plots[code].yields))
    if not obs.plot_market:
        plots.append(t(lang, "ccg.none"), style="bright_black")
    techs = Text(t(lang, "ccg.tech_market") + ": ", style="bold")
    cs = card_set_of(dict(obs.options))
    for j, code in enumerate(obs.tech_market):
        tc = cs.techs[code]
        if j:
            techs.append("  ·  ")
        techs.append(f"{card_name(code, lang)} ({ERAS[tc.era]}) ", style="")
        cost = costs.card(code) if costs is not None else tc.cost
        techs.append(f"{cost}C", style=RES_STYLES[2])
        if cost != tc.cost:
            techs.append(f" ({tc.cost}C)", style="bright_black")
    if not obs.tech_market:
        techs.append(t(lang, "ccg.none"), style="bright_black")
    piles = Text(
        t(
            lang,
            "ccg.piles",
            plots=obs.plot_pile,
            techs=obs.tech_pile,
            era=_era(obs.tech_top_era, lang),
            deck=obs.deck,
            discard=len(obs.discard),
            pop=obs.population_supply,
        ),
        style="bright_black",
    )
    return [plots, techs, piles]


def status_line(obs: Observation, names: Sequence[str], lang: str) -> Text:
    def who(s: int | None) -> str:
        return t(lang, "ccg.nobody") if s is None else seat_name(names, s)

    return Text(
        "★ " + t(lang, "ccg.status", culture=who(obs.status[0]), happiness=who(obs.status[1])),
        style="bold",
    )


def combat_lines(obs: Observation, names: Sequence[str], lang: str) -> list[Text]:
    """The combat in progress: declared units by defender with their state, blocks, stolen."""
    c = obs.combat
    if c is None:
        return []
    out = [
        Text("⚔ " + t(lang, "ccg.combat", attacker=seat_name(names, c.attacker)), style="bold red")
    ]
    for d in c.defenders:
        units = ", ".join(
            f"{card_name(u, lang)} ({t(lang, f'ccg.unit_state.{state}')})"
            for u, dd, state in c.units
            if dd == d
        )
        out.append(
            Text("   " + t(lang, "ccg.combat_against", seat=seat_name(names, d), units=units))
        )
    if c.blocks:
        blocks = ", ".join(
            f"{seat_name(names, d)}: "
            + t(lang, "ccg.move.block", attacker=card_name(a, lang), blocker=card_name(b, lang))
            for d, b, a in c.blocks
        )
        out.append(Text("   " + t(lang, "ccg.combat_blocks", blocks=blocks)))
    if c.stolen:
        out.append(Text("   " + t(lang, "ccg.combat_stolen", n=c.stolen)))
    return out


def hand_view(obs: Observation, lang: str) -> Group:
    """The viewer's own hand: each card with its cost after the viewer's discounts (C26),
    its resource value (C29) and what it does."""
    assert obs.seat is not None
    hand = obs.hand or ()
    head = Text(f"{t(lang, 'ui.your_hand')} ({len(hand)})", style="bold underline")
    if not hand:
        return Group(head, Text("  " + t(lang, "ui.empty"), style="bright_black"))
    costs = Costs(obs, obs.seat)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, style="bright_black")
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    counts: dict[str, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    for code, k in sorted(counts.items()):
        card = costs.cs.deck[code]
        name = Text("  • " + card_name(code, lang) + (f" ×{k}" if k > 1 else ""), style="bold")
        cost = Text()
        if card.kind != "unit":
            cost.append(t(lang, "ccg.cost", cost="").rstrip() + " ")
            cost.append(f"{costs.card(code)}H", style=RES_STYLES[1])
        cash = Text(t(lang, "ccg.cash_value", res="").rstrip() + " ")
        cash.append_text(_res_text(card.resource))
        grid.add_row(
            name, t(lang, f"ccg.kind.{card.kind}"), cost, cash, card_help(code, lang, costs.cs)
        )
    return Group(head, grid)


def move_groups(history: Sequence[str], movers: Sequence[int]) -> list[tuple[int, list[str]]]:
    """The moves as (mover, moves) runs of consecutive moves by one seat."""
    groups: list[tuple[int, list[str]]] = []
    for text, mover in zip(history, movers, strict=False):
        if groups and groups[-1][0] == mover:
            groups[-1][1].append(text)
        else:
            groups.append((mover, [text]))
    return groups


def group_line(mover: int, moves: Sequence[str], names: Sequence[str], lang: str) -> Text:
    line = Text()
    line.append(f"{seat_name(names, mover)}: ", style="bold")
    line.append(" · ".join(describe_move(m, names, lang, past=True) for m in moves))
    line.append("   [" + "; ".join(moves) + "]", style="bright_black")
    return line


def board(
    obs: Observation,
    names: Sequence[str],
    lang: str,
    *,
    movers: Sequence[int],
    recent: int = 6,
) -> Group:
    """The whole table as ``obs.seat`` may see it (None: a spectator, no hand shown)."""
    viewer = obs.seat
    parts: list[RenderableType] = [*title(obs, lang)]
    for s in range(obs.players):
        parts.append(empire(obs, s, names, lang, viewer))
    parts.append(Text(t(lang, "ccg.legend"), style="bright_black"))
    parts.append(Text(""))
    parts += markets(obs, lang, viewer)
    parts.append(status_line(obs, names, lang))
    if obs.draft is not None and obs.draft[1]:
        parts.append(Text(t(lang, "ccg.draft", plots=cards_text(obs.draft[1], lang)), style="bold"))
    parts += combat_lines(obs, names, lang)
    for _, thief, victim, card in obs.known_steals[-3:]:
        parts.append(
            Text(
                "✋ "
                + t(
                    lang,
                    "ccg.known_steal",
                    thief=seat_name(names, thief),
                    card=card_name(card, lang),
                    victim=seat_name(names, victim),
                ),
                style="magenta",
            )
        )
    parts.append(Text(""))
    head = Text(t(lang, "ui.recent"), style="bold underline")
    groups = move_groups(obs.history, movers)[-recent:]
    lines: list[RenderableType] = [head]
    if not groups:
        lines.append(Text(t(lang, "ui.no_moves"), style="bright_black"))
    for mover, moves in groups:
        line = group_line(mover, moves, names, lang)
        line.no_wrap = True
        line.overflow = "ellipsis"
        lines.append(line)
    parts += lines
    if not obs.finished and obs.to_move is not None:
        parts.append(Text(""))
        parts.append(turn_line(obs, names, lang))
        c = obs.combat
        if c is not None and viewer == obs.to_move and viewer != c.attacker:
            parts.append(
                Text(
                    "⚔ " + t(lang, "ccg.attacked_you", attacker=seat_name(names, c.attacker)),
                    style="bold red",
                )
            )
    if viewer is not None:
        parts.append(hand_view(obs, lang))
    return Group(*parts)


def turn_line(obs: Observation, names: Sequence[str], lang: str) -> Text:
    mover = obs.to_move
    assert mover is not None
    if mover == obs.seat:
        txt = Text(t(lang, "ui.your_turn"), style="bold green")
    else:
        txt = Text(t(lang, "ui.turn_of", name=seat_name(names, mover)), style="bold green")
    txt.append(" — " + step_name(obs.step, lang))
    if obs.used:
        used = ", ".join(card_name(c, lang) for c in obs.used)
        txt.append("   " + t(lang, "ccg.used", cards=used), style="bright_black")
    return txt


# -- help ------------------------------------------------------------------------------------


def help_view(lang: str, cs: CardSet = CARDS) -> Group:
    """The rules in short, how to enter moves, and every card of the (reconstructed) set
    ``cs`` (the game's; the original by default)."""
    parts: list[RenderableType] = [
        Rule(t(lang, "ccg.help.title")),
        Text("⚠ " + reconstructed(lang, cs.set_name), style="bold"),
        Text(""),
        Text(t(lang, "ccg.help.turn")),
        Text(""),
        Text(t(lang, "ccg.help.moves"), style="bright_black"),
        Text(""),
        Text(t(lang, "ccg.help.cards", note=reconstructed(lang)), style="bold underline"),
    ]

    def table(heading: str) -> Table:
        tab = Table(
            title=heading, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, expand=False
        )
        tab.add_column(t(lang, "ccg.help.col_card"), no_wrap=True)
        tab.add_column(t(lang, "ccg.help.col_cost"), no_wrap=True)
        tab.add_column(t(lang, "ccg.help.col_icons"), no_wrap=True, justify="center")
        tab.add_column(t(lang, "ccg.help.col_cash"), no_wrap=True)
        tab.add_column(t(lang, "ccg.help.col_what"), overflow="fold")
        return tab

    def label(code: str) -> Text:
        out = Text(card_name(code, lang), style="bold")
        out.append(f" {code}", style="bright_black")
        return out

    plots = table(t(lang, "ccg.help.plots"))
    for code, p in sorted(cs.plots.items()):
        plots.add_row(
            label(code),
            "",
            "",
            "",
            Text.assemble(
                (t(lang, "ccg.yields", res="").rstrip() + " ", ""),
                _res_text(p.yields),
                (f"   {t(lang, 'ccg.help.count', n=p.count)}", "bright_black"),
            ),
        )
    techs = table(t(lang, "ccg.help.techs"))
    for code, tc in sorted(cs.techs.items(), key=lambda kv: (kv[1].era, kv[0])):
        techs.add_row(
            label(code),
            Text.assemble(
                (f"{tc.cost}C", RES_STYLES[2]),
                (f"  {t(lang, 'ccg.help.era', era=ERAS[tc.era])}", "bright_black"),
            ),
            f"{tc.culture}/{tc.happiness}",
            "",
            card_help(code, lang, cs),
        )
    tables = [plots, techs]
    for kind, key in (("building", "buildings"), ("wonder", "wonders"), ("unit", "units")):
        tab = table(t(lang, f"ccg.help.{key}"))
        for code, d in sorted(cs.deck.items()):
            if d.kind != kind:
                continue
            what = card_help(code, lang, cs)
            if kind != "wonder":
                what += f"   ({t(lang, 'ccg.help.count', n=d.count)})"
            tab.add_row(
                label(code),
                Text(f"{d.cost}H", style=RES_STYLES[1]) if kind != "unit" else Text(""),
                f"{d.culture}/{d.happiness}" if kind != "unit" else "",
                _res_text(d.resource),
                what,
            )
        tables.append(tab)
    return Group(*parts, *tables, Text(t(lang, "ccg.legend"), style="bright_black"))


# -- the result --------------------------------------------------------------------------------


def result_view(g: GameState, names: Sequence[str], lang: str) -> Group:
    """Who won and how, with every seat's VP and tie-break counts (C68-C70)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=t(lang, "ccg.result.scores"))
    table.add_column(t(lang, "ui.seat"), no_wrap=True)
    table.add_column("VP", justify="right")
    table.add_column(t(lang, "ccg.target.tech"), justify="right")
    table.add_column(t(lang, "ccg.target.population"), justify="right")
    table.add_column(t(lang, "ccg.target.wonder"), justify="right")
    winners = set(g.winners)
    for s, (vp, techs, pop, wonders) in enumerate(g.scores):
        label = Text(f"{s} {seat_name(names, s)}", style="bold green" if s in winners else "")
        table.add_row(label, str(vp), str(techs), str(pop), str(wonders))
    return Group(
        Text(t(lang, "ui.game_over"), style="bold reverse"),
        Text(winners_text(g, names, lang), style="bold green"),
        table,
        Text(t(lang, "ccg.result.tiebreak"), style="bright_black"),
    )


# -- menus -------------------------------------------------------------------------------------

_KIND_ORDER = {
    k: i
    for i, k in enumerate(
        (
            "proposed",
            "end",
            "pick",
            "settle",
            "collect",
            "discard",
            "walls",
            "defend",
            "damage",
            "place",
            "tech",
            "pop",
            "plot",
            "build",
            "use",
            "cash",
            "trade",
            "attack",
        )
    )
}


def _blocks(text: str) -> list[tuple[str, str]]:
    """``defend ARC>AXE SPR>CHR`` → ``[("ARC", "AXE"), ("SPR", "CHR")]``."""
    out = []
    for w in text.split():
        blocker, sep, attacker = w.partition(">")
        if sep:
            out.append((blocker, attacker))
    return sorted(out)


def leads_to(step: str, move: str) -> bool:
    """Whether ``step`` (a choice; a step ends in ``?`` or ``?CODE``) is ``move`` or can end in it.

    >>> leads_to("plot FOR ?", "plot FOR 3F2H"), leads_to("plot FOR 5F ?", "plot FOR 3F2H")
    (True, False)
    >>> leads_to("attack 1=? 2=?", "attack 1=CHR 2=AXE"), leads_to("attack 1=?", "attack 1=CHR 2=AXE")
    (True, False)
    >>> leads_to("defend ARC>AXE ?CAT", "defend ARC>AXE SPR>CHR"), leads_to("discard ARC ?", "discard ARC,GRN")
    (True, True)
    """
    words = step.split()
    if not any(w.startswith("?") or w.endswith("?") for w in words):
        return step == move
    tail = words[-1].startswith("?")
    body = words[:-1] if tail else words
    nxt = words[-1][1:] if tail else ""
    mw = move.split()
    if not body or not mw or body[0] != mw[0]:
        return False
    kind = body[0]
    try:
        if kind == "plot" and len(body) == 3:
            return body[1] == mw[1] and civ4.parse_move(move).res[0] == int(body[2][:-1])
        if kind == "attack":
            want = dict(civ4.parse_move(move).attack)
            seats = set()
            for term in body[1:]:
                s, _, lst = term.partition("=")
                seats.add(int(s))
                if lst != "?" and tuple(lst.split(",")) != want.get(int(s)):
                    return False
            return not body[1:] or seats == set(want)
        if kind == "defend":
            have = _blocks(" ".join(body))
            need = [b for b in _blocks(move) if nxt and b[1] < nxt]
            return have == sorted(need)
        if kind == "damage":
            if len(body) < 3:
                return True
            steal = () if body[2] == "-" else tuple(int(x[1:]) for x in body[2].split(","))
            return steal == civ4.parse_move(move).plots
        if kind in ("discard", "place"):
            if len(body) < 2:
                return True
            got = body[1].split(",")
            return mw[1].split(",")[: len(got)] == got
        prefix = " ".join(body)
        return move == prefix or move.startswith(prefix + " ")
    except (civ4.NotationError, ValueError, IndexError):
        return False


def proposal(g: GameState, texts: Sequence[str]) -> str | None:
    """The one of ``texts`` (the choices of the seat to move, or a level below a step) that
    is, or leads to, the engine's proposed move (:func:`civcards.civ4.default_move`)."""
    if g.finished or g.to_move is None or not texts:
        return None
    first = texts[0].split()
    kinds = {x.split(" ", 1)[0] for x in texts}
    try:
        if g.step != "purchase":
            want = civ4.default_move(g)
        elif len(kinds) > 1:
            return None  # the purchase menu itself: ``end`` comes first anyway
        elif first[0] == "plot":
            want = civ4.default_move(g, f"plot {first[1]} ?")
        elif first[0] in ("build", "use") and len(first) >= 3:
            want = civ4.default_move(g, f"{first[0]} {first[1]} {first[2]} ?")
        elif first[0] == "attack":
            want = civ4.default_move(g, "attack ?")
        else:
            return None
    except (ValueError, IndexError):
        return None
    for x in texts:
        if x == want:
            return x
    for x in texts:
        if leads_to(x, want):
            return x
    return None


class Civ4Screen:
    """civ4's :class:`civcards.terminal.protocol.TerminalScreen`.

    The terminal's session plays one mutable state from start to end, and calls
    :meth:`moves_made` with it first; the screen keeps that state to propose the
    default choice of the seat to move when it orders a menu (:meth:`order`).
    """

    def __init__(self) -> None:
        self._state: GameState | None = None
        self._proposed: str | None = None

    def _see(self, state: GameState) -> None:
        self._state = state

    def movers(self, state: GameState) -> list[int]:
        """Who made each move so far (C72: whose turn and which step is public)."""
        self._see(state)
        return movers(state)

    # -- the protocol ----------------------------------------------------------------------

    def board(
        self,
        state: GameState,
        viewer: int | None,
        names: Sequence[str],
        lang: str,
        *,
        final: bool = False,
    ) -> RenderableType:
        movers = self.movers(state)
        if final:
            return board(observe(state, None), names, lang, movers=movers, recent=state.n + 2)
        return board(observe(state, viewer), names, lang, movers=movers, recent=state.n + 4)

    def help(self, state: GameState, lang: str) -> RenderableType:
        self._see(state)
        return help_view(lang, state.cs)

    def log(self, state: GameState, viewer: int, names: Sequence[str], lang: str) -> RenderableType:
        obs = observe(state, viewer)
        groups = move_groups(obs.history, self.movers(state))
        head = Text(t(lang, "ui.all_moves"), style="bold underline")
        lines = [group_line(m, moves, names, lang) for m, moves in groups]
        return Group(head, *(lines or [Text(t(lang, "ui.no_moves"))]))

    def result(self, state: GameState, names: Sequence[str], lang: str) -> RenderableType:
        return result_view(state, names, lang)

    def moves_made(self, state: GameState) -> int:
        self._see(state)
        return len(state.moves)

    def spectator_line(
        self, state: GameState, start: int, turn: int, names: Sequence[str], lang: str
    ) -> RenderableType:
        movers = self.movers(state)
        obs = observe(state, None)
        line = Text(f"{t(lang, 'ccg.round', n=turn)} ", style="bright_black")
        for i, (mover, moves) in enumerate(move_groups(obs.history[start:], movers[start:])):
            if i:
                line.append(" | ")
            line.append_text(group_line(mover, moves, names, lang))
        return line

    def order(self, texts: Sequence[str]) -> list[str]:
        out = sorted(texts, key=lambda x: (_KIND_ORDER.get(x.split(" ", 1)[0], 99), x))
        g = self._state
        self._proposed = proposal(g, out) if g is not None else None
        if self._proposed is not None:
            out.remove(self._proposed)
            out.insert(0, self._proposed)
        return out

    def kind(self, text: str) -> str:
        if text == self._proposed:
            return "proposed"
        return text.split(" ", 1)[0]

    def group_label(self, kind: str, count: int, lang: str) -> str:
        try:
            what = t(lang, f"ccg.menu.{kind}")
        except KeyError:
            what = kind
        return t(lang, "ccg.group", what=what, count=count)

    def hidden_step(
        self, state: GameState, text: str, choices: Sequence[Choice], lang: str
    ) -> tuple[Choice, str] | None:
        return None  # no civ4 step hides cards: every expansion shows public facts or your own

    def unreadable(self, text: str, error: str) -> str:
        try:
            civ4.parse_move(text)
        except civ4.NotationError as e:
            return str(e)
        return error  # pragma: no cover - called for unreadable moves only

    def refusal(self, state: GameState, text: str) -> str:
        try:
            state.copy().apply(text)
        except civ4.IllegalMoveError as e:
            return e.reason
        except civ4.NotationError as e:  # pragma: no cover - the text was read already
            return str(e)
        return text  # pragma: no cover - refusal is asked for moves that are refused

    def reveal(
        self,
        state: GameState,
        seat: int,
        step: Choice,
        expansion: Expansion,
        names: Sequence[str],
        lang: str,
    ) -> list[RenderableType]:
        return []  # no hidden steps (see hidden_step)


__all__ = ["Civ4Screen", "Costs", "board", "help_view", "leads_to", "proposal", "result_view"]

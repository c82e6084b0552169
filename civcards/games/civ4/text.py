"""Civilization: The Card Game in words, for every user interface (no Rich, no HTML).

The card set is RECONSTRUCTED: the original card list was never published.

>>> describe_move("build GRN p2", ["Ada", "Bo"])
'build a Granary on plot 2'
>>> describe_move("attack 1=CHR,CHR", ["Ada", "Bo"], past=True)
'attacked Bo with Chariot ×2'
"""

from __future__ import annotations

from collections.abc import Sequence

from ...civ4 import CARDS, GameState

RECONSTRUCTED = "reconstructed card set: the original card list was never published"

_RES = {"F": "food", "H": "hammers", "C": "coins"}


def card_name(code: str) -> str:
    """The English name of a card code (the code itself if unknown)."""
    try:
        return CARDS.name(code)
    except KeyError:
        return code


def cards_text(codes: Sequence[str]) -> str:
    """``ARC,ARC,GRN`` → ``Archers ×2, Granary``."""
    counts: dict[str, int] = {}
    for c in codes:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(
        card_name(c) + (f" ×{k}" if k > 1 else "") for c, k in sorted(counts.items())
    )


def resources_text(token: str) -> str:
    """``2F1C`` → ``2 food, 1 coins``; ``0`` → ``nothing``."""
    if token == "0":
        return "nothing"
    out: list[str] = []
    num = ""
    for ch in token:
        if ch.isdigit():
            num += ch
        else:
            out.append(f"{num} {_RES.get(ch, ch)}")
            num = ""
    return ", ".join(out)


def _list(token: str) -> list[str]:
    return [t for t in token.split(",") if t]


def _plots(token: str) -> str:
    nums = [t[1:] for t in _list(token)]
    return "plot " + nums[0] if len(nums) == 1 else "plots " + ", ".join(nums)


def describe_move(text: str, names: Sequence[str], *, past: bool = False) -> str:
    """A move in English words; unknown shapes are returned as written."""
    w = text.split()
    if not w:
        return text
    k = w[0]

    def verb(now: str, then: str) -> str:
        return then if past else now

    def seat(s: str) -> str:
        i = int(s)
        return names[i] if 0 <= i < len(names) else f"seat {i}"

    try:
        if k == "pick":
            return f"{verb('take', 'took')} the plot {card_name(w[1])}"
        if k == "settle" and len(w) == 2:
            return f"{verb('settle', 'settled')} the free population on plot {w[1][1:]}"
        if k == "discard":
            return f"{verb('discard', 'discarded')} {cards_text(_list(w[1]))}" if len(w) > 1 else text
        if k == "collect":
            return verb("collect", "collected") + (
                "" if len(w) == 1 else " (population: " + ", ".join(w[1:]) + ")"
            )
        if k == "cash":
            return f"{verb('cash', 'cashed')} {card_name(w[1])}"
        if k == "trade":
            return f"{verb('trade', 'traded')} {resources_text(w[1])} for {resources_text(w[2])}"
        if k == "pop":
            return f"{verb('buy', 'bought')} a population for plot {w[1][1:]}"
        if k == "plot":
            return f"{verb('buy', 'bought')} the plot {card_name(w[1])}, paying {resources_text(w[2])}"
        if k == "tech":
            return f"{verb('buy', 'bought')} {card_name(w[1])}"
        if k == "build":
            out = f"{verb('build', 'built')} a {card_name(w[1])} on plot {w[2][1:]}"
            if len(w) == 5 and w[3] == "settle":
                out += f", settling {_plots(w[4])}"
            elif len(w) == 5 and w[3] == "free":
                out += f", taking {cards_text(_list(w[4]))} free"
            return out
        if k == "use":
            out = f"{verb('use', 'used')} {card_name(w[1])} against {seat(w[2])}"
            if len(w) == 4:
                out += f", taking {resources_text(w[3])}"
            return out
        if k == "end":
            return verb("end the purchases", "ended the purchases")
        if k == "attack":
            targets = []
            for term in w[1:]:
                s, _, units = term.partition("=")
                targets.append(f"{seat(s)} with {cards_text(_list(units))}")
            return f"{verb('attack', 'attacked')} " + "; ".join(targets)
        if k == "walls":
            parts: list[str] = []
            i = 1
            while i + 1 < len(w):
                if w[i] == "lose":
                    parts.append(f"City Walls lost on {_plots(w[i + 1])}")
                elif w[i] == "bounce":
                    parts.append(f"{cards_text(_list(w[i + 1]))} bounced")
                i += 2
            return "walls: " + ("; ".join(parts) or "nothing")
        if k == "defend":
            if len(w) == 1:
                return verb("block nothing", "blocked nothing")
            pairs = [t.split(">") for t in w[1:]]
            return f"{verb('block', 'blocked')} " + ", ".join(
                f"{card_name(a)} with {card_name(b)}" for b, a in pairs
            )
        if k == "damage":
            parts = []
            i = 1
            while i + 1 < len(w):
                if w[i] == "steal":
                    parts.append(f"population taken from {_plots(w[i + 1])}")
                elif w[i] == "destroy":
                    parts.append(
                        "destroyed "
                        + ", ".join(f"{card_name(t.split(':')[1])} on plot {t.split(':')[0][1:]}" for t in _list(w[i + 1]))
                    )
                i += 2
            return "damage: " + ("; ".join(parts) or "none")
        if k == "place":
            return f"{verb('place', 'placed')} the stolen population on {_plots(w[1])}"
    except (IndexError, ValueError):
        return text
    return text


def winners_text(g: GameState, names: Sequence[str]) -> str:
    """Who won and how (C68–C70)."""
    how = "the last technology was bought" if g.reason == "last_tech" else "round 50 ended"
    who = " and ".join(f"{names[s]} ({s})" for s in g.winners)
    vp = g.scores[g.winners[0]][0] if g.winners else 0
    verb = "wins" if len(g.winners) == 1 else "share the victory"
    return f"{who} {verb} with {vp} VP: {how}."

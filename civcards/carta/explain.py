"""Plain-language reasons why a move is not legal now, citing the rules.

The truth about legality is :meth:`GameState.legal_moves`; this module only
finds the words. It never names a card that the mover cannot see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CULTURE, DOMAIN_NAMES, LETTER_INDEX, LETTERS, MILITARY
from .effects import DISCARD_DOMAIN
from .moves import EFFECT_OF_KIND, Move

if TYPE_CHECKING:
    from .state import State as GameState

_TITLE = {
    "assassination": "Assassination",
    "purge": "Purge",
    "holybook": "Holy Book",
    "divineright": "Divine Right",
    "development": "Development",
    "monopoly": "Monopoly",
    "experiment": "Experiment",
    "research": "Research",
    "oligarchy": "Oligarchy",
    "republic": "Republic",
    "attack": "Attack",
    "inquisition": "Inquisition",
    "embargo": "Embargo",
    "discovery": "Discovery",
    "democracy": "Democracy",
    "inspiration": "Inspiration",
}


def _name(d: int) -> str:
    return DOMAIN_NAMES[d]


def _lacks(counts: list[int], cards: str) -> str | None:
    need = [0] * 6
    for ch in cards:
        need[LETTER_INDEX[ch]] += 1
    for d in range(6):
        if need[d] > counts[d]:
            return _name(d)
    return None


_ONE_CARD = ("play", "keep", "take", "assassination", "attack", "embargo", "democracy", "oligarchy")


def why_illegal(g: GameState, m: Move) -> str:
    """A sentence saying why ``m`` is not legal in ``g`` (assumed illegal)."""
    try:
        return _why(g, m)
    except (KeyError, IndexError, ValueError, AssertionError):  # pragma: no cover - safety net
        return "this move is not legal in this position"


def _why(g: GameState, m: Move) -> str:
    me = g.active
    if m.kind in _ONE_CARD and len(m.cards) != 1:
        return f"'{m.kind}' names exactly one card"
    if (
        m.kind == "inspiration"
        and m.copy is not None
        and m.copy.kind in _ONE_CARD
        and len(m.copy.cards) != 1
    ):
        return f"'{m.copy.kind}' names exactly one card"
    who = f"seat {me}"
    k = m.kind
    if g.phase == "over":
        return "the game is over"
    if g.phase == "draft":
        if k not in ("keep", "take"):
            return "the draft is under way: the move is 'keep X' or 'take X' (R8)"
        if g.draft_step < 3 and k == "take":
            return f"{who} must keep a card first; centre cards are taken in step 4 (R8)"
        if g.draft_step >= 3 and k == "keep":
            return "every card has been kept; now each player takes a centre card (R8.4)"
        if k == "keep":
            return (
                f"the cards {who} holds in the draft include no {_name(LETTER_INDEX[m.cards])} card"
            )
        return f"no {_name(LETTER_INDEX[m.cards])} card is left in the centre (R8.4)"
    if k in ("keep", "take"):
        return "the draft is over"
    if g.phase == "play" and k != "play":
        return f"{who} must first play a card from their hand (phase 1, R9)"
    if g.phase == "effects" and k == "play":
        if not _played_this_turn(g):
            d = LETTER_INDEX[m.cards]
            if g.hands[me][d] and g.embargoed >> d & 1:
                return (
                    f"{_name(d)} is under Embargo for {who} this turn (R17), so phase 1 "
                    f"was skipped: no card in the hand may be played (R9)"
                )
            return f"phase 1 was skipped: no card in {who}'s hand may be played (R9); now effects or 'end' (R10)"
        return f"{who} has already played the card of phase 1; now effects or 'end' (R10)"
    hand = g.hands[me]
    area = g.areas[me]
    if k == "play":
        d = LETTER_INDEX[m.cards]
        if not hand[d]:
            return f"{who} has no {_name(d)} card in hand"
        if g.embargoed >> d & 1:
            return f"{_name(d)} is under Embargo for {who} this turn (R17)"
        return "this card cannot be played now"
    if k in ("holybook", "divineright"):
        return "Holy Book and Divine Right act by themselves at phase 3; they are moves only inside Inspiration (R16, R19)"
    if k == "inspiration":
        return _why_inspiration(g, m)
    if k in EFFECT_OF_KIND:
        d, lvl = EFFECT_OF_KIND[k]
        need = g.l1 if lvl == 1 else g.l2
        if area[d] < need:
            return (
                f"{_TITLE[k]} needs {need} {_name(d)} cards in {who}'s play area, "
                f"who has {area[d]} (R6, R11)"
            )
        if g.used_perm >> d & 1:
            return f"{who} has already used a permanent {_name(d)} effect this turn (R10)"
        return _why_choices(g, m, who)
    if k in DISCARD_DOMAIN:
        d = DISCARD_DOMAIN[k]
        if not area[d]:
            return f"{_TITLE[k]} needs a {_name(d)} card in {who}'s play area to discard (R12)"
        if g.used_disc >> d & 1:
            return f"{who} has already used the {_name(d)} discard effect this turn (R10)"
        return _why_choices(g, m, who)
    return "this move is not legal now"


def _shortage(where: str, counts: list[int], cards: str, lack: str, rules: str) -> str:
    """``where`` holds fewer ``lack`` cards than ``cards`` names (public zones only)."""
    d = DOMAIN_NAMES.index(lack)
    have = counts[d]
    if not have:
        return f"{where} holds no {lack} card ({rules})"
    need = cards.count(LETTERS[d])
    return (
        f"{where} holds {have} {lack} card{'s' if have > 1 else ''}, not the {need} named ({rules})"
    )


def _played_this_turn(g: GameState) -> bool:
    """Whether the active player played a card in phase 1 of this turn (R9)."""
    me = g.active
    for i in range(len(g.history) - 1, -1, -1):
        kind = g.history[i].kind
        if g.movers[i] != me or kind in ("end", "keep", "take"):
            return False
        if kind == "play":
            return True
    return False


def _why_choices(g: GameState, m: Move, who: str) -> str:
    k = m.kind
    me = g.active
    hand = g.hands[me]
    area = g.areas[me]
    if k in ("inquisition", "embargo", "democracy") and not (0 <= m.seat < g.n and m.seat != me):
        return f"{_TITLE[k]} targets another player, a seat from 0 to {g.n - 1} other than {me}"
    if k in ("assassination", "purge"):
        if not sum(hand):
            return f"{who}'s hand is empty (R15)"
        want = 1 if k == "assassination" else min(2, sum(hand))
        if len(m.cards) != want:
            return f"{_TITLE[k]} discards {want} card{'s' if want > 1 else ''} from the hand (R15)"
        lack = _lacks(hand, m.cards)
        if lack:
            return f"{who} does not hold the {lack} card{'s' if m.cards.count(lack[0]) > 1 else ''} named"
    if k == "attack":
        d = LETTER_INDEX[m.cards]
        if area[d] - (d == MILITARY) < 1:
            return f"after discarding the Military card {who} has no {_name(d)} card in play to attack with (R15)"
    if k in ("embargo", "democracy"):
        d = LETTER_INDEX[m.cards]
        if len(m.cards) != 1:
            return f"{_TITLE[k]} names one domain"
        if not g.areas[m.seat][d]:
            return f"seat {m.seat} has no {_name(d)} card in their play area (R17, R20)"
    if k == "inquisition":
        size = sum(g.hands[m.seat])
        if len(m.cards) != size:
            return f"{who} must give back exactly as many cards as seat {m.seat} held (R16)"
        return f"{who} cannot give back those cards from the cards they hold after taking seat {m.seat}'s hand (R16)"
    if k == "discovery":
        want = min(5, len(g.deck))
        if len(m.cards) != want:
            return f"Discovery discards exactly {want} card{'s' if want != 1 else ''} (R18)"
        return f"{who} does not hold those cards after drawing (R18)"
    if k in ("development", "monopoly", "experiment", "research"):
        lvl = EFFECT_OF_KIND[k][1]
        if len(m.cards) != lvl:
            return f"{_TITLE[k]} {'discards' if k in ('development', 'monopoly') else 'returns'} {lvl} card{'s' if lvl > 1 else ''} from the play area (R17, R18)"
        lack = _lacks(area, m.cards)
        if lack:
            return _shortage(f"{who}'s play area", area, m.cards, lack, "R17, R18")
        return f"{who} must play {'as many cards as they can' if lvl > 1 else 'a card if they can'}, of domains not under Embargo, from the hand (R17, R18)"
    if k in ("oligarchy", "republic"):
        if not sum(g.discard):
            return "the discard pile is empty (R20)"
        lack = _lacks(g.discard, m.cards)
        if lack:
            return _shortage("the discard pile", g.discard, m.cards, lack, "R20")
        return f"{_TITLE[k]} takes {'1 card' if k == 'oligarchy' else '2 cards (1 if the pile holds 1)'} from the discard pile (R20)"
    return "the cards named do not fit the position"


def _why_inspiration(g: GameState, m: Move) -> str:
    me = g.active
    areas = g.areas
    mine = areas[me][CULTURE]
    if g.inspired:
        return "Inspiration has already been used this turn (R19)"
    if not 0 <= m.seat < g.n or m.seat == me:
        return "Inspiration copies from another player's seat (R19)"
    if any(areas[s][CULTURE] >= mine for s in range(g.n) if s != me):
        return f"seat {me} needs strictly more Culture cards than every other player (R19)"
    sub = m.copy
    assert sub is not None
    d, lvl = EFFECT_OF_KIND[sub.kind]
    need = g.l1 if lvl == 1 else g.l2
    if areas[m.seat][d] < need:
        return f"seat {m.seat} cannot use {_TITLE[sub.kind]} now: it needs {need} {_name(d)} cards (R11, R19)"
    if g.level(me, d) >= lvl:
        return f"seat {me} can already use {_TITLE[sub.kind]} and may not copy it (R19)"
    if g.used_perm >> d & 1:
        return f"seat {me} has already used a permanent {_name(d)} effect this turn (R10, R19)"
    return "the copied effect's choices do not fit: " + _why_choices(g, sub, f"seat {me}")


__all__ = ["LETTERS", "why_illegal"]

"""Move execution: how a legal move changes a game, and the turns and ends it leads to.

:func:`apply` checks a move and plays it; :func:`apply_unchecked` plays a move known
to be legal: a card played (R13), an effect (R10-R20, its cards moved by
:func:`~civcards.carta.effects.move_cards`), Inspiration (R19), the draft (R8), the
end of a turn (R13 phase 3, R17) with a hegemony (R21) or the final scoring (R22, R24).
"""

from __future__ import annotations

from .cards import CULTURE, ECONOMY, LETTER_INDEX, TIE_BREAK_ORDER, counts_to_str
from .effects import DISCARD_DOMAIN, EFFECT_DOMAIN, PERMANENT_DOMAIN, move_cards
from .explain import why_illegal
from .legal import is_legal
from .moves import Move, parse_move
from .state import EFFECTS, EMBARGO, OVER, PLAY, IllegalMoveError, State


def apply(g: State, move: Move | str) -> None:
    """Play ``move`` (a :class:`Move` or its notation) for :attr:`to_move`.

    Raises :class:`IllegalMoveError` and leaves the state unchanged when the
    move is not legal now; :class:`~civcards.carta.moves.NotationError`
    when the text cannot be read.
    """
    if isinstance(move, str):
        move = parse_move(move)
    if not is_legal(g, move):
        raise IllegalMoveError(move, why_illegal(g, move))
    apply_unchecked(g, move)


def apply_unchecked(g: State, m: Move) -> None:
    """Play a move known to be legal (from :meth:`legal_moves`), unchecked."""
    me = g.active
    g.history.append(m)
    g.movers.append(me)
    k = m.kind
    if k == "play":
        move_cards(m, me, g.hands[me], g.areas, g.discard)
        g.phase = EFFECTS
    elif k == "end":
        end_turn(g)
        return
    elif k == "keep" or k == "take":
        draft(g, m)
        return
    elif k == "inspiration":
        sub = m.copy
        assert sub is not None
        d = EFFECT_DOMAIN[sub.kind][0]
        g.inspired = True
        g.used_perm |= 1 << d
        g.used_log.append("inspiration")
        g.coin = (me, m.seat, d)
        if sub.kind == "holybook":
            g.copied_hand = 5
        elif sub.kind == "divineright":
            g.copied_hand = 7
        else:
            effect(g, sub, me)
    else:
        effect(g, m, me)
    if g.coin is not None:
        check_coin(g)


def check_coin(g: State) -> None:
    """R19: the coin of Inspiration returns when its holder no longer has the most Culture."""
    coin = g.coin
    assert coin is not None
    h = coin[0]
    mine = g.areas[h][CULTURE]
    for s in range(g.n):
        if s != h and g.areas[s][CULTURE] >= mine:
            g.coin = None
            return


def effect(g: State, m: Move, me: int) -> None:
    """Play the effect ``m`` (R10-R20) for ``me``, marking it used this turn."""
    k = m.kind
    hand = g.hands[me]
    if k in PERMANENT_DOMAIN:
        g.used_perm |= 1 << PERMANENT_DOMAIN[k]
    else:
        g.used_disc |= 1 << DISCARD_DOMAIN[k]
    g.used_log.append(k)
    # the cards that move without a hidden one (R15-R20), then the rest of the effect
    move_cards(m, me, hand, g.areas, g.discard)
    li = LETTER_INDEX
    if k == "inquisition":
        # R16: the target's hand for the cards given back
        target = g.hands[m.seat]
        old = counts_to_str(target)
        for d in range(6):
            hand[d] += target[d]
            target[d] = 0
        for ch in m.cards:
            d = li[ch]
            hand[d] -= 1
            target[d] += 1
        at = len(g.history) - 1
        g.learned[me].append(("inquisition_saw", at, m.seat, old))
        g.learned[m.seat].append(("inquisition_got", at, me, old, m.cards))
    elif k == "embargo" or k == "democracy":
        g.markers.append((m.seat, li[m.cards], k, me))
        g.markers.sort()
    elif k == "discovery":
        # R18: draw up to five cards, then discard as many as the move names
        pile = g.discard
        deck = g.deck
        drawn = min(5, len(deck))
        if drawn:
            for _ in range(drawn):
                hand[deck.pop()] += 1
            if not deck:
                g.last_round = True
        for ch in m.cards:
            d = li[ch]
            hand[d] -= 1
            pile[d] += 1


#: the former names of :meth:`raw_moves`, :meth:`folded_moves` and :meth:`step_moves`


def end_turn(g: State) -> None:
    """R13 phase 3 and after: draw, end embargoes (R17), hegemony (R21) or the next turn."""
    me = g.active
    hand = g.hands[me]
    # R13 phase 3: draw up to the hand size
    need = g.hand_size(me) - sum(hand)
    deck = g.deck
    if need > 0 and deck:
        for _ in range(min(need, len(deck))):
            hand[deck.pop()] += 1
        if not deck:
            g.last_round = True
    # R17: embargoes on the active player end with their turn
    if g.markers:
        keep = []
        for mk in g.markers:
            if mk[0] == me and mk[2] == EMBARGO:
                g.discard[ECONOMY] += 1
            else:
                keep.append(mk)
        g.markers = keep
    # R21: hegemony of the active player only
    area = g.areas[me]
    heg = g.heg
    for d in range(6):
        if area[d] >= heg and (not g.markers or area[d] >= heg + g.democracy_on(me, d)):
            g.winners = [me, (me + 2) % 4] if g.teams else [me]
            g.winners.sort()
            g.victory = "hegemony"
            g.victory_domain = d
            finish(g)
            return
    nxt = (me + 1) % g.n
    if g.last_round and nxt == g.start:
        score_majorities(g)
        return
    start_turn(g, nxt)


def finish(g: State) -> None:
    """End the game (its winners and victory already set)."""
    g.phase = OVER


def start_turn(g: State, seat: int) -> None:
    """Begin the turn of ``seat``: its phase 1 (R9) unless no card may be played."""
    g.active = seat
    g.turn += 1
    g.used_perm = 0
    g.used_disc = 0
    g.used_log = []
    g.inspired = False
    g.copied_hand = 0
    if g.coin is not None and g.coin[0] == seat:
        g.coin = None  # R19: the coin returns at the holder's next turn
    emb = 0
    for s, d, k, _ in g.markers:
        if s == seat and k == EMBARGO:
            emb |= 1 << d
    g.embargoed = emb
    hand = g.hands[seat]
    # R9: phase 1 is skipped only when no card may be played
    g.phase = EFFECTS
    for d in range(6):
        if hand[d] and not emb >> d & 1:
            g.phase = PLAY
            break


def score_majorities(g: State) -> None:
    """R22 (and R24 for teams): score the majorities and name the winners."""
    n = g.n
    areas = g.areas
    pts = majority_points(areas, g.teams)

    def key(s: int) -> tuple[int, ...]:
        if g.teams:  # R24 ruling: the teams' summed cards break a tie
            t = s % 2
            return (
                pts[t],
                *(sum(areas[x][d] for x in range(n) if x % 2 == t) for d in TIE_BREAK_ORDER),
            )
        return (pts[s], *(areas[s][d] for d in TIE_BREAK_ORDER))

    top = max(key(s) for s in range(n))
    g.winners = [s for s in range(n) if key(s) == top]
    g.points = pts
    g.victory = "majority"
    finish(g)


# -- the draft (R8) ---------------------------------------------------------


def draft(g: State, m: Move) -> None:
    """A keep or take of the draft (R8)."""
    me = g.active
    d = LETTER_INDEX[m.cards]
    n = g.n
    if m.kind == "keep":
        g.draft_hold[me][d] -= 1
        move_cards(m, me, g.hands[me], g.areas, g.discard)
        if (me + 1) % n != g.start:
            g.active = (me + 1) % n
            return
        # everyone has kept: pass left, or (step 3) the rest to the centre
        g.draft_step += 1
        if g.draft_step < 3:
            hold = g.draft_hold
            g.draft_hold = [hold[(s - 1) % n] for s in range(n)]
            for s in range(n):
                got = counts_to_str(g.draft_hold[s])
                g.learned[s].append(("draft_received", g.draft_step, (s - 1) % n, got))
            g.active = g.start
        else:
            for h in g.draft_hold:
                for dd in range(6):
                    g.draft_centre[dd] += h[dd]
                    h[dd] = 0
            g.draft_order = [(g.start - 1 - i) % n for i in range(n)]
            g.active = g.draft_order[0]
    else:  # take
        g.draft_centre[d] -= 1
        move_cards(m, me, g.hands[me], g.areas, g.discard)
        g.draft_order.pop(0)
        if g.draft_order:
            g.active = g.draft_order[0]
        else:
            g.turn = 0
            start_turn(g, g.start)
            g.turn = 1


def majority_points(areas: list[list[int]], teams: bool = False) -> list[int]:
    """Majority points (R22) by seat, or by team ``[seats 0+2, seats 1+3]`` (R24).

    Each player with the most cards of a domain (at least one) scores 1; tied
    players all score. A team scores at most 1 per domain.

    >>> majority_points([[2, 0, 1, 0, 0, 0], [2, 1, 0, 0, 0, 0]])
    [2, 2]
    """
    n = len(areas)
    pts = [0, 0] if teams else [0] * n
    for d in range(6):
        best = max(a[d] for a in areas)
        if best == 0:
            continue  # R22 ruling: a domain nobody has scores for nobody
        if teams:
            for t in (0, 1):
                if any(areas[s][d] == best for s in range(t, n, 2)):
                    pts[t] += 1
        else:
            for s in range(n):
                if areas[s][d] == best:
                    pts[s] += 1
    return pts

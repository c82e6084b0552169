"""Civilization: The Card Game in words, for every user interface (no Rich, no HTML).

Every text comes from the gettext domain ``civ4`` (``civcards/locale/<lang>/
LC_MESSAGES/civ4.po``, keys ``ccg.…``) in English, Spanish, German, French and
Portuguese. The card set is RECONSTRUCTED: the original card list was never
published (:data:`RECONSTRUCTED_KEY`).

>>> describe_move("build GRN p2", ["Ada", "Bo"])
'Build Granary on plot 2'
>>> describe_move("attack 1=CHR,CHR", ["Ada", "Bo"], "es")
'Atacar a Bo con Carro ×2'
>>> describe_move("plot FOR ?", ["Ada", "Bo"], "de")
'Das Landstück Wald kaufen (Bezahlung wählen)'
>>> card_name("WAL", "es"), resources_text("2F1C", "fr")
('Murallas de la Ciudad', '2 nourriture, 1 pièces')
"""

from __future__ import annotations

from collections.abc import Sequence

from ...civ4 import CARDS, GameState
from ...civ4.cards import CardSet, DeckCard, Effect, TechCard
from ...i18n import t

#: the catalogue key of the label that goes wherever cards are shown
RECONSTRUCTED_KEY = "ccg.reconstructed"
RECONSTRUCTED = t("en", RECONSTRUCTED_KEY)

RES_LETTERS = "FHC"


def reconstructed(lang: str = "en", cards: str | None = None) -> str:
    """The label of the card set: it is a reconstruction; with ``cards``, its version
    (the card set's name, e.g. ``reconstructed-2``) follows in brackets.

    >>> reconstructed("en", "reconstructed-2")
    'RECONSTRUCTED card set: the original card list was never published (reconstructed-2)'
    """
    label = t(lang, RECONSTRUCTED_KEY)
    return f"{label} ({cards})" if cards else label


def card_name(code: str, lang: str = "en") -> str:
    """The name of a card code in ``lang`` (the code itself if unknown)."""
    if code not in CARDS.names:
        return code
    return t(lang, f"ccg.card.{code}")


def cards_text(codes: Sequence[str], lang: str = "en") -> str:
    """``ARC,ARC,GRN`` → ``Archers ×2, Granary``."""
    counts: dict[str, int] = {}
    for c in codes:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(
        card_name(c, lang) + (f" ×{k}" if k > 1 else "") for c, k in sorted(counts.items())
    )


def res_amounts(token: str) -> tuple[int, int, int]:
    """``2F1C`` → ``(2, 0, 1)``; ValueError on anything else."""
    if token == "0":
        return (0, 0, 0)
    out = [0, 0, 0]
    num = ""
    for ch in token:
        if ch.isdigit():
            num += ch
        elif ch in RES_LETTERS and num:
            out[RES_LETTERS.index(ch)] += int(num)
            num = ""
        else:
            raise ValueError(f"not resources: {token!r}")
    if num:
        raise ValueError(f"not resources: {token!r}")
    return (out[0], out[1], out[2])


def res_text(amounts: Sequence[int], lang: str = "en") -> str:
    """``(2, 0, 1)`` → ``2 food, 1 coins``; nothing → ``nothing``."""
    parts = [f"{amounts[i]} {t(lang, f'ccg.res.{RES_LETTERS[i]}')}" for i in range(3) if amounts[i]]
    return ", ".join(parts) if parts else t(lang, "ccg.nothing")


def res_short(amounts: Sequence[int]) -> str:
    """``(2, 0, 1)`` → ``2F 1C`` (the notation's letters); ``0`` for none."""
    parts = [f"{amounts[i]}{RES_LETTERS[i]}" for i in range(3) if amounts[i]]
    return " ".join(parts) if parts else "0"


def resources_text(token: str, lang: str = "en") -> str:
    """``2F1C`` → ``2 food, 1 coins``; ``0`` → ``nothing``."""
    try:
        return res_text(res_amounts(token), lang)
    except ValueError:
        return token


def step_name(step: str, lang: str = "en") -> str:
    """The name of a step of the game (``purchase`` → ``Purchase``)."""
    try:
        return t(lang, f"ccg.step.{step}")
    except KeyError:
        return step


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else str(seat)


def _list(token: str) -> list[str]:
    return [x for x in token.split(",") if x and x != "-"]


def _plots(token: str, lang: str) -> str:
    nums = [x[1:] for x in _list(token)]
    if len(nums) == 1:
        return t(lang, "ccg.plot_n", n=nums[0])
    return t(lang, "ccg.plots_n", n=", ".join(nums))


def _collect(words: Sequence[str], lang: str) -> str:
    if not words:
        return t(lang, "ccg.move.collect")
    assign = "; ".join(
        f"{t(lang, 'ccg.plot_n', n=w.split('=')[0][1:])} {'+'.join(w.split('=')[1])}" for w in words
    )
    return t(lang, "ccg.move.collect_as", assign=assign)


def _attack(terms: Sequence[str], names: Sequence[str], lang: str) -> str:
    targets = []
    for term in terms:
        s, _, units = term.partition("=")
        who = seat_name(names, int(s))
        if units == "?":
            targets.append(t(lang, "ccg.move.attack_open", seat=who))
        else:
            targets.append(
                t(lang, "ccg.move.attack_target", seat=who, units=cards_text(_list(units), lang))
            )
    return t(lang, "ccg.move.attack", targets="; ".join(targets))


def _pairs(words: Sequence[str], lang: str) -> dict[str, str]:
    """``lose LIST bounce LIST`` / ``steal LIST destroy LIST`` → their parts in words."""
    out: dict[str, str] = {}
    i = 0
    while i + 1 < len(words):
        out[words[i]] = words[i + 1]
        i += 2
    return out


def _walls(words: Sequence[str], lang: str) -> str:
    parts = []
    got = _pairs(words, lang)
    if "lose" in got:
        parts.append(t(lang, "ccg.move.walls_lose", plots=_plots(got["lose"], lang)))
    if "bounce" in got:
        parts.append(t(lang, "ccg.move.walls_bounce", units=cards_text(_list(got["bounce"]), lang)))
    return t(lang, "ccg.move.walls", what="; ".join(parts) or t(lang, "ccg.nothing"))


def _defend(words: Sequence[str], lang: str) -> str:
    pairs = [w.split(">") for w in words if ">" in w]
    if not pairs:
        return t(lang, "ccg.move.defend_none")
    blocks = ", ".join(
        t(lang, "ccg.move.block", attacker=card_name(a, lang), blocker=card_name(b, lang))
        for b, a in pairs
    )
    return t(lang, "ccg.move.defend", blocks=blocks)


def _damage(words: Sequence[str], lang: str) -> str:
    parts = []
    got = _pairs(words, lang)
    if _list(got.get("steal", "")):
        parts.append(t(lang, "ccg.move.damage_steal", plots=_plots(got["steal"], lang)))
    for item in _list(got.get("destroy", "")):
        plot, _, code = item.partition(":")
        parts.append(t(lang, "ccg.move.damage_destroy", card=card_name(code, lang), n=plot[1:]))
    return t(lang, "ccg.move.damage", what="; ".join(parts) or t(lang, "ccg.nothing"))


def _build(w: Sequence[str], lang: str) -> str:
    out = t(lang, "ccg.move.build", card=card_name(w[1], lang), n=w[2][1:])
    if len(w) == 5 and w[3] == "settle":
        out = t(lang, "ccg.move.build_settle", build=out, plots=_plots(w[4], lang))
    elif len(w) == 5 and w[3] == "free":
        techs = ", ".join(card_name(c, lang) for c in _list(w[4]))
        out = t(lang, "ccg.move.build_free", build=out, techs=techs)
    return out


def _whole(w: list[str], names: Sequence[str], lang: str) -> str:
    """A move (or the decided part of a step) in words; IndexError/ValueError if malformed."""
    k = w[0]
    if k == "pick":
        return t(lang, "ccg.move.pick", plot=card_name(w[1], lang))
    if k == "settle":
        return t(lang, "ccg.move.settle", n=w[1][1:])
    if k == "discard":
        return t(
            lang, "ccg.move.discard", cards=cards_text(_list(w[1]), lang) if len(w) > 1 else "…"
        )
    if k == "collect":
        return _collect(w[1:], lang)
    if k == "cash":
        deck = CARDS.deck.get(w[1])
        value = res_text(deck.resource, lang) if deck is not None else "?"
        return t(lang, "ccg.move.cash", card=card_name(w[1], lang), res=value)
    if k == "trade":
        return t(
            lang, "ccg.move.trade", give=resources_text(w[1], lang), get=resources_text(w[2], lang)
        )
    if k == "pop":
        return t(lang, "ccg.move.pop", n=w[1][1:])
    if k == "plot":
        return t(lang, "ccg.move.plot", plot=card_name(w[1], lang), pay=resources_text(w[2], lang))
    if k == "tech":
        return t(lang, "ccg.move.tech", tech=card_name(w[1], lang))
    if k == "build":
        return _build(w, lang)
    if k == "use":
        who = seat_name(names, int(w[2]))
        if len(w) == 4:
            return t(
                lang,
                "ccg.move.use_res",
                card=card_name(w[1], lang),
                seat=who,
                res=resources_text(w[3], lang),
            )
        return t(lang, "ccg.move.use", card=card_name(w[1], lang), seat=who)
    if k == "end":
        return t(lang, "ccg.move.end")
    if k == "attack":
        return _attack(w[1:], names, lang) if len(w) > 1 else t(lang, "ccg.move.attack_step")
    if k == "walls":
        return _walls(w[1:], lang)
    if k == "defend":
        return _defend(w[1:], lang)
    if k == "damage":
        return _damage(w[1:], lang)
    if k == "place":
        return t(lang, "ccg.move.place", plots=_plots(w[1], lang))
    raise ValueError(k)


def describe_move(text: str, names: Sequence[str], lang: str = "en", *, past: bool = False) -> str:
    """A move, or a step of the factored choices (its text ends in ``?``), in words.

    Every move of a game is public (C72: the card a Writing takes is a chance
    outcome, not part of the move), so ``past`` changes nothing. Unknown shapes
    are returned as written.
    """
    w = text.split()
    if not w:
        return text
    step = w[-1].startswith("?")
    try:
        if not step:
            return _whole(w, names, lang)
        body = w[:-1]
        k = body[0] if body else ""
        if k == "plot" and len(body) == 2:
            return t(lang, "ccg.move.plot_step", plot=card_name(body[1], lang))
        if k == "plot" and len(body) == 3:  # the food first: 'plot FOR 5F ?'
            said = t(
                lang,
                "ccg.move.plot",
                plot=card_name(body[1], lang),
                pay=resources_text(body[2], lang),
            )
            return t(lang, "ccg.move.then", move=said)
        if k == "attack" and len(body) == 1:
            return t(lang, "ccg.move.attack_step")
        if k == "build":
            return t(
                lang,
                "ccg.move.then",
                move=t(lang, "ccg.move.build", card=card_name(body[1], lang), n=body[2][1:]),
            )
        if len(body) == 1 and k in ("discard", "place", "defend", "damage", "walls"):
            return t(lang, "ccg.move.then", move=t(lang, f"ccg.menu.{k}"))
        return t(lang, "ccg.move.then", move=_whole(body, names, lang))
    except (IndexError, ValueError, KeyError):
        return text


def effect_texts(card: TechCard | DeckCard, lang: str = "en") -> list[str]:
    """What a technology, building or wonder does (C52–C66), one phrase per effect."""
    return [_effect_text(e, lang) for e in card.effects]


def _res_name(r: int, lang: str) -> str:
    return t(lang, f"ccg.res.{RES_LETTERS[r]}")


def _effect_text(e: Effect, lang: str) -> str:
    k = e.kind
    if k == "income":
        return t(lang, "ccg.effect.income", res=res_short(e.resources))
    if k == "double_base":
        return t(lang, "ccg.effect.double_base", res=_res_name(e.resource, lang))
    if k == "boost_producing":
        return t(lang, "ccg.effect.boost_producing", n=e.amount, res=_res_name(e.resource, lang))
    if k == "discount":
        return t(lang, "ccg.effect.discount", n=e.amount, target=t(lang, f"ccg.target.{e.target}"))
    if k == "exchange_rate":
        return t(lang, "ccg.effect.exchange_rate", rate=e.rate)
    if k == "extra_draw":
        return t(lang, "ccg.effect.extra_draw", n=e.amount)
    if k == "building_slots":
        return t(lang, "ccg.effect.building_slots", n=e.slots)
    if k == "gain_once":
        key = "ccg.effect.gain_once_per_plot" if e.per_plot else "ccg.effect.gain_once"
        return t(lang, key, res=res_short(e.resources))
    if k in ("free_population", "free_tech", "steal_card", "steal_resources"):
        return t(lang, f"ccg.effect.{k}", n=e.amount)
    if k == "bounce":
        out = t(lang, "ccg.effect.bounce", n=e.amount)
        return out + (f" ({t(lang, 'ccg.effect.bounce_breakable')})" if e.breakable else "")
    if k == "unit_bonus":
        unit = card_name(e.unit, lang)
        parts = []
        if e.blocks_add:
            codes = ", ".join(card_name(c, lang) for c in e.blocks_add)
            parts.append(t(lang, "ccg.effect.unit_blocks", unit=unit, codes=codes))
        if e.steal_add:
            parts.append(t(lang, "ccg.effect.unit_steal", unit=unit, n=e.steal_add))
        if e.destroy_add:
            parts.append(t(lang, "ccg.effect.unit_destroy", unit=unit, n=e.destroy_add))
        return "; ".join(parts)
    return k  # pragma: no cover - C52 lists every keyword above


def unit_profile(card: DeckCard, lang: str = "en") -> list[str]:
    """A military unit's profile (C47) in words."""
    out = [t(lang, "ccg.unit.attack" if card.attack else "ccg.unit.no_attack")]
    if card.defend:
        out.append(
            t(lang, "ccg.unit.blocks", codes=", ".join(card_name(c, lang) for c in card.blocks))
        )
    else:
        out.append(t(lang, "ccg.unit.no_defend"))
    if card.breaks_walls:
        out.append(t(lang, "ccg.unit.breaks"))
    if card.steal:
        out.append(t(lang, "ccg.unit.steal", n=card.steal))
    if card.destroy:
        out.append(t(lang, "ccg.unit.destroy", n=card.destroy))
    return out


def card_help(code: str, lang: str = "en", cs: CardSet = CARDS) -> str:
    """What a card does, in one line: a plot's yield, a card's effects or a unit's profile
    (as card set ``cs`` prints them; the original set by default)."""
    if code in cs.plots:
        return t(lang, "ccg.yields", res=res_short(cs.plots[code].yields))
    card: TechCard | DeckCard = cs.techs[code] if code in cs.techs else cs.deck[code]
    if isinstance(card, DeckCard) and card.kind == "unit":
        return "; ".join(unit_profile(card, lang))
    said = effect_texts(card, lang)
    return "; ".join(said) if said else t(lang, "ccg.effect.none")


def winners_text(g: GameState, names: Sequence[str], lang: str = "en") -> str:
    """Who won and how (C68–C70)."""
    if g.reason == "last_tech":
        how = t(lang, "ccg.result.last_tech")
    else:
        how = t(lang, "ccg.result.stalemate", n=g.round)
    who = ", ".join(seat_name(names, s) for s in g.winners)
    vp = g.scores[g.winners[0]][0] if g.winners else 0
    key = "ccg.result.wins" if len(g.winners) == 1 else "ccg.result.share"
    return t(lang, key, who=who, vp=vp, how=how)

"""CIV at the web table: what its front-end module (``static/carta.js``)
shows beyond a seat's observation, in the reader's language.

The game-agnostic server calls :func:`web_view` through
:meth:`civcards.game_api.Game.web_view`; the words come from the catalogues
(:mod:`civcards.i18n`) and CIV's UI-neutral text module (:mod:`.text`).
Nothing here imports Rich or the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ...carta import GameState, observe
from ...carta.cards import counts_to_str
from ...carta.observation import Observation
from ...i18n import normalize_lang, t
from .standing import standing
from .text import cards_text, describe_move, hegemony_domain, tiebreak_text


@lru_cache(maxsize=65536)
def _words(lang: str, text: str, names: tuple[str, ...], past: bool) -> str:
    # every frame of a game repeats its whole log: describe each move once
    return describe_move(lang, text, list(names), past=past)


def web_view(
    state: GameState,
    seat: int | None,
    names: Sequence[str],
    lang: str = "en",
    obs: Observation | None = None,
) -> dict[str, Any]:
    """The move log in words (public moves only: hidden parts are left out of the
    observation's history) and, once the game is over, how it was won. ``obs``:
    ``seat``'s observation, if the caller has it (else it is built here)."""
    lang = normalize_lang(lang)
    key = tuple(names)
    if obs is None:
        obs = observe(state, seat)
    out: dict[str, Any] = {
        "log": [
            {"seat": s, "text": text, "words": _words(lang, text, key, True)}
            for s, text in zip(obs.movers, obs.history, strict=True)
        ]
    }
    # who leads now, from this seat's own view (R25: the play areas are public)
    # (the fields it reads, as they are: no copy of the whole observation)
    public = {"areas": obs.areas, "teams": obs.teams, "thresholds": obs.thresholds}
    out["standing"] = standing({**public, "markers": obs.markers}, list(names), lang)
    if state.finished:
        result: dict[str, Any] = {"victory": state.victory, "why": "", "tiebreak": None}
        if state.victory == "hegemony":
            d, count, need = hegemony_domain(state)
            result["why"] = t(
                lang,
                "ui.by_hegemony",
                count=count,
                domain=t(lang, f"domain.{'MRESCU'[d]}"),
                need=need,
            )
        elif state.victory == "majority":
            result["why"] = t(lang, "ui.by_majority")
            result["tiebreak"] = tiebreak_text(state, lang)
        # once the game is over every hand is public: the end screen shows them all
        result["hands"] = [
            {"seat": s, "words": cards_text(lang, counts_to_str(state.hands[s]))}
            for s in range(state.n)
        ]
        out["result"] = result
    return out


__all__ = ["web_view"]

"""The browser side: pages (Jinja2), static ES modules, catalogues, and words added to views."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..games.carta.text import describe_move, hegemony_domain, tiebreak_text
from ..i18n import LANGS, normalize_lang, t
from .core import Live, TableServer
from .i18n_web import catalogue

HERE = Path(__file__).parent


def browser_lang(request: Request) -> str:
    """The first of the five languages in the Accept-Language header, else English."""
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


#: the words of moves already described, per game, language and names (every frame of a
#: game repeats its whole log: describe each move once)
_WORDS: weakref.WeakKeyDictionary[Live, dict[tuple[str, tuple[str, ...], bool], dict[str, str]]]
_WORDS = weakref.WeakKeyDictionary()


def _describer(live: Live, lang: str, names: list[str], past: bool) -> Callable[[str], str]:
    per_game = _WORDS.setdefault(live, {})
    memo = per_game.setdefault((lang, tuple(names), past), {})
    if len(per_game) > 16:  # names changed often: forget the old ones
        per_game.clear()
        per_game[(lang, tuple(names), past)] = memo

    def words(text: str) -> str:
        w = memo.get(text)
        if w is None:
            w = memo[text] = describe_move(lang, text, names, past=past)
        return w

    return words


def decorate(live: Live, view: dict[str, Any], lang: str) -> None:
    """Add words in ``lang``: the move log, the options, and how the game was won."""
    lang = normalize_lang(lang)
    names = live.names()
    obs = view["observation"]
    view["lang"] = lang
    view["names"] = names
    said = _describer(live, lang, names, True)
    view["log"] = [
        {"seat": seat, "text": text, "words": said(text)}
        for seat, text in zip(obs["movers"], obs["history"], strict=True)
    ]
    shown = list(view["options"])
    if view["pending"]:
        shown += view["pending"]["choices"]
    say = _describer(live, lang, names, False)
    view["words"] = {o: say(o) for o in shown}
    result = None
    g = live.state
    if g.finished:
        who = ", ".join(names[s] for s in g.winners)
        result = {
            "winners": list(g.winners),
            "winners_text": t(lang, "ui.winner" if len(g.winners) == 1 else "ui.winners", who=who),
            "victory": g.victory,
            "why": "",
            "tiebreak": None,
        }
        if g.victory == "hegemony":
            d, count, need = hegemony_domain(g)
            result["why"] = t(
                lang,
                "ui.by_hegemony",
                count=count,
                domain=t(lang, f"domain.{'MRESCU'[d]}"),
                need=need,
            )
        elif g.victory == "majority":
            result["why"] = t(lang, "ui.by_majority")
            result["tiebreak"] = tiebreak_text(g, lang)
    view["result"] = result


def add_pages(app: FastAPI, server: TableServer) -> None:
    server.decorate = decorate
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def page(request: Request, name: str, **ctx: Any) -> HTMLResponse:
        lang = normalize_lang(request.query_params.get("lang") or browser_lang(request))
        cat = catalogue(lang)
        return templates.TemplateResponse(
            request,
            name,
            {"lang": lang, "t": cat, "langs": LANGS, **ctx},
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        return page(request, "lobby.html")

    @app.get("/game/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table(
        request: Request, game_id: Annotated[str, PathParam(max_length=32)]
    ) -> HTMLResponse:
        server.get(game_id)  # 404 for an unknown game
        return page(request, "table.html", game_id=game_id)

    @app.get("/api/i18n/{lang}", tags=["i18n"], summary="Every text of the interface in a language")
    async def texts(lang: Annotated[str, PathParam(max_length=10)]) -> dict[str, str]:
        return catalogue(lang)

"""The browser side: pages (Jinja2), static ES modules, catalogues, and words added to views.

Game-agnostic: the words of moves come from :meth:`Game.describe_move`, the rest of
what a game's front-end module shows from :meth:`Game.web_view` (:mod:`.kinds`). The
table page loads the game's own module (``Game.web_module``, under ``static/``).
"""

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

from ..game_api import DEFAULT_GAME, all_games
from ..i18n import LANGS, normalize_lang, t
from .core import Live, TableServer
from .i18n_web import catalogue, page_lang, seat_names
from .kinds import describe_kinds, game_title, web_assets, web_module, web_view
from .outcomes import people_result, resigned_seats

HERE = Path(__file__).parent


#: the words of choices already described, per game, language and names (a choice's
#: words are asked for again at every frame: describe each once)
_WORDS: weakref.WeakKeyDictionary[Live, dict[tuple[str, tuple[str, ...]], dict[str, str]]]
_WORDS = weakref.WeakKeyDictionary()


def _describer(live: Live, lang: str, names: list[str]) -> Callable[[str], str]:
    per_game = _WORDS.setdefault(live, {})
    memo = per_game.setdefault((lang, tuple(names)), {})
    if len(per_game) > 16:  # names changed often: forget the old ones
        per_game.clear()
        per_game[(lang, tuple(names))] = memo
    game = live.game

    def say(text: str) -> str:
        w = memo.get(text)
        if w is None:
            try:
                w = game.describe_move(text, names, lang)
            except Exception:  # a step the game has no words for: its text
                w = text
            memo[text] = w
        return w

    return say


def words(live: Live, texts: list[str], lang: str) -> dict[str, str]:
    """Each choice text of ``texts`` in words, in ``lang``."""
    code = normalize_lang(lang)
    say = _describer(live, code, seat_names(live.seats, code))
    return {x: say(x) for x in texts}


def decorate(live: Live, view: dict[str, Any], lang: str, obs: Any = None) -> None:
    """Add words in ``lang``: the choices', the game's own (its move log, how it was won:
    :meth:`Game.web_view`) and who won. ``obs``: the observation the view was built from,
    if the caller has it (the game's :meth:`Game.web_view` reuses it)."""
    lang = normalize_lang(lang)
    names = seat_names(live.seats, lang)  # "Seat 2", a bot's default name: in lang
    game = live.game
    view["lang"] = lang
    view["names"] = names
    view["game"]["title"] = game_title(game, lang)  # live.public()'s is the game's own
    extra = web_view(game, live.state, view["seat"], names, lang, obs)
    view["log"] = extra.pop("log", [])
    game_result = extra.pop("result", None)
    shown = [o["text"] for o in view["options"]]
    if view["pending"]:
        shown.append(view["pending"]["option"])
        shown += [c["text"] for c in view["pending"]["choices"]]
    view["words"] = words(live, shown, lang)
    result = None
    r = game.result(live.state)
    if r is not None:
        # the game's winners, and the people's: a player who resigned lost, whatever the bot
        # that took the seat over did (issue 38; the accounts say the same)
        resigned = resigned_seats(live)
        people = people_result(r, resigned)
        who = ", ".join(names[s] for s in people.winners)
        n = len(people.winners)
        result = {
            "winners": list(r.winners),
            "people_winners": list(people.winners),
            "people_shared": people.shared,
            "resigned": sorted(resigned),
            "winners_text": t(lang, "ui.winner" if n == 1 else "ui.winners", who=who),
            "reason": r.reason,
            "scores": list(r.scores),
            "shared": r.shared,
            "why": "",
        }
        if isinstance(game_result, dict):
            result.update(game_result)
        if resigned:
            result["resigned_text"] = t(
                lang, "web.resigned_lost", who=", ".join(names[s] for s in sorted(resigned))
            )
    view["result"] = result
    view["board"] = extra


def add_pages(app: FastAPI, server: TableServer) -> None:
    server.decorate = decorate
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    # each game's own front-end files (its package's static/ folder), before the shared ones
    for game in all_games():
        folder = web_assets(game)
        if folder is not None:
            app.mount(
                f"/static/games/{game.name}",
                StaticFiles(directory=folder),
                name=f"static-{game.name}",
            )
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def page(request: Request, name: str, **ctx: Any) -> HTMLResponse:
        lang = page_lang(request)
        cat = catalogue(lang)
        return templates.TemplateResponse(
            request,
            name,
            {"lang": lang, "t": cat, "langs": LANGS, **ctx},
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        lang = page_lang(request)
        return page(
            request,
            "lobby.html",
            kinds=describe_kinds(lang, server.bots.settings),
            default_game=DEFAULT_GAME,
        )

    @app.get("/game/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table(
        request: Request, game_id: Annotated[str, PathParam(max_length=32)]
    ) -> HTMLResponse:
        live = server.get(game_id)  # 404 for an unknown game
        return page(
            request,
            "table.html",
            game_id=game_id,
            module=f"/static/{web_module(live.game)}",
            title=game_title(live.game, page_lang(request)),
        )

    @app.get("/api/i18n/{lang}", tags=["i18n"], summary="Every text of the interface in a language")
    async def texts(lang: Annotated[str, PathParam(max_length=10)]) -> dict[str, str]:
        return catalogue(lang)

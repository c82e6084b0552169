"""Rules at hand: each game's rules page and card reference, in the five languages.

Game-agnostic: the words come from the game (:meth:`Game.rules_page`, CommonMark, and
:meth:`Game.card_reference`); a game without them gets a page with its title and
options. Pages: ``/rules`` (every game) and ``/rules/{game}``; the same as JSON at
``/api/rules/{game}`` (the rules page as Markdown and as HTML, and the reference).
``?option=NAME=VALUE`` (repeatable) shows them for a game set up so (civ4's
``cards=reconstructed-3``: that card set's numbers and cards); the table links to its
own game's. A game whose front-end files hold ``faces.js`` draws its reference cards with
the table's faces: each card carries its code (``data-card``) and its face's data
(``data-face``), and the page's loader (``static/rules.js``) calls the module's
``upgradeReference(root)``; a game without one keeps the text reference.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from ..game_api import (
    Game,
    OptionsError,
    UnknownGameError,
    all_games,
    get_game,
    parse_option_texts,
)
from ..i18n import LANGS, normalize_lang, t
from .core import ApiError
from .i18n_web import browser_lang, catalogue
from .kinds import describe_kind, game_title, web_assets

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

HERE = Path(__file__).parent

router = APIRouter()
_templates = Jinja2Templates(directory=str(HERE / "templates"))

GAME_NAME = Annotated[str, PathParam(max_length=40, description="The game's registered name.")]
LANG_Q = Annotated[
    str | None, Query(max_length=10, description="Language: en es de fr pt (default: browser's).")
]
OPTION_Q = Annotated[
    list[str] | None,
    Query(
        description="A set-up option of the game the rules are shown for, NAME=VALUE "
        "(repeatable; e.g. cards=reconstructed-3): its numbers and cards. Default: a new "
        "game's."
    ),
]
#: at most this many ?option= of at most this many characters each
MAX_OPTIONS, MAX_OPTION_CHARS = 20, 100


class CardOut(BaseModel):
    name: str
    text: str = Field(description="What it does.")
    tags: list[str] = Field(description="Short facts: a cost, a level, a domain.")
    code: str | None = Field(default=None, description="The card's code, where the game gives it.")
    face: dict[str, Any] | None = Field(
        default=None,
        description="What the game's card face is drawn from (the table's data of the card, "
        "in the set-up shown), where the game gives it.",
    )


class SectionOut(BaseModel):
    title: str
    cards: list[CardOut]


class ReferenceOut(BaseModel):
    title: str
    note: str | None = Field(description="A line shown above the cards (e.g. a reconstruction).")
    sections: list[SectionOut]


class RulesOut(BaseModel):
    """A game's rules for players and its card reference, in one language."""

    game: str
    title: str
    lang: str
    markdown: str = Field(description="The rules page (CommonMark).")
    html: str = Field(description="The rules page as HTML.")
    reference: ReferenceOut


def _lang(request: Request, lang: str | None) -> str:
    return normalize_lang(lang) if lang else browser_lang(request)


def _game(name: str) -> Game:
    try:
        return get_game(name)
    except UnknownGameError as e:
        raise ApiError(404, "no_game", str(e)) from None


def set_up(game: Game, texts: list[str] | None) -> dict[str, Any] | None:
    """The options of ``?option=NAME=VALUE`` as the game checks them (None for none);
    ApiError 400 with the game's sentence for a malformed or refused one."""
    if not texts:
        return None
    if len(texts) > MAX_OPTIONS or any(len(x) > MAX_OPTION_CHARS for x in texts):
        raise ApiError(
            400,
            "bad_option",
            f"at most {MAX_OPTIONS} options of at most {MAX_OPTION_CHARS} characters each",
        )
    try:
        return game.check_options(game.max_players, parse_option_texts(game, texts, flag="option"))
    except OptionsError as e:  # the game's sentence, in the reader's language
        raise ApiError(400, "bad_option", str(e), words=e.words) from None
    except ValueError as e:  # a malformed NAME=VALUE
        raise ApiError(400, "bad_option", str(e)) from None


def rules_markdown(game: Game, lang: str, options: dict[str, Any] | None = None) -> str:
    """The game's rules page in ``lang`` (for a game set up with ``options``), or its
    title and options for a game without one."""
    page = getattr(game, "rules_page", None)
    if page is not None:
        return str(page(lang, options) if options else page(lang))
    kind = describe_kind(game, lang)
    lines = [f"# {game_title(game, lang)}", ""]
    lines += [f"- **{o['label']}**: {o['help']}" for o in kind["options"]]
    return "\n".join(lines)


def card_reference(game: Game, lang: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's card reference in ``lang`` (for a game set up with ``options``; no
    sections for a game without one)."""
    ref = getattr(game, "card_reference", None)
    if ref is None:
        return {"title": t(lang, "web.rules.cards"), "note": None, "sections": []}
    return dict(ref(lang, options) if options else ref(lang))


@cache
def _markdown() -> MarkdownIt:
    """The renderer, built with the first rules page, not at the server's start."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_html(md: str) -> str:
    """The HTML of ``md``: CommonMark with tables; raw HTML in a game's text is shown as
    text, never run."""
    return str(_markdown().render(md))


def rules_json(game: Game, lang: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    md = rules_markdown(game, lang, options)
    return {
        "game": game.name,
        "title": game_title(game, lang),
        "lang": lang,
        "markdown": md,
        "html": markdown_html(md),
        "reference": card_reference(game, lang, options),
    }


def faces_module(game: Game) -> str | None:
    """The address of ``game``'s card faces module (``faces.js`` among its front-end files,
    exporting ``upgradeReference(root)``), which draws its reference cards as the table does;
    None for a game without one (the reference stays text)."""
    folder = web_assets(game)
    if folder is None or not (Path(folder) / "faces.js").is_file():
        return None
    return f"/static/games/{game.name}/faces.js"


def _page(request: Request, lang: str, **ctx: Any) -> HTMLResponse:
    return _templates.TemplateResponse(
        request,
        "rules.html",
        {"lang": lang, "t": catalogue(lang), "langs": LANGS, **ctx},
        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
    )


@router.get("/rules", response_class=HTMLResponse, include_in_schema=False)
async def rules_index(request: Request, lang: LANG_Q = None) -> HTMLResponse:
    code = _lang(request, lang)
    games = [{"name": g.name, "title": game_title(g, code)} for g in all_games()]
    return _page(request, code, games=games, rules=None, faces=None)


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
async def rules_page(
    request: Request, game: GAME_NAME, lang: LANG_Q = None, option: OPTION_Q = None
) -> HTMLResponse:
    code = _lang(request, lang)
    g = _game(game)
    return _page(
        request,
        code,
        games=None,
        rules=rules_json(g, code, set_up(g, option)),
        faces=faces_module(g),
    )


@router.get(
    "/api/rules/{game}",
    tags=["rules"],
    summary="A game's rules for players and its card reference, in a language",
)
async def rules_api(game: GAME_NAME, lang: LANG_Q = None, option: OPTION_Q = None) -> RulesOut:
    g = _game(game)
    return RulesOut.model_validate(rules_json(g, normalize_lang(lang or "en"), set_up(g, option)))


__all__ = [
    "card_reference",
    "faces_module",
    "markdown_html",
    "router",
    "rules_json",
    "rules_markdown",
    "set_up",
]

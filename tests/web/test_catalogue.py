"""Every text of the web table comes from the catalogues, in all five languages."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from civcards.i18n import LANGS
from civcards.server.i18n_web import catalogue, web_keys

STATIC = Path(__file__).resolve().parents[2] / "civcards" / "server"


def used_keys() -> set[str]:
    keys: set[str] = set()
    games = STATIC.parent / "games"  # each game's own front end (civcards/games/NAME/static)
    pages = [*STATIC.glob("static/**/*.js"), *STATIC.glob("templates/*.html")]
    for path in [*pages, *games.glob("*/static/*.js")]:
        text = path.read_text()
        keys |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_.]+)["']""", text))
        keys |= set(re.findall(r"""data-i18n=["']([a-z_]+\.[a-z_.]+)["']""", text))
        keys |= set(re.findall(r"""t\["([a-z_]+\.[a-z_.]+)"\]""", text))
    return keys


def test_every_key_used_by_the_pages_exists() -> None:
    keys = used_keys()
    assert len(keys) > 40
    cat = catalogue("en")
    missing = sorted(k for k in keys if k not in cat)
    assert not missing, missing


@pytest.mark.parametrize("lang", LANGS)
def test_every_web_text_is_translated(lang: str) -> None:
    cat = catalogue(lang)
    for key in web_keys():
        assert cat[key].strip(), key
        # the same {fields} in every language
        assert set(re.findall(r"{\w+}", cat[key])) == set(
            re.findall(r"{\w+}", catalogue("en")[key])
        ), key
    if lang != "en":
        same = [k for k in web_keys() if cat[k] == catalogue("en")[k]]
        assert len(same) < len(web_keys()) // 4, same


def test_unknown_language_falls_back_to_english() -> None:
    assert catalogue("xx") == catalogue("en")
    assert catalogue("pt-BR")["web.new_game"] == "Novo jogo"


def _word(node: ast.expr | None) -> str | None:
    """A string constant that reads as a code (``not_your_turn``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if re.fullmatch(r"[a-z_]+", node.value) else None
    return None


def _status(node: ast.expr) -> bool:
    """An HTTP error status constant (4xx, 5xx)."""
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
        and 400 <= node.value < 600
    )


def sent_codes(sources: list[str]) -> set[str]:
    """Every refusal code in the server's source: each call that passes an HTTP error
    status and then a code (``ApiError(409, "stale", …)``, ``problem(…)``, ``_refuse(send,
    429, "rate_limited", …)``, an ``ApiError`` subclass's ``super().__init__(…)``), each
    error frame's ``{"code": "…"}`` and the status-to-code table of HTTP errors (``codes``)."""
    out: set[str] = set()
    for src in sources:
        for node in ast.walk(ast.parse(src)):
            found: list[str | None] = []
            if isinstance(node, ast.Call):
                args = node.args
                found += [_word(b) for a, b in itertools.pairwise(args) if _status(a)]
                f = node.func
                if (
                    isinstance(f, ast.Attribute)
                    and f.attr == "get"
                    and isinstance(f.value, ast.Name)
                    and f.value.id == "codes"
                    and len(args) == 2
                ):
                    found.append(_word(args[1]))
            elif isinstance(node, ast.Dict):
                found += [
                    _word(v)
                    for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and k.value == "code"
                ]
            elif (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Dict)
                and any(isinstance(x, ast.Name) and x.id == "codes" for x in node.targets)
            ):
                found += [_word(v) for v in node.value.values]
            out |= {w for w in found if w}
    return out


def server_codes() -> set[str]:
    return sent_codes([p.read_text() for p in sorted(STATIC.glob("*.py"))])


def test_error_texts_name_codes_the_server_gives() -> None:
    """Each ``web.err.CODE`` text belongs to a refusal code the server really sends."""
    codes = server_codes()
    assert {"stale", "not_your_turn", "illegal", "pending_choice", "rate_limited"} <= codes
    ours = {k.split(".", 2)[2] for k in web_keys() if k.startswith("web.err.")}
    assert ours and ours <= codes, ours - codes


def test_every_error_code_the_server_sends_is_translated() -> None:
    """No refusal shows in English in another language: each code the server sends has
    its ``web.err.CODE`` text (in the five languages: test_every_web_text_is_translated)."""
    cat = catalogue("fr")
    missing = sorted(c for c in server_codes() if f"web.err.{c}" not in cat)
    assert not missing, f"refusal codes without a web.err text: {missing}"


def test_an_untranslated_error_code_is_caught() -> None:
    """The check can fail: a new refusal code without a text is found."""
    source = (
        'raise ApiError(409, "brand_new_code", "a sentence")\n'
        'x = {"code": "frame_code"}\n'
        "class Slow(ApiError):\n"
        "    def __init__(self):\n"
        '        super().__init__(429, "sub_code", "wait")\n'
    )
    found = sent_codes([source])
    assert found == {"brand_new_code", "frame_code", "sub_code"}
    assert "web.err.brand_new_code" not in catalogue("en")

"""Every text of the web table comes from the catalogues, in all five languages."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from civcards.i18n import LANGS
from civcards.server.i18n_web import catalogue, web_keys

STATIC = Path(__file__).resolve().parents[2] / "civcards" / "server"


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in [*STATIC.glob("static/**/*.js"), *STATIC.glob("templates/*.html")]:
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


def sent_codes(sources: list[str]) -> set[str]:
    """Every refusal code in the server's source: the code of each ``ApiError(status,
    "code", …)``, ``problem(…)``, ``_problem(…)`` and ``_refuse(…)``, each error frame's
    ``{"code": "…"}`` and the status-to-code table of HTTP errors (``codes``)."""
    out: set[str] = set()
    makers = {"ApiError", "problem", "_problem", "_refuse"}
    for src in sources:
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Call):
                f = node.func
                name = (
                    f.id
                    if isinstance(f, ast.Name)
                    else f.attr
                    if isinstance(f, ast.Attribute)
                    else ""
                )
                if name in makers:
                    for a in node.args:
                        if isinstance(a, ast.Constant) and isinstance(a.value, str):
                            if re.fullmatch(r"[a-z_]+", a.value):
                                out.add(a.value)
                            break
                if name == "get" and isinstance(f, ast.Attribute):
                    owner = f.value
                    if isinstance(owner, ast.Name) and owner.id == "codes" and len(node.args) == 2:
                        a = node.args[1]
                        if isinstance(a, ast.Constant) and isinstance(a.value, str):
                            out.add(a.value)
            elif isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    is_code = isinstance(k, ast.Constant) and k.value == "code"
                    if is_code and isinstance(v, ast.Constant) and isinstance(v.value, str):
                        out.add(v.value)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                named = any(isinstance(t, ast.Name) and t.id == "codes" for t in node.targets)
                if named:
                    out |= {
                        v.value
                        for v in node.value.values
                        if isinstance(v, ast.Constant) and isinstance(v.value, str)
                    }
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
    source = 'raise ApiError(409, "brand_new_code", "a sentence")\nx = {"code": "frame_code"}'
    found = sent_codes([source])
    assert found == {"brand_new_code", "frame_code"}
    assert "web.err.brand_new_code" not in catalogue("en")

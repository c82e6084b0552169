"""Every text of the web table comes from the catalogues, in all five languages."""

from __future__ import annotations

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


def test_error_texts_name_codes_the_server_gives() -> None:
    """Each ``web.err.CODE`` text belongs to a refusal code the server really sends."""
    source = "".join(p.read_text() for p in STATIC.glob("*.py"))
    codes = set(re.findall(r'ApiError\(\s*\d+,\s*"([a-z_]+)"', source))
    assert {"stale", "not_your_turn", "illegal", "pending_choice"} <= codes
    ours = {k.split(".", 2)[2] for k in web_keys() if k.startswith("web.err.")}
    assert ours and ours <= codes, ours - codes

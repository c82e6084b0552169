"""The message catalogues (civcards.i18n): gettext, complete in five languages for every
domain, rulebook names verbatim."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from civcards.carta.moves import EFFECT_KINDS
from civcards.i18n import (
    INTERFACE_DOMAIN,
    KEY_DOMAIN,
    LANGS,
    LOCALE_DIR,
    MESSAGES,
    domain_name,
    domain_texts,
    domains,
    effect_help,
    effect_name,
    normalize_lang,
    read_catalogue,
    t,
)
from tests.shared import RULES_MD

# The table "Names of things in the five languages" at the end of RULES.md (en, es, de, fr, pt).
RULES_TABLE = """
| Military | Militar | Militär | Militaire | Poder Militar |
| Religion | Religión | Religion | Religion | Religião |
| Economy | Economía | Wirtschaft | Économie | Economia |
| Science | Ciencia | Wissenschaft | Science | Ciência |
| Culture | Cultura | Kultur | Art | Artes |
| Utopia | Utopía | Utopia | Utopie | Utopia |
| Assassination | Asesinato | Hinrichtung | Assassinat | Assassinato |
| Purge | Purga | Säuberung | Purge | Expiação |
| Attack | Ataque | Angriff | Attaque | Ataque |
| Holy Book | Libro Sagrado | Heilige Schrift | Livre Saint | Escritura Sagrada |
| Divine Right | Derecho Divino | Göttliches Recht | Droit Divin | Direito Divino |
| Inquisition | Inquisición | Inquisition | Inquisition | Inquisição |
| Development | Desarrollo | Entwicklung | Développement | Desenvolvimento |
| Monopoly | Monopolio | Monopol | Monopole | Monopólio |
| Embargo | Embargo | Embargo | Embargo | Embargo |
| Experiment | Experimento | Experiment | Expérience | Experimento |
| Research | Investigación | Forschung | Recherche | Pesquisa |
| Discovery | Descubrimiento | Durchbruch | Saut technologique | Descoberta |
| Oligarchy | Oligarquía | Oligarchie | Oligarchie | Oligarquia |
| Republic | República | Republik | République | República |
| Democracy | Democracia | Demokratie | Démocratie | Democracia |
| Inspiration | Inspiración | Inspiration | Inspiration | Inspiração |
| Culture coin | Moneda de Cultura | Kulturmünze | Pièce de Majorité en Art | Moeda das Artes |
| Hegemony | Hegemonía | Vorherrschaft | Hégémonie | Hegemonia |
| Majorities | Mayorías | Mehrheiten | Majorités | Dominação |
| play area | zona de juego | Auslage | Plan de jeu | área de jogo |
| hand size | tamaño de la mano | Nachziehlimit | limite de cartes en main | limite da mão |
| era | Era | Zeitalter | Âge | Era |
| draft | variante por selección | Draft-Variante | variante Draft | variante Draft |
"""

# the catalogue key of each row of the table, in order
TABLE_KEYS = [
    *(f"domain.{x}" for x in "MRESCU"),
    # the effects in the order of the rules (R15-R20), as the table lists them
    *(f"effect.{k}" for k in EFFECT_KINDS),
    "term.coin",
    "term.hegemony",
    "term.majorities",
    "term.play_area",
    "term.hand_size",
    "term.era",
    "term.draft",
]


def table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and not set(cells[0]) <= set("-"):
            rows.append(cells)
    return rows


def test_every_key_in_every_language() -> None:
    for key, entry in MESSAGES.items():
        assert set(entry) == set(LANGS), f"{key} lacks {set(LANGS) - set(entry)}"
        for lang in LANGS:
            assert entry[lang].strip(), f"{key} is empty in {lang}"


def test_one_domain_per_game_and_one_for_the_interface() -> None:
    assert domains()[0] == INTERFACE_DOMAIN
    assert "carta" in domains()
    assert set(KEY_DOMAIN.values()) == set(domains())
    assert KEY_DOMAIN["domain.S"] == "carta" and KEY_DOMAIN["ui.prompt"] == INTERFACE_DOMAIN
    assert domain_texts("de", "carta")["domain.S"] == "Wissenschaft"


@pytest.mark.parametrize("lang", LANGS)
def test_every_domain_is_complete_in_every_compiled_catalogue(lang: str) -> None:
    """What the program reads: each language's .mo has every English id, none empty."""
    for domain in domains():
        english = read_catalogue("en", domain)
        assert english, domain
        texts = read_catalogue(lang, domain)
        missing = sorted(set(english) - set(texts))
        assert not missing, f"{lang}/{domain}.mo lacks {missing}"
        empty = sorted(k for k, v in texts.items() if not v.strip())
        assert not empty, f"{lang}/{domain}.mo has empty {empty}"


def test_po_files_are_complete_and_compiled() -> None:
    """The .po sources: no missing, empty or fuzzy translation; every .mo compiled from its .po."""
    pytest.importorskip("babel")
    from civcards.locale.__main__ import problems

    assert problems() == []


def test_a_missing_translation_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a catalogue with an empty and a dropped text is reported."""
    pytest.importorskip("babel")
    import shutil

    import civcards.locale.__main__ as tool

    copy = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, copy)
    po = copy / "fr" / "LC_MESSAGES" / "carta.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgstr "Science"', 'msgstr ""', 1)
    text = re.sub(r'\n(#[^\n]*\n)*msgid "effect\.purge"\nmsgstr "[^"]*"\n', "\n", text)
    po.write_text(text, encoding="utf-8")
    monkeypatch.setattr(tool, "LOCALE_DIR", copy)
    found = tool.problems()
    assert any("domain.S is empty" in line for line in found), found
    assert any("effect.purge is missing" in line for line in found), found
    assert any("carta.mo: not compiled" in line for line in found), found


def test_placeholders_agree_across_languages() -> None:
    fmt = string.Formatter()
    for key, entry in MESSAGES.items():
        fields = {lang: sorted({f for _, f, _, _ in fmt.parse(entry[lang]) if f}) for lang in LANGS}
        assert all(fields[lang] == fields["en"] for lang in LANGS), (key, fields)


def test_rulebook_names_verbatim() -> None:
    rows = table_rows(RULES_TABLE)
    assert len(rows) == len(TABLE_KEYS)
    for key, row in zip(TABLE_KEYS, rows, strict=True):
        for lang, name in zip(LANGS, row, strict=True):
            assert MESSAGES[key][lang] == name, (key, lang)


def test_table_copy_matches_rules_md() -> None:
    """The catalogue's copy of RULES.md's table of names in the five languages."""
    path = RULES_MD
    text = path.read_text(encoding="utf-8")
    section = text[text.index("## Names of things in the five languages") :]
    rows = [r for r in table_rows(section) if r != ["en", "es", "de", "fr", "pt"]]
    assert rows == table_rows(RULES_TABLE)


def test_helpers() -> None:
    assert domain_name("pt", 0) == "Poder Militar"
    assert domain_name("fr", "c") == "Art"
    assert effect_name("de", "discovery") == "Durchbruch"
    assert t("es", "ui.turn_of", name="Ana") == "Turno de Ana"
    assert t("xx", "domain.S") == "Science"  # unknown language: English
    for lang in LANGS:
        for kind in EFFECT_KINDS:
            assert effect_name(lang, kind)
            assert effect_help(lang, kind)
    assert normalize_lang("pt_BR.UTF-8") == "pt"
    assert normalize_lang("C") == "en"
    assert normalize_lang(None) == "en"


def test_texts_are_the_ones_of_before() -> None:
    """A few texts, byte for byte, as the dictionaries held them before the catalogues."""
    assert (
        t("fr", "ui.coin", holder="A", domain="Art", seat="B")
        == "Pièce de Majorité en Art : A copie Art de B"
    )
    assert t("pt", "domain.M") == "Poder Militar"
    assert t("de", "ui.turn_of", name="Ana") == "Ana ist am Zug"
    assert t("en", "ui.majority_legend") == "✓ = majority in the domain (1 point)"


def test_catalogue_is_plain_data() -> None:
    """The web table reuses it: only str -> str -> str, no markup of Rich."""
    for key, entry in MESSAGES.items():
        # a key may end in a value's own name (ccg.web.card_set_about.reconstructed-1)
        assert re.fullmatch(r"[a-z_]+\.[A-Za-z0-9_.-]+", key), key
        for text in entry.values():
            assert isinstance(text, str)
            assert "[bold" not in text and "[/" not in text


def test_plural_texts_in_every_language() -> None:
    """A text with plural forms (msgid_plural) has every form of its language's Plural-Forms
    in each of the five, with the fields of English; the form is chosen per language."""
    from civcards.i18n import PLURALS, tn

    fmt = string.Formatter()
    assert "lead.points" in PLURALS
    for key, entry in PLURALS.items():
        assert set(entry) == set(LANGS), f"{key} lacks {set(LANGS) - set(entry)}"
        want = sorted({f for text in entry["en"][0] for _, f, _, _ in fmt.parse(text) if f})
        for lang, (forms, _rule) in entry.items():
            assert len(forms) == 2 and all(f.strip() for f in forms), (key, lang, forms)
            for text in forms:
                assert sorted({f for _, f, _, _ in fmt.parse(text) if f}) == want, (key, lang)
    assert [tn("en", "lead.points", n) for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert tn("fr", "lead.points", 0) == "0 point"  # French: n > 1 is plural
    assert tn("de", "lead.points", 1) == "1 Punkt"
    assert tn("xx", "lead.points", 1) == "1 point"  # unknown language: English


def test_an_empty_plural_form_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogue check reads plural texts too: an empty form is reported."""
    pytest.importorskip("babel")
    import shutil

    import civcards.locale.__main__ as tool

    copy = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, copy)
    po = copy / "de" / "LC_MESSAGES" / "carta.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr[1] "{n} Punkte"', 'msgstr[1] ""'),
        encoding="utf-8",
    )
    monkeypatch.setattr(tool, "LOCALE_DIR", copy)
    found = tool.problems()
    assert any("lead.points is empty" in line for line in found), found

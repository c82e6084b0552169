"""Rules at hand (issue 21): each game's rules page and card reference in the five languages,
through a real server; who leads (from a seat's own view) and the final hands, through the
game interface."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import httpx
import pytest

from civcards.civ4.cards import card_set
from civcards.civ4.options import DEFAULT_CARD_SET
from civcards.game_api import OptionsError, get_game
from civcards.games.carta.standing import standing as carta_standing
from civcards.games.civ4.rules_text import rule_numbers
from civcards.games.civ4.text import reconstructed
from civcards.i18n import LANGS, t, tn

from . import net
from .conftest import ServerProcess

GAMES = ("carta", "civ4")
#: words that only English uses: none may appear in another language's page
ENGLISH = {
    "the", "and", "your", "you", "with", "when", "which", "each", "from", "their", "this",
    "that", "is", "are", "of", "to", "cards", "turn", "wins", "player", "players", "level",
}  # fmt: skip


def visible_words(page: str) -> list[str]:
    """The words a reader sees: no scripts (the catalogue), no tags, entities decoded."""
    body = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    return re.findall(r"[^\W\d_]+", html.unescape(body).lower())


def get(server: ServerProcess, path: str) -> httpx.Response:
    return net.get(server.base + path, timeout=20)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
def test_rules_page_and_card_reference_in_every_language(
    server: ServerProcess, name: str, lang: str
) -> None:
    r = get(server, f"/rules/{name}?lang={lang}")
    assert r.status_code == 200, r.text
    page = r.text
    shown = html.unescape(page)
    assert f'<html lang="{lang}">' in page
    assert 'data-testid="rules-text"' in page and 'data-testid="card-reference"' in page
    api = get(server, f"/api/rules/{name}?lang={lang}").json()
    assert api["lang"] == lang and api["game"] == name
    ref = api["reference"]
    cards = sum(len(s["cards"]) for s in ref["sections"])
    # every card (civ4: the packaged set) or effect with its text, all on the page
    assert page.count('data-testid="ref-card"') == cards
    assert cards == (6 + 16 + 3 if name == "carta" else 14 + 24 + 13 + 10 + 6)
    for sec in ref["sections"]:
        for card in sec["cards"]:
            assert card["text"].strip() and card["text"] in shown
    # the rules page has its sections and an example
    assert page.count("<h2>") >= 4 and re.search(r"<em>[^<]+</em>", api["html"])
    if name == "civ4":  # the card set is labelled as reconstructed wherever shown
        assert ref["note"] == reconstructed(lang, DEFAULT_CARD_SET)
        assert ref["note"] in shown
        assert "<blockquote>" in api["html"]
    if lang != "en":  # beyond proper names (the game's title)
        leaks = sorted(set(visible_words(page.replace(api["title"], " "))) & ENGLISH)
        assert not leaks, f"English words on the {lang} page: {leaks}"


def test_the_english_check_can_fail(server: ServerProcess) -> None:
    """The same check finds English on the English page (it is not vacuous)."""
    page = get(server, "/rules/carta?lang=en").text
    assert {"the", "your", "cards", "turn"} <= set(visible_words(page))


def test_rules_index_and_unknown_game(server: ServerProcess) -> None:
    page = get(server, "/rules?lang=de").text
    for name in GAMES:
        assert f'href="/rules/{name}?lang=de"' in page
    r = get(server, "/api/rules/nosuchgame")
    assert r.status_code == 404 and r.json()["code"] == "no_game"
    r = get(server, "/rules/nosuchgame")
    assert r.status_code == 404


def test_the_rules_do_not_run_raw_html() -> None:
    """CommonMark without raw HTML: a game's text is shown, never run."""
    from civcards.server.rules import markdown_html

    out = markdown_html("a <script>alert(1)</script> b")
    assert "<script>" not in out and "&lt;script&gt;" in out


# -- who leads: from the seat's own view ---------------------------------------------------------


def test_carta_standing_majorities_and_tie_break_R22() -> None:
    """R22: the example of the rules page (Ana 3 Military 2 Science; Ben 1 Military 2 Science
    1 Utopia: 2 points each, Ben leads on Utopia); R21: a Democracy raises the need."""
    obs: dict[str, Any] = {
        "areas": ["MMMSS", "MSSU"],
        "thresholds": [3, 5, 8],
        "teams": False,
        "markers": [{"seat": 0, "domain": "M", "kind": "democracy", "by": 1}],
    }
    st = carta_standing(obs, ["Ana", "Ben"], "en")
    assert st["lead"] == "If the deck ran out now, Ben would win on Majorities (2 points)."
    assert [r["lead"] for r in st["rows"]] == [False, True]
    # Ana's closest Hegemony: Military 3 of 8 + 1 Democracy = 9 (6 to go) vs Science 2 of 8
    assert st["rows"][0]["text"] == "2 points · Hegemony: Military 3/9, 6 to go"
    obs["areas"] = ["", ""]
    assert carta_standing(obs, ["Ana", "Ben"], "fr")["lead"] == t("fr", "lead.nobody")


#: one point and two, in each language: the plural form its catalogue's Plural-Forms picks
POINTS = {
    "en": ("1 point", "2 points", "0 points"),
    "fr": ("1 point", "2 points", "0 point"),
    "de": ("1 Punkt", "2 Punkte", "0 Punkte"),
    "es": ("1 punto", "2 puntos", "0 puntos"),
    "pt": ("1 ponto", "2 pontos", "0 pontos"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_carta_standing_says_points_in_the_plural_forms_R22(lang: str) -> None:
    """R22: one majority is "1 point", not "1 points", in every language (gettext plurals)."""
    one, two, zero = POINTS[lang]
    obs: dict[str, Any] = {
        "areas": ["MM", "S"],
        "thresholds": [3, 5, 8],
        "teams": False,
        "markers": [],
    }
    st = carta_standing(obs, ["Ana", "Ben"], lang)
    # Ana 2 Military, Ben 1 Science: one majority each (the tie-break names the leader, R22)
    assert f"({one})" in st["lead"], st["lead"]
    assert all(r["text"].startswith(f"{one} ·") for r in st["rows"]), st["rows"]
    obs["areas"] = ["MMSS", "E"]
    st = carta_standing(obs, ["Ana", "Ben"], lang)
    assert f"({two})" in st["lead"], st["lead"]
    assert st["rows"][0]["text"].startswith(f"{two} ·")
    assert st["rows"][1]["text"].startswith(f"{one} ·")
    assert tn(lang, "lead.points", 0) == zero


def test_carta_standing_teams_R24() -> None:
    obs = {"areas": ["MM", "M", "S", ""], "thresholds": [2, 4, 7], "teams": True, "markers": []}
    st = carta_standing(obs, ["A", "B", "C", "D"], "en")
    # team A (seats 0+2): Military and Science = 2; team B: nothing
    assert "2" in st["lead"] and "A" in st["lead"]
    assert [r["lead"] for r in st["rows"]] == [True, False, True, False]


def play_to_end(name: str, players: int, seed: int) -> Any:
    game = get_game(name)
    state = game.new_state(players, game.check_options(players, {}), seed)
    rng = random.Random(seed)
    while not game.result(state):
        choice = rng.choice(game.choices(state))
        while not choice.final:
            choice = rng.choice(game.expand(state, choice).choices)
        game.apply_choice(state, choice)
    return game, state


@pytest.mark.parametrize("name", GAMES)
def test_standing_comes_from_the_seats_view_and_hands_show_at_the_end(name: str) -> None:
    """The panel is the same for every seat (it reads public facts only, R25/C72); while the
    game is on no view holds another seat's hand; once it is over every hand is in the view."""
    game = get_game(name)
    names = ["Ana", "Ben", "Cy"]
    state = game.new_state(3, game.check_options(3, {}), 11)
    rng = random.Random(3)
    for _ in range(30):
        choice = rng.choice(game.choices(state))
        while not choice.final:
            choice = rng.choice(game.expand(state, choice).choices)
        game.apply_choice(state, choice)
    views = [game.web_view(state, s, names, "en") for s in (0, 1, 2, None)]
    assert all(v["standing"] == views[0]["standing"] for v in views)
    assert all("result" not in v for v in views)
    if name == "civ4":  # C70: the rows are the VP counts; C68: what ends the game
        obs = game.observe(state, None)
        for row, pv in zip(views[0]["standing"]["rows"], obs.seats, strict=True):  # type: ignore[attr-defined]
            assert row["text"].startswith(f"{pv.score[0]} ")
        left = len(obs.tech_market) + obs.tech_pile  # type: ignore[attr-defined]
        assert f": {left} " in views[0]["standing"]["note"]
    game, done = play_to_end(name, 2, 5)
    v = game.web_view(done, 0, names[:2], "de")
    hands = v["result"]["hands"]
    assert [h["seat"] for h in hands] == [0, 1] and all(h["words"] for h in hands)


def test_civ4_rules_quote_the_numbers_of_the_card_set_in_play() -> None:
    """C26/C37/C69: the rules page's numbers are the default card set's, in every language."""
    nums = rule_numbers(card_set(DEFAULT_CARD_SET))
    game = get_game("civ4")
    for lang in LANGS:
        page = game.rules_page(lang)
        assert "{" not in page
        for key in ("pop_base", "plot6", "cap"):
            assert str(nums[key]) in page, (lang, key)
    assert nums["pop_base"] == card_set(DEFAULT_CARD_SET).rules["population_cost_base"]


def _copies(ref: dict[str, Any], name: str) -> list[str]:
    return [
        tag
        for sec in ref["sections"]
        for c in sec["cards"]
        if c["name"] == name
        for tag in c["tags"]
    ]


def test_the_rules_of_a_game_played_with_another_card_set(server: ServerProcess) -> None:
    """C26, C14: ?option=cards=NAME shows that set's numbers and cards (the table links
    there for its own game); a bad option is refused with one sentence."""
    r1 = get(server, "/api/rules/civ4?lang=en&option=cards%3Dreconstructed-1").json()
    assert r1["reference"]["note"] == reconstructed("en", "reconstructed-1")
    pop = {
        n: card_set(n).rules["population_cost_base"] for n in ("reconstructed-1", DEFAULT_CARD_SET)
    }
    assert pop["reconstructed-1"] != pop[DEFAULT_CARD_SET]
    default = get(server, "/api/rules/civ4?lang=en").json()
    assert r1["markdown"] != default["markdown"]
    assert r1["markdown"] == get_game("civ4").rules_page("en", {"cards": "reconstructed-1"})
    # reconstructed-3's box: 2 Spearmen where reconstructed-2 has 5 (the copies tag)
    r3 = get(server, "/api/rules/civ4?option=cards%3Dreconstructed-3").json()["reference"]
    r2 = get(server, "/api/rules/civ4?option=cards%3Dreconstructed-2").json()["reference"]
    spear = t("en", "ccg.ref.copies", n=card_set("reconstructed-3").deck["SPR"].count)
    assert spear in _copies(r3, "Spearmen") and spear not in _copies(r2, "Spearmen")
    page = get(server, "/rules/civ4?lang=en&option=cards%3Dreconstructed-3")
    assert page.status_code == 200 and spear in html.unescape(page.text)
    for bad, words in (
        ("cards%3Dreconstructed-9", "reconstructed-9"),
        ("nosuch%3D1", "no option 'nosuch'"),
        ("cards", "write NAME=VALUE"),
        ("finish_round%3Dmaybe", "true or false"),
    ):
        r = get(server, f"/api/rules/civ4?option={bad}")
        assert r.status_code == 400 and r.json()["code"] == "bad_option", r.text
        assert words in r.json()["detail"], r.text
    r = get(server, "/rules/civ4?option=" + "x" * 101)
    assert r.status_code == 400
    # the game's refusal in the reader's language
    fr = get(server, "/api/rules/civ4?lang=fr&option=cards%3Dreconstructed-9").json()["detail"]
    en = get(server, "/api/rules/civ4?lang=en&option=cards%3Dreconstructed-9").json()["detail"]
    assert "reconstructed-9" in fr and fr != en


def test_civ4_combat_units_explain_themselves() -> None:
    """C45-C52: the units of a combat (attacking, blocking) carry their card's text, which the
    combat panel shows as their tip (data-tip), as every other card on the table does."""
    from civcards.civ4.cards import card_set
    from civcards.games.civ4.text import card_help

    game = get_game("civ4")
    for seed in range(40):
        state = game.new_state(3, game.check_options(3, {}), seed)
        rng = random.Random(seed)
        while not game.result(state):
            v = game.web_view(state, 0, ["Ana", "Ben", "Cy"], "fr")
            c = v["combat"]
            if c and c["units"]:
                cs = card_set(game.check_options(3, {})["cards"])
                for u in c["units"]:
                    assert u["help"] and u["help"] == card_help(u["code"], "fr", cs)
                for b in c["blocks"]:
                    assert b["blocker_help"] and b["attacker_help"]
                return
            choice = rng.choice(game.choices(state))
            while not choice.final:
                choice = rng.choice(game.expand(state, choice).choices)
            game.apply_choice(state, choice)
    raise AssertionError("no combat in 40 games")


#: set-ups each game refuses, with the catalogue text (and fields) that says why
REFUSED: list[tuple[str, int, dict[str, Any], str, dict[str, str]]] = [
    ("carta", 5, {}, "setup.players", {"players": "5"}),  # R3
    ("carta", 2, {"colour": 1}, "setup.unknown", {"key": "'colour'", "known": "deal, teams"}),
    ("carta", 2, {"deal": "open"}, "setup.deal", {"deal": "'open'"}),  # R7, R8
    ("carta", 4, {"teams": "yes"}, "setup.teams", {"teams": "'yes'"}),
    ("carta", 3, {"teams": True}, "setup.teams_four", {}),  # R24
    ("civ4", 1, {}, "ccg.setup.players", {"players": "1"}),  # C8
    ("civ4", 2, {"all_techs": 2}, "ccg.setup.bool", {"key": "'all_techs'", "value": "2"}),
    ("civ4", 2, {"hand_limit": -1}, "ccg.setup.hand_limit", {"value": "-1"}),  # C37
    ("civ4", 2, {"cards": "x"}, "ccg.setup.cards", {"value": "'x'"}),
    ("civ4", 2, {"colour": 1}, "ccg.setup.unknown", {"key": "'colour'"}),
]


@pytest.mark.parametrize("case", REFUSED, ids=[f"{c[0]}-{c[3]}" for c in REFUSED])
def test_a_refused_setup_says_why_in_the_readers_language(
    server: ServerProcess, case: tuple[str, int, dict[str, Any], str, dict[str, str]]
) -> None:
    """R3, R7, R8, R24, C8, C37: the game's sentence of a refused set-up in the language the
    request asks for (?lang=, else Accept-Language), English by default and in the terminal,
    where it is the same sentence as before."""
    name, players, options, key, fields = case
    game = get_game(name)
    with pytest.raises(OptionsError) as err:
        game.check_options(players, options)
    assert err.value.key == key
    for k, v in fields.items():
        assert err.value.fields[k] == v
    english = str(err.value)
    assert english == t("en", key, **err.value.fields)
    body = {"players": players, "options": options}
    r = net.post(f"{server.base}/api/kinds/{name}/check", json=body, timeout=20)
    assert r.status_code == 422 and r.json() == {"code": "bad_setup", "detail": english}
    for lang in ("fr", "de", "es", "pt"):
        said = t(lang, key, **err.value.fields)
        assert said != english
        r = net.post(f"{server.base}/api/kinds/{name}/check?lang={lang}", json=body, timeout=20)
        assert r.json() == {"code": "bad_setup", "detail": said}, lang
        r = net.post(
            f"{server.base}/api/kinds/{name}/check",
            json=body,
            headers={"Accept-Language": f"{lang}-XX,en;q=0.5"},
            timeout=20,
        )
        assert r.json()["detail"] == said
        seats = [{"kind": "bot"}] * max(players, 1)
        r = net.post(
            f"{server.base}/api/games?lang={lang}",
            json={"game": name, "players": players, "options": options, "seats": seats},
            timeout=20,
        )
        assert r.status_code == 422 and r.json() == {"code": "bad_setup", "detail": said}
        # beyond the names of the API (option names and values, quoted as typed)
        names = {"basic", "draft", "teams", "hand_limit", "true", "false", "null"}
        for value in err.value.fields.values():
            names |= set(visible_words(str(value)))
        words = set(visible_words(said)) - names
        leaks = words & (ENGLISH | {"must", "not", "needs", "known", "played", "game", "set"})
        assert not leaks, (lang, said, leaks)


def test_civ4_refusal_is_the_engines_first_sentence() -> None:
    """The catalogue's English sentence is the one the engine's ConfigError gives first."""
    from civcards.civ4.options import ConfigError, parse_options

    for options in ({"all_techs": 2, "x": 1}, {"hand_limit": 1.5}, {"cards": 3}, {"zz": None}):
        with pytest.raises(ConfigError) as engine:
            parse_options(options)
        with pytest.raises(OptionsError) as err:
            get_game("civ4").check_options(2, options)
        assert err.value.key is not None
        assert str(err.value) == str(engine.value).split(". ")[0].rstrip(".")


def test_the_rules_give_the_games_title_in_the_readers_language(server: ServerProcess) -> None:
    """The /rules index and each game's rules (page and API) name the game in the page's
    language: civ4's title has a German one, carta's a French one."""
    link = 'data-testid="rules-civ4">{}</a>'
    page = html.unescape(get(server, "/rules?lang=de").text)
    assert link.format("Civilization: Das Kartenspiel") in page
    page = html.unescape(get(server, "/rules?lang=en").text)
    assert link.format("Civilization: The Card Game") in page
    api = get(server, "/api/rules/civ4?lang=es").json()
    assert api["title"] == "Civilization: el juego de cartas"
    assert get(server, "/api/rules/carta?lang=fr").json()["title"] == (
        "CIV : Carta Impera Victoria"
    )
    page = html.unescape(get(server, "/rules/civ4?lang=pt").text)
    assert "<title>Civilization: o jogo de cartas · " in page

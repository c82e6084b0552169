"""Issue 37: the table uses each game's strongest search (``table_search``) for its top
lobby level, its hints and its post-game review, unless the server's settings name one
bot for every game; a bad setting is one sentence."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine

from civcards.analysis import check_bot, fitted_bot
from civcards.bots import TABLE_SEARCHES, bot_names, table_search
from civcards.game_api import all_games, get_game
from civcards.server.review import (
    DEFAULT_ANALYSIS_BUDGET,
    DEFAULT_HINT_BUDGET,
    AnalysisPool,
    review_settings,
)


def test_each_game_has_a_table_search_it_can_play() -> None:
    for game in all_games():
        name = table_search(game)
        assert name in TABLE_SEARCHES, name
        if "ismcts" in bot_names(game):
            assert name in bot_names(game), (game.name, name)


def test_the_reviews_and_hints_use_the_games_own_search_by_default() -> None:
    workers, bot, hint = review_settings({})
    assert (workers, bot, hint) == (1, None, None)
    pool = AnalysisPool(create_engine("sqlite://"), workers, bot, hint)
    for name in ("carta", "civ4"):
        game = get_game(name)
        top = table_search(game)
        assert pool.bot_for(game) == f"{top}:{DEFAULT_ANALYSIS_BUDGET}"
        assert pool.hint_bot_for(game) == f"{top}:{DEFAULT_HINT_BUDGET}"
        check_bot(game, pool.bot_for(game))  # it values its options: it can review
        check_bot(game, pool.hint_bot_for(game))
        # a long game's review fits its time whichever search it is
        assert fitted_bot(pool.bot_for(game), 400, 50.0) == f"{top}:83ms"


def test_a_setting_names_one_bot_for_every_game() -> None:
    env = {"CIVCARDS_ANALYSIS_BOT": "ismcts+net:100ms", "CIVCARDS_HINT_BOT": "ismcts:40it"}
    workers, bot, hint = review_settings(env)
    pool = AnalysisPool(create_engine("sqlite://"), workers, bot, hint)
    for name in ("carta", "civ4"):
        game = get_game(name)
        assert pool.bot_for(game) == "ismcts+net:100ms"
        assert pool.hint_bot_for(game) == "ismcts:40it"


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"CIVCARDS_ANALYSIS_BOT": "greedy"}, "must name a search bot"),
        ({"CIVCARDS_HINT_BOT": "net"}, "must name a search bot"),
        ({"CIVCARDS_ANALYSIS_BOT": "ismcts+net:fast"}, "CIVCARDS_ANALYSIS_BOT:"),
        ({"CIVCARDS_ANALYSIS_WORKERS": "0"}, "from 1 to 64"),
    ],
)
def test_a_bad_setting_is_one_sentence(env: dict[str, str], words: str) -> None:
    with pytest.raises(ValueError, match=words) as e:
        review_settings(env)
    assert "\n" not in str(e.value)

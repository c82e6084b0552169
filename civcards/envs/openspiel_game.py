"""Games with an encoding as OpenSpiel games; CIV is ``pyspiel.load_game("python_civ_carta")``.

Importing this module registers every built-in game that has an OpenSpiel
model (``Game.encoding().spiel()``); :func:`register` adds another. The shell
is generic: a game's model supplies a *core* (its position, with explicit
chance nodes, each seat's information string, its observation tensor and
resampling for ISMCTS), and the shell turns it into ``pyspiel.Game`` and
``pyspiel.State``, an observer, and a bot adapter.

A model (CIV's is :class:`civcards.games.carta.spiel.CartaSpiel`) has:
``short_name``, ``long_name``, ``max_chance_outcomes``, ``default_max_length``,
``parameters`` (the OpenSpiel parameters and their defaults, besides
``max_game_length``), ``observation_size``, ``num_actions``,
``check(params) -> (players, utility_sum)`` and ``new_core(params, max_length)``.
A core has ``current_player()`` (a seat, -1 for chance, -4 when over),
``legal_actions(player)``, ``chance_outcomes()``, ``apply(action)``,
``is_terminal()``, ``returns()``, ``action_to_string(player, action)``,
``info_string(player)``, ``public_info_string(player)``, ``encode(player)``,
``view_string(player)``, ``resample(player, seed)`` (in place, on a copy),
``bot_actions(bot)`` and ``__deepcopy__``.

CIV's parameters: ``players`` (2-4), ``deal`` (``"basic"`` or ``"draft"``),
``teams`` (bool, 4 players) and ``max_game_length`` (player actions before a
game is adjudicated a shared victory of everyone; random games take about 150).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..bots import Bot
from ..game_api import DEFAULT_GAME, Game, all_games, get_game
from .protocol import encoding_of

#: short name -> (the pyspiel game type, the model)
_REGISTERED: dict[str, tuple[Any, Any]] = {}


def register(game: Game) -> str:
    """Register ``game``'s OpenSpiel model with ``pyspiel``; its short name."""
    model = encoding_of(game).spiel()
    if model is None:
        raise ValueError(f"{game.title} has no OpenSpiel model")
    name = str(model.short_name)
    if name in _REGISTERED:
        return name
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=str(model.long_name),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            **model.parameters,
            "max_game_length": int(model.default_max_length),
        },
    )
    _REGISTERED[name] = (game_type, model)
    # pyspiel builds the game from a class: one subclass per game, holding its model
    cls = type(f"SpielGame_{game.name}", (SpielGame,), {"game_type": game_type, "model": model})
    pyspiel.register_game(game_type, cls)
    return name


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A civcards game in OpenSpiel; ``pyspiel.load_game("python_civ_carta(players=3,deal=draft)")``."""

    #: set on each game's subclass by :func:`register`
    game_type: Any = None
    model: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type, model = self.game_type, self.model
        p = {**game_type.parameter_specification, **(params or {})}
        players, utility_sum = model.check(p)
        info = pyspiel.GameInfo(
            num_distinct_actions=int(model.num_actions),
            max_chance_outcomes=int(model.max_chance_outcomes),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=utility_sum,
            max_game_length=int(p["max_game_length"]),
        )
        super().__init__(game_type, info, params or {})
        self.params = p
        self.players = players
        self.max_length = int(p["max_game_length"])

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpielObserver:
        return SpielObserver(iig_obs_type, params, int(self.model.observation_size))


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A position: the model's core behind OpenSpiel's state interface."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.core: Any = game.model.new_core(game.params, game.max_length)

    @property
    def table(self) -> Any:
        """The action table being played (None until the core has one, e.g. before the deal)."""
        return getattr(self.core, "table", None)

    def current_player(self) -> int:
        return int(self.core.current_player())

    def is_terminal(self) -> bool:
        return bool(self.core.is_terminal())

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.core.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.core.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        self.core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.core.action_to_string(player, action))

    def returns(self) -> list[float]:
        return list(self.core.returns())

    def __str__(self) -> str:
        return str(self.core)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one, its hidden parts dealt afresh
        (the model's ``resample``)."""
        clone: SpielState = self.clone()
        seed = probability_sampler() if callable(probability_sampler) else None
        clone.core.resample(player_id, seed)
        return clone


class SpielObserver:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, size: int) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            self.perfect_recall = False
            self.private = True
        else:
            if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("an observer of every player's private cards is not offered")
            self.perfect_recall = bool(iig_obs_type.perfect_recall)
            self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor[:] = state.core.encode(player if self.private else None)

    def string_from(self, state: SpielState, player: int) -> str:
        if self.perfect_recall:
            if self.private:
                return str(state.core.info_string(player))
            return str(state.core.public_info_string(player))
        return str(state.core.view_string(player if self.private else None))


class CivcardsBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (:mod:`civcards.bots`) playing through an OpenSpiel game.

    It sees only its seat's observation and choices; a move that takes several
    actions (CIV: a ``?`` prefix, then its picks) is played over as many steps.
    """

    def __init__(self, bot: Bot) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self._plan: list[int] = []

    def restart_at(self, state: Any) -> None:
        self._plan = []

    def step(self, state: SpielState) -> int:
        assert not state.is_chance_node()
        if self._plan:
            return self._plan.pop(0)
        actions = [int(a) for a in state.core.bot_actions(self.bot)]
        self._plan = actions[1:]
        return actions[0]


def load(players: int = 2, game: str = DEFAULT_GAME, **params: Any) -> Any:
    """``pyspiel.load_game`` of ``game`` (registered first) with these parameters."""
    name = register(get_game(game))
    return pyspiel.load_game(name, {"players": players, **params})


def _register_builtins() -> None:
    for game in all_games():
        get = getattr(game, "encoding", None)
        enc = get() if get is not None else None
        if enc is not None and enc.spiel() is not None:
            register(game)


_register_builtins()

#: the default game's short name (CIV's ``python_civ_carta``) and its class names of before
_DEFAULT_MODEL: Any = encoding_of(get_game(DEFAULT_GAME)).spiel()
SHORT_NAME: str = str(_DEFAULT_MODEL.short_name)
CivCartaGame = SpielGame
CivCartaState = SpielState
CivObserver = SpielObserver

__all__ = [
    "SHORT_NAME",
    "CivcardsBot",
    "SpielGame",
    "SpielObserver",
    "SpielState",
    "load",
    "register",
]

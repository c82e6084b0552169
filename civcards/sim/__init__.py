"""Simulation and benchmarks: bot-against-bot runs and engine throughput."""

from __future__ import annotations

from .simulate import GameResult, SimConfig, Summary, play_game, simulate

__all__ = ["GameResult", "SimConfig", "Summary", "play_game", "simulate"]

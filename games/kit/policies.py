"""Seat policies over the engine protocol, for simulations (``deckyard balance``).

A policy picks one of ``engine.legal_actions(state, seat)`` and is a pure function of
its arguments: its chance is a ``games.kit.chance`` draw keyed by the policy's own seed,
the seat and the state's version, on a stream apart from the match's, so the same seed
gives the same choices and a policy never shifts the match's chance draws. Policies
never forfeit (a simulation measures play, not surrender), unless forfeiting is all
that is legal.

- ``random_policy``: uniform over the legal actions.
- ``greedy_policy(evaluate)``: one ply: applies each legal action and keeps those whose
  state ``evaluate`` scores highest for the seat; a draw breaks ties.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from games.kit.chance import uniform
from games.kit.protocol import Engine, Seat

FORFEIT = "forfeit"  # the action kind every game's JSON names a surrender with


class Policy(Protocol):
    """The action ``seat`` takes now; ``seed`` is the policy's own, ``now`` the time."""

    def __call__(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime
    ) -> Any: ...


Evaluate = Callable[[Any, Seat], float]  # a state's worth to a seat (higher is better)


def _choices(engine: Engine[Any, Any, Any], state: Any, seat: Seat) -> list[Any]:
    legal = engine.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"{seat} has no legal action")
    playing = [a for a in legal if engine.action_to_json(a).get("kind") != FORFEIT]
    return playing or legal


def _draw(
    seed: int, label: str, engine: Engine[Any, Any, Any], state: Any, seat: Seat, n: int
) -> int:
    index, _ = uniform(seed, f"policy:{label}:{seat}:{engine.version(state)}", 0, n)
    return index


def random_policy(
    engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime
) -> Any:
    """Uniform over the legal actions (forfeit left out)."""
    options = _choices(engine, state, seat)
    return options[_draw(seed, "random", engine, state, seat, len(options))]


def best(scores: Sequence[float]) -> list[int]:
    """The positions of the highest score."""
    top = max(scores)
    return [i for i, score in enumerate(scores) if score == top]


def greedy_policy(evaluate: Evaluate) -> Policy:
    """One ply: the action whose resulting state ``evaluate`` scores best for the seat."""

    def policy(
        engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime
    ) -> Any:
        options = _choices(engine, state, seat)
        scores = [evaluate(engine.apply(state, seat, a, now)[0], seat) for a in options]
        tied = best(scores)
        return options[tied[_draw(seed, "greedy", engine, state, seat, len(tied))]]

    return policy

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
- ``lookahead_policy(evaluate)``: two plies, the stronger one: each action followed by the
  opponent's reply, averaged over its legal replies (expectimax against a uniform
  opponent, which is what the Quest CPU is).
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


def lookahead_policy(evaluate: Evaluate) -> Policy:
    """Two plies: each legal action of the seat, then the reply of the seat that decides
    next, averaged over its legal actions (forfeit left out), as if it chose uniformly
    (the Quest CPU does). The action whose average ``evaluate`` is best; a draw breaks
    ties. When the match is over, or the seat itself decides next, the state after the
    action is scored as it is (one ply)."""

    def expected(engine: Engine[Any, Any, Any], after: Any, seat: Seat, now: datetime) -> float:
        waiting = engine.waiting_for(after)
        if not waiting or seat in waiting:
            return evaluate(after, seat)
        other = waiting[0]
        replies = _choices(engine, after, other)
        total = 0.0
        for reply in replies:
            total += evaluate(engine.apply(after, other, reply, now)[0], seat)
        return total / len(replies)

    def policy(
        engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime
    ) -> Any:
        options = _choices(engine, state, seat)
        if len(options) == 1:
            return options[0]
        scores = [
            expected(engine, engine.apply(state, seat, a, now)[0], seat, now) for a in options
        ]
        tied = best(scores)
        return options[tied[_draw(seed, "lookahead", engine, state, seat, len(tied))]]

    return policy

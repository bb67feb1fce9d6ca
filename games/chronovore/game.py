"""Chronovore behind the engine protocol of games/kit: ``CHRONOVORE`` is what a host holds.

Seats are whatever two names the host gives (``{"player": deck, "cpu": deck}`` against
the computer, two players' seats otherwise), each bringing a deck: a sequence of
``Card`` (``cards.card_from_definition`` of each published definition). Results are
``state.Result`` values: "win", "loss", "draw", and "left" for a seat that left (the
other seat wins). ``CHRONOVORE_CPU`` is the computer's seat policy: the one the match
started with (``Settings.cpu_policy``: ``cpu.py`` for new matches, ``cpu_v1.py`` for
those begun before matches recorded it), so a live match keeps its course across an
upgrade and a finished one verifies (docs/fairness.md, "CPU policy versions").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from games.chronovore import cpu, cpu_v1, engine, rules
from games.chronovore import view as views
from games.chronovore.actions import Action
from games.chronovore.engine import Deck
from games.chronovore.state import MatchState, Phase, Settings
from games.kit.protocol import CpuPolicy, Engine, Event, Seat

# Every CPU policy a match may have recorded, by its number. One is never removed while a
# stored match (live, or finished and still to verify) may name it.
CPU_POLICIES: Mapping[int, CpuPolicy[MatchState, Action]] = {
    cpu_v1.VERSION: cpu_v1.cpu_action,
    cpu.VERSION: cpu.cpu_action,
}


def known_policy(settings: Settings) -> Settings:
    """``settings`` when its CPU policy is one of ``CPU_POLICIES``; a ValueError else (a
    state or replay from a newer release, or an altered one)."""
    if settings.cpu_policy not in CPU_POLICIES:
        raise ValueError(f"unknown Chronovore CPU policy {settings.cpu_policy}")
    return settings


def recorded_cpu(state: MatchState, seat: Seat) -> Action | None:
    """The CPU's next action by the policy its match started with."""
    return CPU_POLICIES[state.settings.cpu_policy](state, seat)


class ChronovoreEngine:
    game = "chronovore"

    # ``Settings | None``: a host may pass None for the defaults (battle does); compiled
    # (mypyc), a parameter typed ``Settings`` alone would refuse it with a TypeError.
    def new_match(
        self, settings: Settings | None, seats: Mapping[Seat, Deck], seed: int, now: datetime
    ) -> MatchState:
        checked = None if settings is None else known_policy(settings)
        return engine.new_match(seats, seed, now, checked)

    def legal_actions(self, state: MatchState, seat: Seat) -> list[Action]:
        return rules.legal_actions(state, seat)

    def apply(
        self, state: MatchState, seat: Seat, action: Action, now: datetime
    ) -> tuple[MatchState, list[Event]]:
        return engine.apply(state, seat, action, now)

    def view(self, state: MatchState, seat: Seat) -> dict[str, Any]:
        return views.view(state, seat)

    def view_events(self, events: Iterable[Event], seat: Seat) -> list[Event]:
        return views.view_events(events, seat)

    def version(self, state: MatchState) -> int:
        return state.version

    def seen_version(self, state: MatchState, seat: Seat) -> int:
        return state.seen_version(seat)

    def waiting_for(self, state: MatchState) -> list[Seat]:
        if state.phase is Phase.FINISHED:
            return []
        return [
            seat for seat, side in zip(state.seats, state.sides, strict=True) if not side.locked
        ]

    def results(self, state: MatchState) -> dict[Seat, str] | None:
        if state.results is None:
            return None
        return dict(zip(state.seats, state.results, strict=True))

    def deadline(self, state: MatchState) -> datetime | None:
        return state.deadline

    def timeouts(self, state: MatchState) -> list[tuple[Seat, Action]]:
        return engine.timeouts(state)

    def expire(self, state: MatchState, now: datetime) -> tuple[MatchState, list[Event]]:
        return engine.expire(state, now)

    def replay(
        self,
        settings: Settings | None,
        seats: Mapping[Seat, Deck],
        seed: int,
        started_at: datetime,
        log: Iterable[tuple[Seat, Action, datetime]],
    ) -> MatchState:
        return engine.replay(self.new_match(settings, seats, seed, started_at), log)

    def to_json(self, state: MatchState) -> dict[str, Any]:
        return state.to_dict()

    def from_json(self, data: Mapping[str, Any]) -> MatchState:
        state = MatchState.from_dict(data)
        known_policy(state.settings)
        return state

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action.to_dict()

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return Action.from_dict(data)


CHRONOVORE: Engine[Settings, MatchState, Action] = ChronovoreEngine()
CHRONOVORE_CPU: CpuPolicy[MatchState, Action] = recorded_cpu

"""Quest behind the engine protocol of games/kit: ``QUEST`` is what a match host holds.

A thin adapter over the engine's functions: the seats are "player" and "cpu",
each bringing a ``Deck``. Assigning it to ``Engine[...]`` below lets mypy check
it against the protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from games.kit.protocol import Engine, Event, Seat
from games.quest import engine, rules
from games.quest import view as views
from games.quest.actions import Action
from games.quest.engine import Deck, Settings
from games.quest.state import MatchState, Phase, Side


class QuestEngine:
    game = "quest"

    def new_match(
        self, settings: Settings, seats: Mapping[Seat, Deck], seed: int, now: datetime
    ) -> MatchState:
        return engine.new_match(seats[Side.PLAYER], seats[Side.CPU], seed, now, settings)

    def legal_actions(self, state: MatchState, seat: Seat) -> list[Action]:
        return rules.legal_actions(state, Side(seat)) if seat in set(Side) else []

    def apply(
        self, state: MatchState, seat: Seat, action: Action, now: datetime
    ) -> tuple[MatchState, list[Event]]:
        return engine.apply(state, Side(seat), action, now)

    def view(self, state: MatchState, seat: Seat) -> dict[str, Any]:
        return views.view(state, Side(seat))

    def deadline(self, state: MatchState) -> datetime | None:
        return state.deadline if state.phase is Phase.NORMAL_TURN else None

    def expire(self, state: MatchState, now: datetime) -> tuple[MatchState, list[Event]]:
        return engine.expire(state, now)

    def replay(
        self,
        settings: Settings,
        seats: Mapping[Seat, Deck],
        seed: int,
        started_at: datetime,
        log: Iterable[tuple[Seat, Action, datetime]],
    ) -> MatchState:
        initial = self.new_match(settings, seats, seed, started_at)
        return engine.replay(initial, ((Side(seat), a, at) for seat, a, at in log))

    def to_json(self, state: MatchState) -> dict[str, Any]:
        return state.to_dict()

    def from_json(self, data: Mapping[str, Any]) -> MatchState:
        return MatchState.from_dict(data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action.to_dict()

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return Action.from_dict(data)


QUEST: Engine[Settings, MatchState, Action] = QuestEngine()

"""Quest behind the engine protocol of games/kit: ``QUEST`` is what a match host holds.

A thin adapter over the engine's functions: the seats are "player" and "cpu",
each bringing a ``Deck``. Results are ``points.MatchOutcome`` values: the winner's
"victory", the loser's "defeat", or "forfeit" for a side that gave up. Assigning
it to ``Engine[...]`` below lets mypy check it against the protocol; ``QUEST_CPU``
is the CPU policy (``cpu.cpu_action``) against the kit's ``CpuPolicy``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from games.kit.protocol import CpuPolicy, Engine, Event, Seat
from games.quest import engine, rules
from games.quest import view as views
from games.quest.actions import Action
from games.quest.cpu import cpu_action
from games.quest.engine import Deck, Settings
from games.quest.points import MatchOutcome
from games.quest.state import FinishReason, MatchState, Phase, Side

_GIVEN_UP = (
    FinishReason.FORFEIT,
    FinishReason.MISSED_DEADLINE,
    FinishReason.TIMEOUTS,
    FinishReason.DISCONNECTED,
)


class QuestEngine:
    game = "quest"

    # ``Settings | None``: a host may pass None for the defaults (battle does); compiled
    # (mypyc), a parameter typed ``Settings`` alone would refuse it with a TypeError.
    def new_match(
        self, settings: Settings | None, seats: Mapping[Seat, Deck], seed: int, now: datetime
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

    def view_events(self, events: Iterable[Event], seat: Seat) -> list[Event]:
        return views.view_events(events, Side(seat))

    def version(self, state: MatchState) -> int:
        return state.version

    def seen_version(self, state: MatchState, seat: Seat) -> int:
        return self.version(state)  # nothing one seat does is hidden from the other

    def waiting_for(self, state: MatchState) -> list[Seat]:
        if state.phase is Phase.NORMAL_TURN and state.turn is not None:
            return [str(state.turn)]
        return [str(side) for side in state.pending]  # a selection: who has not chosen yet

    def results(self, state: MatchState) -> dict[Seat, str] | None:
        if state.phase is not Phase.FINISHED or state.winner is None:
            return None
        loser = state.winner.other
        gave_up = state.finish_reason in _GIVEN_UP
        return {
            str(state.winner): str(MatchOutcome.VICTORY),
            str(loser): str(MatchOutcome.FORFEIT if gave_up else MatchOutcome.DEFEAT),
        }

    def deadline(self, state: MatchState) -> datetime | None:
        # A normal turn's; a selection's too where a missed window forfeits.
        return None if state.phase is Phase.FINISHED else state.deadline

    def timeouts(self, state: MatchState) -> list[tuple[Seat, Action]]:
        # Rulebook: a normal turn's deadline passing is that side's timeout (the turn
        # ends); in asynchronous PvP the engine turns it into that side's forfeit.
        side = engine.missed_by(state)
        if state.deadline is None or side is None:
            return []
        return [(str(side), Action.timeout())]

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
QUEST_CPU: CpuPolicy[MatchState, Action] = cpu_action

"""A second game, for the host's tests only: two seats count to a target in turns.

Seats "north" and "south" take turns adding 1 or 2 to a shared count; whoever reaches
``TARGET`` wins. A turn lasts ``TURN`` and, once it has passed, time alone makes that
seat ``wait`` (its turn ends, nothing added). Either seat may resign. The CPU adds 2
when that wins, else 1. Pure and tiny, but it implements the whole kit protocol, so a
host that runs it and Quest alike knows no game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from games.kit.protocol import CpuPolicy, Engine, Event, Seat
from games.kit.refusal import Refusal

TARGET = 10
TURN = timedelta(seconds=30)
SEATS = ("north", "south")


@dataclass(frozen=True)
class Count:
    count: int
    turn: str | None
    deadline: datetime | None
    version: int = 0
    winner: str | None = None
    resigned: str | None = None


class CountGame:
    game = "count"

    def new_match(
        self, settings: Any, seats: Mapping[Seat, Any], seed: int, now: datetime
    ) -> Count:
        first = SEATS[seed % 2]  # "chance" from the seed alone
        return Count(int(settings or 0), first, now + TURN)

    def legal_actions(self, state: Count, seat: Seat) -> list[dict[str, Any]]:
        if state.winner is not None or seat not in SEATS:
            return []
        moves = [{"add": n} for n in (1, 2)] if seat == state.turn else []
        return [*moves, {"resign": True}]

    def apply(
        self, state: Count, seat: Seat, action: dict[str, Any], now: datetime
    ) -> tuple[Count, list[Event]]:
        if action not in self.legal_actions(state, seat) and action != {"wait": True}:
            raise Refusal("not_allowed", f"{seat} may not {action} now")
        other = SEATS[1 - SEATS.index(seat)]
        if action.get("resign"):
            done = replace(state, winner=other, resigned=seat, turn=None, deadline=None)
            return replace(done, version=state.version + 1), [{"type": "resigned", "seat": seat}]
        late = state.deadline is not None and now >= state.deadline
        if late or action.get("wait"):  # the turn just ends
            nxt = replace(state, turn=other, deadline=now + TURN, version=state.version + 1)
            return nxt, [{"type": "waited", "seat": seat}]
        count = state.count + action["add"]
        won = count >= TARGET
        nxt = replace(
            state,
            count=count,
            turn=None if won else other,
            deadline=None if won else now + TURN,
            winner=seat if won else None,
            version=state.version + 1,
        )
        return nxt, [{"type": "added", "seat": seat, "count": count, "secret": "hidden"}]

    def view(self, state: Count, seat: Seat) -> dict[str, Any]:
        return {"count": state.count, "turn": state.turn, "winner": state.winner}

    def view_events(self, events: Iterable[Event], seat: Seat) -> list[Event]:
        return [{k: v for k, v in e.items() if k != "secret"} for e in events]

    def version(self, state: Count) -> int:
        return state.version

    def seen_version(self, state: Count, seat: Seat) -> int:
        return state.version

    def waiting_for(self, state: Count) -> list[Seat]:
        return [] if state.turn is None else [state.turn]

    def results(self, state: Count) -> dict[Seat, str] | None:
        if state.winner is None:
            return None
        loser = "resigned" if state.resigned else "lost"
        return {s: "won" if s == state.winner else loser for s in SEATS}

    def deadline(self, state: Count) -> datetime | None:
        return state.deadline

    def timeouts(self, state: Count) -> list[tuple[Seat, dict[str, Any]]]:
        return [] if state.turn is None else [(state.turn, {"wait": True})]

    def expire(self, state: Count, now: datetime) -> tuple[Count, list[Event]]:
        if state.deadline is None or now < state.deadline:
            return state, []
        [(seat, action)] = self.timeouts(state)
        return self.apply(state, seat, action, now)

    def replay(
        self,
        settings: Any,
        seats: Mapping[Seat, Any],
        seed: int,
        started_at: datetime,
        log: Iterable[tuple[Seat, dict[str, Any], datetime]],
    ) -> Count:
        state = self.new_match(settings, seats, seed, started_at)
        for seat, action, at in log:
            state, _ = self.apply(state, seat, action, at)
        return state

    def to_json(self, state: Count) -> dict[str, Any]:
        return {**state.__dict__}

    def from_json(self, data: Mapping[str, Any]) -> Count:
        return Count(**data)

    def action_to_json(self, action: dict[str, Any]) -> dict[str, Any]:
        return dict(action)

    def action_from_json(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if set(data) == {"add"} and data["add"] in (1, 2) and type(data["add"]) is int:
            return dict(data)
        if dict(data) == {"resign": True}:
            return dict(data)
        raise Refusal("invalid_action", "add 1 or 2, or resign")


def cpu(state: Count, seat: Seat, /) -> dict[str, Any] | None:
    if state.turn != seat:
        return None
    return {"add": 2 if state.count + 2 >= TARGET else 1}


COUNT: Engine[Any, Count, dict[str, Any]] = CountGame()
COUNT_CPU: CpuPolicy[Count, dict[str, Any]] = cpu

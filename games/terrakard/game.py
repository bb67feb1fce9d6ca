"""TerraKard behind the engine protocol of games/kit: ``TERRAKARD`` is what a match host
holds, ``TERRAKARD_CPU`` a policy for the attacker's seat in simulations.

Two seats: "attacker" (a player, acting live) and "defender" (a saved plan: it never
acts). Each brings its snapshot: an ``AttackerSide`` (the 8-card deck, questions on or
off) and a ``DefenseSide`` (the plan, with the pseudonym, level and trophies the
reconnaissance shows). Results, in the game's words: the attacker's "three_stars",
"two_stars", "one_star", "defeat" or "forfeit" (gave up); the defender's "victory" or
"defeat".

A host marks a client's answer before applying it (``actions.marked``) and keeps the
answer key itself; the engine refuses an unmarked answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from games.kit.protocol import CpuPolicy, Engine, Event, Seat
from games.terrakard import engine, rules
from games.terrakard import view as views
from games.terrakard.actions import Action
from games.terrakard.cpu import attacker_action
from games.terrakard.engine import Settings
from games.terrakard.state import ATTACKER, DEFENDER, AttackState, FinishReason

STARS_WORD = {3: "three_stars", 2: "two_stars", 1: "one_star"}


class TerraKardEngine:
    game = "terrakard"

    # ``Settings | None``: a host may pass None for the defaults (battle does); compiled
    # (mypyc), a parameter typed ``Settings`` alone would refuse it with a TypeError.
    def new_match(
        self, settings: Settings | None, seats: Mapping[Seat, Any], seed: int, now: datetime
    ) -> AttackState:
        return engine.new_match(seats[ATTACKER], seats[DEFENDER], seed, now, settings)

    def legal_actions(self, state: AttackState, seat: Seat) -> list[Action]:
        return rules.legal_actions(state, seat)

    def apply(
        self, state: AttackState, seat: Seat, action: Action, now: datetime
    ) -> tuple[AttackState, list[Event]]:
        return engine.apply(state, seat, action, now)

    def view(self, state: AttackState, seat: Seat) -> dict[str, Any]:
        return views.view(state, seat)

    def view_events(self, events: Iterable[Event], seat: Seat) -> list[Event]:
        return views.view_events(events, seat)

    def version(self, state: AttackState) -> int:
        return state.version

    def seen_version(self, state: AttackState, seat: Seat) -> int:
        return self.version(state)  # nothing one seat does is hidden from the other

    def waiting_for(self, state: AttackState) -> list[Seat]:
        return [] if state.finished else [ATTACKER]

    def results(self, state: AttackState) -> dict[Seat, str] | None:
        if not state.finished:
            return None
        if state.attacker_won:
            return {ATTACKER: STARS_WORD[state.stars], DEFENDER: "defeat"}
        gave_up = state.finish_reason is FinishReason.GAVE_UP
        return {ATTACKER: "forfeit" if gave_up else "defeat", DEFENDER: "victory"}

    def deadline(self, state: AttackState) -> datetime | None:
        return state.deadline

    def timeouts(self, state: AttackState) -> list[tuple[Seat, Action]]:
        return engine.timeouts(state)

    def expire(self, state: AttackState, now: datetime) -> tuple[AttackState, list[Event]]:
        return engine.expire(state, now)

    def replay(
        self,
        settings: Settings | None,
        seats: Mapping[Seat, Any],
        seed: int,
        started_at: datetime,
        log: Iterable[tuple[Seat, Action, datetime]],
    ) -> AttackState:
        return engine.replay(self.new_match(settings, seats, seed, started_at), log)

    def to_json(self, state: AttackState) -> dict[str, Any]:
        return state.to_dict()

    def from_json(self, data: Mapping[str, Any]) -> AttackState:
        return AttackState.from_dict(data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action.to_dict()

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return Action.from_dict(data)


TERRAKARD: Engine[Settings, AttackState, Action] = TerraKardEngine()
TERRAKARD_CPU: CpuPolicy[AttackState, Action] = attacker_action

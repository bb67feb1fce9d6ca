"""Quest CPU matches around the pure engine: the CPU deck's cards, the CPU's replies, outcomes.

Pure: no I/O, no clock, no random (the engine's chance comes from the match seed).
A player's request becomes ``play`` (their action, then every CPU action until the
player must act again); time passing becomes ``catch_up`` (an overdue turn's timeout,
then the CPU). Each applied action is a ``Step``, logged in order; ``Step.version`` is
the state version it produced, so the log replayed over the initial state is the match.
What leaves the service is built in ``views``.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from games.kit.refusal import Refusal
from games.quest import (
    Action,
    Deck,
    FinishReason,
    IllegalAction,
    MatchState,
    Phase,
    Side,
    apply,
    cpu_action,
    creature_from_definition,
    expire,
    overdue,
    power_card_from_definition,
)
from games.quest.cpu import CpuDeckNames
from games.quest.effects import Event
from games.quest.engine import CREATURES_PER_DECK, POWER_CARDS_PER_DECK
from shared.errors import InvalidInput, ServiceUnavailable

GAME = "quest"
MODE = "cpu"
# Ours: a bound on CPU actions in a row, against a loop; the rules need at most two
# (a replacement selection, then its normal turn).
MAX_CPU_STEPS = 8


class Status(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"


class Outcome(StrEnum):
    """The player's result (MatchFinishedV1.outcome)."""

    VICTORY = "victory"
    DEFEAT = "defeat"
    FORFEIT = "forfeit"


@dataclass(frozen=True)
class Step:
    """One applied action: who, what (as submitted), when, what happened."""

    side: Side
    action: Action
    at: datetime
    events: list[Event]
    version: int  # the state version this action produced: its place in the log


@dataclass(frozen=True)
class Match:
    id: uuid.UUID
    player_id: uuid.UUID
    deck_id: uuid.UUID
    deck_version: int
    status: Status
    state: MatchState
    seed: int
    created_at: datetime
    updated_at: datetime
    outcome: Outcome | None = None
    finished_at: datetime | None = None

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def deadline(self) -> datetime | None:
        """The normal-turn deadline; None in selection phases and once finished."""
        return self.state.deadline if self.state.phase is Phase.NORMAL_TURN else None


# -- decks --------------------------------------------------------------------------------

_BAD_CARD = (KeyError, TypeError, ValueError, Refusal)


def player_deck(cards: Sequence[Mapping[str, Any]]) -> Deck:
    """The engine deck from cards' ``deck_for_match`` cards, in the deck's order."""
    try:
        creatures = tuple(
            creature_from_definition(str(c["definition_id"]), c["definition"])
            for c in cards
            if c["kind"] == "creature"
        )
        power_cards = tuple(
            power_card_from_definition(str(c["definition_id"]), c["definition"])
            for c in cards
            if c["kind"] == "power_card"
        )
    except _BAD_CARD as exc:
        raise InvalidInput(
            "deck_not_playable", "a card of this deck cannot be played in a match"
        ) from exc
    if len(creatures) != CREATURES_PER_DECK or len(power_cards) != POWER_CARDS_PER_DECK:
        raise InvalidInput("deck_not_playable", "a match needs 3 Creatures and 2 Power cards")
    return Deck(creatures, power_cards)


def _named(name: str) -> str:
    return name.strip().lower()  # as authoring keeps names unique


def _pick(name: str, kind: str, definitions: Sequence[Mapping[str, Any]]) -> Any:
    """The active version of the lineage founded as ``name``, if it makes a playable card."""
    build = creature_from_definition if kind == "creature" else power_card_from_definition
    for found in definitions:
        if _named(str(found.get("lineage_name", ""))) != _named(name):
            continue
        try:
            return build(str(found["id"]), found["definition"])
        except _BAD_CARD:
            continue
    raise ServiceUnavailable(
        "cpu_deck_unavailable", f"the CPU deck's {name} is not available; try again later"
    )


def cpu_deck(
    names: CpuDeckNames,
    creatures: Sequence[Mapping[str, Any]],
    power_cards: Sequence[Mapping[str, Any]],
) -> Deck:
    """The CPU deck from ``active_definitions_named`` results, in the configured order."""
    return Deck(
        tuple(_pick(n, "creature", creatures) for n in names.creatures),
        tuple(_pick(n, "power_card", power_cards) for n in names.power_cards),
    )


# -- actions ------------------------------------------------------------------------------


def parse_action(data: Mapping[str, Any]) -> Action:
    """A client's action object; a malformed one is invalid input, not a rules refusal."""
    try:
        return Action.from_dict(data)
    except IllegalAction as exc:
        raise InvalidInput(exc.code, exc.message, exc.details) from None


def cpu_must_act(state: MatchState) -> bool:
    if state.phase is Phase.FINISHED:
        return False
    if Side.CPU in state.pending:
        return True
    return state.phase is Phase.NORMAL_TURN and state.turn is Side.CPU


def cpu_replies(state: MatchState, now: datetime) -> tuple[MatchState, list[Step]]:
    """Every CPU action until the player must act (or the match is over)."""
    steps: list[Step] = []
    for _ in range(MAX_CPU_STEPS):
        if not cpu_must_act(state):
            break
        action = cpu_action(state, Side.CPU)
        if action is None:
            break
        state, events = apply(state, Side.CPU, action, now)
        steps.append(Step(Side.CPU, action, now, events, state.version))
    return state, steps


def play(
    state: MatchState, side: Side, action: Action, now: datetime
) -> tuple[MatchState, list[Step]]:
    """``side``'s action (the engine refuses it before any change), then the CPU's."""
    state, events = apply(state, side, action, now)
    first = Step(side, action, now, events, state.version)
    state, replies = cpu_replies(state, now)
    return state, [first, *replies]


def catch_up(state: MatchState, now: datetime) -> tuple[MatchState, list[Step]]:
    """What time alone does: an overdue turn times out, then the CPU acts if it must."""
    steps: list[Step] = []
    if overdue(state, now) and state.turn is not None:
        mover = state.turn
        state, events = expire(state, now)
        steps.append(Step(mover, Action.timeout(), now, events, state.version))
    state, replies = cpu_replies(state, now)
    return state, steps + replies


# -- results ------------------------------------------------------------------------------


def outcome_of(state: MatchState) -> Outcome | None:
    if state.phase is not Phase.FINISHED:
        return None
    if state.winner is Side.PLAYER:
        return Outcome.VICTORY
    return Outcome.FORFEIT if state.finish_reason is FinishReason.FORFEIT else Outcome.DEFEAT


def advance(match: Match, state: MatchState, now: datetime) -> Match:
    """The match with its new state; finished (with its outcome) if the engine says so."""
    outcome = outcome_of(state)
    if outcome is None or match.status is Status.FINISHED:
        return replace(match, state=state, updated_at=now)
    return replace(
        match,
        state=state,
        updated_at=now,
        status=Status.FINISHED,
        outcome=outcome,
        finished_at=now,
    )


_FINISHED_EVENTS = uuid.UUID("6d1b3c1e-5f0a-4f44-9a53-0c2b8f6e1a70")


def finished_event_id(match_id: uuid.UUID) -> uuid.UUID:
    """One MatchFinished per match: its event id follows from the match id (the outbox
    refuses a second row with the same event id)."""
    return uuid.uuid5(_FINISHED_EVENTS, str(match_id))


def same_request(step: Step, action: Action, expected_version: int) -> bool:
    """Whether a request repeats the one logged at ``step`` (for its idempotency key)."""
    return step.action == action and step.version - 1 == expected_version

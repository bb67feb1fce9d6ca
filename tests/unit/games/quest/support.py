"""Helpers for the Quest engine tests (no tests here): small custom cards and
``prepare_battle(seed=...)``, which builds a match already in its first normal
turn, fireplace-style, so each test states only the cards it is about.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from games.quest import (
    Action,
    CreatureCard,
    Deck,
    MatchState,
    Phase,
    PowerCard,
    Settings,
    Side,
    apply,
    creature_from_definition,
    new_match,
    power_card_from_definition,
)
from games.quest.state import Creature

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PLAYER, CPU = Side.PLAYER, Side.CPU
CATALOGUE = Path(__file__).parents[4] / "services/authoring/seed/quest_cards.json"


def dmg(amount: int) -> dict[str, Any]:
    return {"type": "damage", "amount": amount}


def move(
    name: str = "Poke",
    type: str = "Basic",
    cost: int = 0,
    effects: list[dict[str, Any]] | None = None,
    conditions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "name": name,
        "type": type,
        "power_cost": cost,
        "conditions": conditions or [],
        "effects": effects if effects is not None else [dmg(10)],
    }


def creature(
    name: str = "Dummy",
    affinity: str = "Wit",
    hp: int = 100,
    power: int = 10,
    moves: list[dict[str, Any]] | None = None,
) -> CreatureCard:
    body = {
        "name": name,
        "affinity": affinity,
        "hp": hp,
        "max_power": power,
        "moves": moves if moves is not None else [move()],
    }
    return creature_from_definition(f"def-{name}", body)


def power_card(name: str = "Nothing", effects: list[dict[str, Any]] | None = None) -> PowerCard:
    effects = effects if effects is not None else [{"type": "power_restore", "amount": 1}]
    return power_card_from_definition(f"def-{name}", {"name": name, "effects": effects})


def deck(creatures: list[CreatureCard] | None = None, cards: list[PowerCard] | None = None) -> Deck:
    creatures = list(creatures or [])
    cards = list(cards or [])
    while len(creatures) < 3:
        creatures.append(creature(f"Bench{len(creatures)}"))
    while len(cards) < 2:
        cards.append(power_card(f"Spare{len(cards)}"))
    return Deck(tuple(creatures), tuple(cards))


def prepare_battle(
    seed: int = 0,
    player: list[CreatureCard] | None = None,
    cpu: list[CreatureCard] | None = None,
    player_cards: list[PowerCard] | None = None,
    cpu_cards: list[PowerCard] | None = None,
    first: Side = PLAYER,
    version: int = 2,
) -> MatchState:
    """A match in its first normal turn, Creature 0 active on both sides, ``first`` to move.

    The chance step decides who goes first, so this tries seeds from ``seed`` on
    until that side is drawn (deterministic: the same arguments give the same match).
    """
    settings = Settings(affinity_rules_version=version)
    for candidate in range(seed, seed + 64):
        state = new_match(deck(player, player_cards), deck(cpu, cpu_cards), candidate, T0, settings)
        state, _ = apply(state, PLAYER, Action.select_creature(0), T0)
        state, _ = apply(state, CPU, Action.select_creature(0), T0)
        if state.turn is first:
            return state
    raise AssertionError("no seed made that side go first")


def now_for(state: MatchState) -> datetime:
    """A moment inside the current turn: one second per applied action since T0."""
    return T0 + timedelta(seconds=state.version)


def act(
    state: MatchState, action: Action, side: Side | None = None
) -> tuple[MatchState, list[dict[str, Any]]]:
    """Apply ``action`` for ``side`` (default: the side to move), in good time."""
    side = side or state.turn
    assert side is not None
    return apply(state, side, action, now_for(state))


def active(state: MatchState, side: Side) -> Creature:
    creature = state.side(side).active_creature
    assert creature is not None
    return creature


def set_active(state: MatchState, side: Side, **changes: Any) -> MatchState:
    """Test setup only: change fields of a side's active Creature (e.g. hp=30)."""
    own = state.side(side)
    assert own.active is not None
    return state.with_creature(side, own.active, active(state, side).replace(**changes))


def pass_turn(state: MatchState) -> MatchState:
    """The side to move lets its turn go (a timeout before the deadline)."""
    state, _ = act(state, Action.timeout())
    return state


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def catalogue() -> dict[str, dict[str, Any]]:
    entries = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    return {entry["body"]["name"]: entry for entry in entries}


def catalogue_deck(names: tuple[str, ...]) -> Deck:
    cards = catalogue()
    creatures = [
        creature_from_definition(f"seed-{n}", cards[n]["body"])
        for n in names
        if cards[n]["kind"] == "creature"
    ]
    powers = [
        power_card_from_definition(f"seed-{n}", cards[n]["body"])
        for n in names
        if cards[n]["kind"] == "power_card"
    ]
    return Deck(tuple(creatures), tuple(powers))


def is_normal_turn(state: MatchState) -> bool:
    return state.phase is Phase.NORMAL_TURN

"""Helpers for the Chronovore engine tests (no tests here): small cards and
``prepare(...)``, a match in round 1 where each test states only the heroes, hands and
rows it is about (fireplace-style)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from games.chronovore import engine
from games.chronovore.actions import Action
from games.chronovore.cards import Card, Reward, RewardType
from games.chronovore.content import CardClass, CardKind, Rarity
from games.chronovore.state import Hero, InPlay, MatchState, Settings
from games.kit.frozen import evolve

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
A, B = "a", "b"
CORE_SET = Path(__file__).parents[4] / "services/authoring/seed/chronovore_core_set.json"


def core_set_entries() -> list[dict[str, Any]]:
    return json.loads(CORE_SET.read_text(encoding="utf-8"))


def reward(kind: str, **fields: Any) -> Reward:
    return Reward(RewardType(kind), **fields)


def monster(
    attack: int = 1,
    health: int = 1,
    *rewards: Reward,
    name: str = "Imp",
    initiative: bool = False,
    card_class: CardClass = CardClass.NEUTRAL,
    rarity: Rarity = Rarity.COMMON,
) -> Card:
    return Card(
        name,
        CardKind.MONSTER,
        card_class,
        rarity,
        rewards=rewards,
        attack=attack,
        health=health,
        initiative=initiative,
    )


def event(
    cost: int = 0,
    *rewards: Reward,
    name: str = "Toll",
    card_class: CardClass = CardClass.NEUTRAL,
    rarity: Rarity = Rarity.COMMON,
) -> Card:
    return Card(name, CardKind.EVENT, card_class, rarity, rewards=rewards, cost=cost)


FILLER = monster(0, 1, reward("coins", amount=1), name="Filler")


def deck(*cards: Card, size: int = 30) -> list[Card]:
    """A legal-looking deck: ``cards`` then distinct fillers up to ``size``."""
    fill = [evolve(FILLER, name=f"Filler {n}") for n in range(size - len(cards))]
    return [*cards, *fill]


def new(
    seed: int = 1, a: list[Card] | None = None, b: list[Card] | None = None, **settings: int
) -> MatchState:
    return engine.new_match(
        {A: a or deck(), B: b or deck()}, seed, T0, Settings(**settings) if settings else None
    )


def prepare(
    *,
    a_row: tuple[Card | None, ...] = (),
    b_row: tuple[Card | None, ...] = (),
    a_hero: Hero | None = None,
    b_hero: Hero | None = None,
    a_hand: tuple[Card, ...] | None = None,
    b_hand: tuple[Card, ...] | None = None,
    round: int = 1,
    seed: int = 1,
) -> MatchState:
    """A match whose rows are already placed (not locked): the row cards go into the
    slots from the left; hands and heroes replaced when given."""
    state = new(seed).replace(round=round)
    uid = 1000
    for seat, row, hero, hand in ((A, a_row, a_hero, a_hand), (B, b_row, b_hero, b_hand)):
        side = state.side(seat)
        slots: list[InPlay | None] = [None] * 4
        for n, card in enumerate(row):
            if card is not None:
                uid += 1
                slots[n] = InPlay(uid, card)
        if hand is not None:
            items = []
            for card in hand:
                uid += 1
                items.append(InPlay(uid, card))
            side = side.replace(hand=tuple(items))
        side = side.replace(slots=tuple(slots), next_uid=uid + 1)
        if hero is not None:
            side = side.replace(hero=hero)
        state = state.with_side(seat, side)
    return state


def lock_both(state: MatchState, at: datetime = T0) -> tuple[MatchState, list[dict[str, Any]]]:
    state, first = engine.apply(state, A, Action.lock(), at)
    state, second = engine.apply(state, B, Action.lock(), at)
    return state, first + second


def hero(health: int = 30, **fields: Any) -> Hero:
    return Hero(health=health, **fields)


def later(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)

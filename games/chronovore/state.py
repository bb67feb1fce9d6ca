"""The state of one Chronovore match: frozen dataclasses and their JSON dicts.

Two seats, each with a hero, a deck (shuffled at the start), a hand, a row of slots
and the interference other cards left waiting for its next monster or event. Every
card in a match is an ``InPlay``: the card and a number unique within its seat, so
an action names a card that stays the same card however the hand moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from games.chronovore.cards import Card
from games.kit.chance import RandomState
from games.kit.frozen import evolve, plain

STATE_FORMAT = 1


class Phase(StrEnum):
    CHOOSING = "choosing"  # lock-in: both rows are being chosen
    FINISHED = "finished"


class FinishReason(StrEnum):
    HERO_FELL = "hero_fell"  # a pair dropped a hero (or both)
    DUEL = "duel"  # both stood after the last round
    LEFT = "left"  # a player left the match


class Result(StrEnum):
    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    LEFT = "left"  # the one who left; the other seat wins


@plain
@dataclass(frozen=True)
class Settings:
    """Settings of the game (rulebook numbers), apart from the state of any one match."""

    opening_hand: int = 7
    rounds: int = 5
    draw_per_round: int = 1  # at the start of round 2 and each later round
    hand_limit: int = 12
    slots: int = 4
    choosing_seconds: int = 120  # "Each choosing step lasts 2 minutes."
    max_health: int = 30
    start_health: int = 30
    start_strength: int = 1
    min_strength: int = 1

    def to_dict(self) -> dict[str, int]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        return cls(**{k: int(v) for k, v in data.items()})


@plain
@dataclass(frozen=True)
class Weapon:
    attack: int
    durability: int

    @property
    def usable(self) -> bool:
        """Rulebook: "A weapon with 0 attack or 0 durability is no weapon."."""
        return self.attack > 0 and self.durability > 0


@plain
@dataclass(frozen=True)
class Hero:
    health: int
    armor: int = 0
    coins: int = 0
    strength: int = 1
    weapon: Weapon | None = None

    @property
    def attack(self) -> int:
        """Strength plus the weapon's attack."""
        return self.strength + (self.weapon.attack if self.weapon else 0)

    @property
    def fallen(self) -> bool:
        return self.health <= 0

    def to_dict(self) -> dict[str, Any]:
        weapon = self.weapon
        return {
            "health": self.health,
            "armor": self.armor,
            "coins": self.coins,
            "strength": self.strength,
            "attack": self.attack,
            "weapon": None if weapon is None else vars(weapon).copy(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Hero:
        weapon = data.get("weapon")
        return cls(
            health=int(data["health"]),
            armor=int(data["armor"]),
            coins=int(data["coins"]),
            strength=int(data["strength"]),
            weapon=None
            if weapon is None
            else Weapon(int(weapon["attack"]), int(weapon["durability"])),
        )


@plain
@dataclass(frozen=True)
class Interference:
    """What "The next enemy card" left waiting for this seat's next monster or event."""

    monster_attack: int = 0
    monster_health: int = 0
    monster_initiative: bool = False
    event_cost: int = 0

    @property
    def on_monster(self) -> bool:
        return bool(self.monster_attack or self.monster_health or self.monster_initiative)

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Interference:
        return cls(
            monster_attack=int(data["monster_attack"]),
            monster_health=int(data["monster_health"]),
            monster_initiative=bool(data["monster_initiative"]),
            event_cost=int(data["event_cost"]),
        )


@plain
@dataclass(frozen=True)
class InPlay:
    uid: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"uid": self.uid, "card": self.card.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InPlay:
        return cls(int(data["uid"]), Card.from_dict(data["card"]))


def _cards(items: Any) -> tuple[InPlay, ...]:
    return tuple(InPlay.from_dict(item) for item in items)


@plain
@dataclass(frozen=True)
class SeatState:
    hero: Hero
    deck: tuple[InPlay, ...]  # top first
    hand: tuple[InPlay, ...] = ()
    slots: tuple[InPlay | None, ...] = ()
    locked: bool = False
    discard: tuple[InPlay, ...] = ()  # played, and drawn or copied past the hand limit
    interference: Interference = Interference()
    next_uid: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "hero": self.hero.to_dict(),
            "deck": [c.to_dict() for c in self.deck],
            "hand": [c.to_dict() for c in self.hand],
            "slots": [None if c is None else c.to_dict() for c in self.slots],
            "locked": self.locked,
            "discard": [c.to_dict() for c in self.discard],
            "interference": self.interference.to_dict(),
            "next_uid": self.next_uid,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatState:
        return cls(
            hero=Hero.from_dict(data["hero"]),
            deck=_cards(data["deck"]),
            hand=_cards(data["hand"]),
            slots=tuple(None if c is None else InPlay.from_dict(c) for c in data["slots"]),
            locked=bool(data["locked"]),
            discard=_cards(data["discard"]),
            interference=Interference.from_dict(data["interference"]),
            next_uid=int(data["next_uid"]),
        )


Pair = tuple[InPlay | None, ...]  # one slot of both rows, in seat order


@plain
@dataclass(frozen=True)
class MatchState:
    seats: tuple[str, str]
    sides: tuple[SeatState, SeatState]
    settings: Settings
    random: RandomState
    started_at: datetime
    round: int = 1
    phase: Phase = Phase.CHOOSING
    deadline: datetime | None = None
    version: int = 0
    # The pairs of the last resolution that were resolved (an unresolved pair, after a
    # hero fell, is never revealed), slot by slot.
    revealed: tuple[Pair, ...] = ()
    results: tuple[str, ...] | None = None  # a Result per seat, in seat order
    finish_reason: FinishReason | None = None

    def index(self, seat: str) -> int:
        return self.seats.index(seat)

    def side(self, seat: str) -> SeatState:
        return self.sides[self.seats.index(seat)]

    def with_side(self, seat: str, side: SeatState) -> MatchState:
        first, second = self.sides
        if self.seats.index(seat) == 0:
            return evolve(self, sides=(side, second))
        return evolve(self, sides=(first, side))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "seats": list(self.seats),
            "sides": [side.to_dict() for side in self.sides],
            "settings": self.settings.to_dict(),
            "random": self.random.to_dict(),
            "started_at": self.started_at.isoformat(),
            "round": self.round,
            "phase": self.phase.value,
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "version": self.version,
            "revealed": [
                [None if c is None else c.to_dict() for c in pair] for pair in self.revealed
            ],
            "results": None if self.results is None else list(self.results),
            "finish_reason": None if self.finish_reason is None else self.finish_reason.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchState:
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"unknown Chronovore state format {data.get('format')!r}")
        seats = tuple(str(s) for s in data["seats"])
        sides = tuple(SeatState.from_dict(s) for s in data["sides"])
        deadline = data.get("deadline")
        results = data.get("results")
        reason = data.get("finish_reason")
        return cls(
            seats=(seats[0], seats[1]),
            sides=(sides[0], sides[1]),
            settings=Settings.from_dict(data["settings"]),
            random=RandomState.from_dict(data["random"]),
            started_at=datetime.fromisoformat(data["started_at"]),
            round=int(data["round"]),
            phase=Phase(data["phase"]),
            deadline=None if deadline is None else datetime.fromisoformat(deadline),
            version=int(data["version"]),
            revealed=tuple(
                tuple(None if c is None else InPlay.from_dict(c) for c in pair)
                for pair in data["revealed"]
            ),
            results=None if results is None else tuple(str(r) for r in results),
            finish_reason=None if reason is None else FinishReason(reason),
        )

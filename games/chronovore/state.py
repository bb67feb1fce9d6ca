"""The state of one Chronovore match: frozen value classes and their JSON dicts.

Two seats, each with a hero, a deck (shuffled at the start), a hand, a row of slots
and the interference other cards left waiting for its next monster or event. Every
card in a match is an ``InPlay``: the card and a number unique within its seat, so
an action names a card that stays the same card however the hand moves.

The classes a match copies on every action (``MatchState``, ``SeatState``, ``Hero``,
``Weapon``, ``Interference``, ``InPlay``) are written out rather than dataclasses
(``Frozen``), so that compiled they are native classes; ``Settings`` stays a dataclass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from games.chronovore.cards import Card
from games.kit.chance import RandomState
from games.kit.frozen import Frozen, plain

STATE_FORMAT = 1
# The CPU policy new matches record (``Settings.cpu_policy``): ``cpu.VERSION``, the module
# that policy is (state cannot import it: the CPU reads the state). A match keeps the
# policy it started with, so a live match never changes course and a finished one
# verifies (docs/fairness.md, "CPU policy versions"); settings saved before matches
# recorded one (a stored state, an exported replay) are policy 1 (``cpu_v1.py``).
CPU_POLICY = 2
LEGACY_CPU_POLICY = 1


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
    cpu_policy: int = CPU_POLICY  # what new matches record; ours, not the rulebook's

    def to_dict(self) -> dict[str, int]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings as ``to_dict`` wrote them; without ``cpu_policy``, saved before a
        match recorded its CPU policy: policy 1, the one it started with."""
        given = {"cpu_policy": LEGACY_CPU_POLICY, **data}
        return cls(**{k: int(v) for k, v in given.items()})


class Weapon(Frozen):
    """Frozen by convention (see ``Frozen``)."""

    attack: int
    durability: int

    def __init__(self, attack: int, durability: int) -> None:
        self.attack = attack
        self.durability = durability

    @property
    def usable(self) -> bool:
        """Rulebook: "A weapon with 0 attack or 0 durability is no weapon."."""
        return self.attack > 0 and self.durability > 0

    def fields(self) -> dict[str, Any]:
        return {"attack": self.attack, "durability": self.durability}

    def to_dict(self) -> dict[str, Any]:
        return self.fields()


class Hero(Frozen):
    """Frozen by convention; a changed hero is a new ``Hero`` (every field given)."""

    health: int
    armor: int
    coins: int
    strength: int
    weapon: Weapon | None

    def __init__(
        self,
        health: int,
        armor: int = 0,
        coins: int = 0,
        strength: int = 1,
        weapon: Weapon | None = None,
    ) -> None:
        self.health = health
        self.armor = armor
        self.coins = coins
        self.strength = strength
        self.weapon = weapon

    @property
    def attack(self) -> int:
        """Strength plus the weapon's attack."""
        weapon = self.weapon
        return self.strength + (weapon.attack if weapon is not None else 0)

    @property
    def fallen(self) -> bool:
        return self.health <= 0

    def fields(self) -> dict[str, Any]:
        return {
            "health": self.health,
            "armor": self.armor,
            "coins": self.coins,
            "strength": self.strength,
            "weapon": self.weapon,
        }

    def replace(self, **changes: Any) -> Hero:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning; for cold paths)."""
        return Hero(**{**self.fields(), **changes})

    def to_dict(self) -> dict[str, Any]:
        weapon = self.weapon
        return {
            "health": self.health,
            "armor": self.armor,
            "coins": self.coins,
            "strength": self.strength,
            "attack": self.attack,
            "weapon": None if weapon is None else weapon.to_dict(),
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


class Interference(Frozen):
    """What "The next enemy card" left waiting for this seat's next monster or event."""

    monster_attack: int
    monster_health: int
    monster_initiative: bool
    event_cost: int

    def __init__(
        self,
        monster_attack: int = 0,
        monster_health: int = 0,
        monster_initiative: bool = False,
        event_cost: int = 0,
    ) -> None:
        self.monster_attack = monster_attack
        self.monster_health = monster_health
        self.monster_initiative = monster_initiative
        self.event_cost = event_cost

    @property
    def on_monster(self) -> bool:
        return bool(self.monster_attack or self.monster_health or self.monster_initiative)

    def fields(self) -> dict[str, Any]:
        return {
            "monster_attack": self.monster_attack,
            "monster_health": self.monster_health,
            "monster_initiative": self.monster_initiative,
            "event_cost": self.event_cost,
        }

    def to_dict(self) -> dict[str, Any]:
        return self.fields()

    def replace(self, **changes: Any) -> Interference:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning; for cold paths)."""
        return Interference(**{**self.fields(), **changes})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Interference:
        return cls(
            monster_attack=int(data["monster_attack"]),
            monster_health=int(data["monster_health"]),
            monster_initiative=bool(data["monster_initiative"]),
            event_cost=int(data["event_cost"]),
        )


NO_INTERFERENCE = Interference()


class InPlay(Frozen):
    """A card of a match and its number in its seat (frozen by convention)."""

    uid: int
    card: Card

    def __init__(self, uid: int, card: Card) -> None:
        self.uid = uid
        self.card = card

    def fields(self) -> dict[str, Any]:
        return {"uid": self.uid, "card": self.card}

    def to_dict(self) -> dict[str, Any]:
        return {"uid": self.uid, "card": self.card.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InPlay:
        return cls(int(data["uid"]), Card.from_dict(data["card"]))


def _cards(items: Any) -> tuple[InPlay, ...]:
    return tuple(InPlay.from_dict(item) for item in items)


class SeatState(Frozen):
    """One seat (frozen by convention): ``replace`` makes the changed copy."""

    hero: Hero
    deck: tuple[InPlay, ...]  # top first
    hand: tuple[InPlay, ...]
    slots: tuple[InPlay | None, ...]
    locked: bool
    discard: tuple[InPlay, ...]  # played, and drawn or copied past the hand limit
    interference: Interference
    next_uid: int

    def __init__(
        self,
        hero: Hero,
        deck: tuple[InPlay, ...],
        hand: tuple[InPlay, ...] = (),
        slots: tuple[InPlay | None, ...] = (),
        locked: bool = False,
        discard: tuple[InPlay, ...] = (),
        interference: Interference = NO_INTERFERENCE,
        next_uid: int = 1,
    ) -> None:
        self.hero = hero
        self.deck = deck
        self.hand = hand
        self.slots = slots
        self.locked = locked
        self.discard = discard
        self.interference = interference
        self.next_uid = next_uid

    def replace(
        self,
        *,
        hero: Hero | None = None,
        deck: tuple[InPlay, ...] | None = None,
        hand: tuple[InPlay, ...] | None = None,
        slots: tuple[InPlay | None, ...] | None = None,
        locked: bool | None = None,
        discard: tuple[InPlay, ...] | None = None,
        interference: Interference | None = None,
        next_uid: int | None = None,
    ) -> SeatState:
        """A copy with the fields given changed (no field of a seat is ever None, so
        None means "as it is"): ``dataclasses.replace`` as one compiled constructor."""
        return SeatState(
            self.hero if hero is None else hero,
            self.deck if deck is None else deck,
            self.hand if hand is None else hand,
            self.slots if slots is None else slots,
            self.locked if locked is None else locked,
            self.discard if discard is None else discard,
            self.interference if interference is None else interference,
            self.next_uid if next_uid is None else next_uid,
        )

    def fields(self) -> dict[str, Any]:
        return {
            "hero": self.hero,
            "deck": self.deck,
            "hand": self.hand,
            "slots": self.slots,
            "locked": self.locked,
            "discard": self.discard,
            "interference": self.interference,
            "next_uid": self.next_uid,
        }

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


class MatchState(Frozen):
    """The match (frozen by convention): ``replace`` for a changed copy, ``with_side``
    and ``with_sides`` for the copies an action makes most."""

    seats: tuple[str, str]
    sides: tuple[SeatState, SeatState]
    settings: Settings
    random: RandomState
    started_at: datetime
    round: int
    phase: Phase
    deadline: datetime | None
    version: int
    # The pairs of the last resolution that were resolved (an unresolved pair, after a
    # hero fell, is never revealed), slot by slot.
    revealed: tuple[Pair, ...]
    results: tuple[str, ...] | None  # a Result per seat, in seat order
    finish_reason: FinishReason | None
    # Per seat, in seat order: how many of its actions the other seat has not seen (its
    # places, moves and take-backs before a lock: docs/chronovore.md, "Face down"). A
    # seat's version is the match's less the other seat's count, so it never moves on
    # what that seat may not see.
    hidden: tuple[int, int]

    def __init__(
        self,
        seats: tuple[str, str],
        sides: tuple[SeatState, SeatState],
        settings: Settings,
        random: RandomState,
        started_at: datetime,
        round: int = 1,
        phase: Phase = Phase.CHOOSING,
        deadline: datetime | None = None,
        version: int = 0,
        revealed: tuple[Pair, ...] = (),
        results: tuple[str, ...] | None = None,
        finish_reason: FinishReason | None = None,
        hidden: tuple[int, int] = (0, 0),
    ) -> None:
        self.seats = seats
        self.sides = sides
        self.settings = settings
        self.random = random
        self.started_at = started_at
        self.round = round
        self.phase = phase
        self.deadline = deadline
        self.version = version
        self.revealed = revealed
        self.results = results
        self.finish_reason = finish_reason
        self.hidden = hidden

    def fields(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "sides": self.sides,
            "settings": self.settings,
            "random": self.random,
            "started_at": self.started_at,
            "round": self.round,
            "phase": self.phase,
            "deadline": self.deadline,
            "version": self.version,
            "revealed": self.revealed,
            "results": self.results,
            "finish_reason": self.finish_reason,
            "hidden": self.hidden,
        }

    def replace(self, **changes: Any) -> MatchState:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning): for the copies
        made once a round or a match; an action's own go through ``with_sides``."""
        return MatchState(**{**self.fields(), **changes})

    def with_sides(
        self, first: SeatState, second: SeatState, revealed: tuple[Pair, ...] | None = None
    ) -> MatchState:
        """The match with these two seats (and these revealed pairs, if given)."""
        pairs = self.revealed if revealed is None else revealed
        return self._with((first, second), pairs, self.version)

    def next_version(self) -> MatchState:
        """The match one version on (every applied action)."""
        return self._with(self.sides, self.revealed, self.version + 1)

    def hidden_from_other(self, seat: str) -> MatchState:
        """The match with one more of ``seat``'s actions that the other seat does not see."""
        first, second = self.hidden
        hidden = (first + 1, second) if self.index(seat) == 0 else (first, second + 1)
        return self.replace(hidden=hidden)

    def seen_version(self, seat: str) -> int:
        """The version as ``seat`` sees it: every action but the other seat's hidden ones."""
        return self.version - self.hidden[1 - self.index(seat)]

    def _with(
        self, sides: tuple[SeatState, SeatState], revealed: tuple[Pair, ...], version: int
    ) -> MatchState:
        """The copies an action makes: one compiled constructor call, every field given."""
        return MatchState(
            self.seats,
            sides,
            self.settings,
            self.random,
            self.started_at,
            self.round,
            self.phase,
            self.deadline,
            version,
            revealed,
            self.results,
            self.finish_reason,
            self.hidden,
        )

    def index(self, seat: str) -> int:
        first, second = self.seats
        if seat == first:
            return 0
        if seat == second:
            return 1
        return self.seats.index(seat)  # not a seat: tuple.index's ValueError, as ever

    def side(self, seat: str) -> SeatState:
        return self.sides[self.index(seat)]

    def with_side(self, seat: str, side: SeatState) -> MatchState:
        first, second = self.sides
        if self.index(seat) == 0:
            return self.with_sides(side, second)
        return self.with_sides(first, side)

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
            "hidden": list(self.hidden),
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
        hidden = data.get("hidden", (0, 0))  # absent from a state saved before it was kept
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
            hidden=(int(hidden[0]), int(hidden[1])),
        )

"""The state of one Quest CPU match: frozen value classes and their JSON dicts.

Nothing here changes a state in place; the engine builds a new one with a constructor
call (``replace``, ``with_side``, ``turned`` and the like). The classes are written out
rather than dataclasses (``games.kit.frozen.Frozen``), so that compiled they are native
classes: docs/performance.md, "Native state classes (Quest), second round".
``MatchState.to_dict()`` is what the service stores and ``MatchState.from_dict()``
reads it back, including historical dicts without ``affinity_rules_version`` (they
keep version 1, rulebook).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from games.kit.chance import RandomState
from games.kit.frozen import Frozen
from games.quest.cards import CreatureCard, PowerCard
from games.quest.matchup import LEGACY_VERSION, SUPPORTED_VERSIONS
from games.quest.statuses import NO_STATUSES, Statuses

STATE_FORMAT = 1  # the shape of to_dict(); bump when it changes incompatibly


class Side(StrEnum):
    PLAYER = "player"
    CPU = "cpu"

    @property
    def other(self) -> Side:
        return Side.CPU if self == Side.PLAYER else Side.PLAYER


SIDES = (Side.PLAYER, Side.CPU)


class Phase(StrEnum):
    INITIAL_SELECTION = "initial_selection"
    NORMAL_TURN = "normal_turn"
    MANDATORY_REPLACEMENT = "mandatory_replacement"
    FINISHED = "finished"


# Module-level names for enum members: an enum class's attribute lookup is a slow path
# (a metaclass lookup each time), and the engine's hot path compares phases often.
_INITIAL_SELECTION: Final = Phase.INITIAL_SELECTION
_MANDATORY_REPLACEMENT: Final = Phase.MANDATORY_REPLACEMENT


class FinishReason(StrEnum):
    ALL_DEFEATED = "all_defeated"
    FORFEIT = "forfeit"
    MISSED_DEADLINE = "missed_deadline"  # a decision window passed (asynchronous PvP)
    TIMEOUTS = "timeouts"  # ours, live PvP: three missed windows in a row by one side
    DISCONNECTED = "disconnected"  # ours, live PvP: a side's player gone 90 seconds


class MissedDeadline(StrEnum):
    """What a decision deadline passing does. CPU battles (rulebook, "CPU battles"): the
    normal turn times out and play goes on, selections have no deadline. Asynchronous
    PvP (rulebook, "Asynchronous PvP"): every turn and every selection has a window, and
    missing it ends the match by forfeit of the side that missed it, never a skip. Live
    PvP (ours, docs/quest-pvp.md): every turn and every selection has a window; a missed
    turn times out as in CPU battles, a missed selection picks the first living Creature
    in deck order, and three missed windows in a row by one side forfeit (live.py)."""

    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    LIVE = "live"

    @property
    def windows_selections(self) -> bool:
        """Whether selections have a deadline too (not in CPU battles)."""
        return self is not MissedDeadline.TIMEOUT


def aware(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("the engine takes timezone-aware datetimes only")
    return moment


def _time(value: str | None) -> datetime | None:
    return None if value is None else aware(datetime.fromisoformat(value))


class Creature(Frozen):
    """One Creature in a match: its snapshot card and what the match did to it (frozen by
    convention, see ``Frozen``: a changed Creature is a new one, every field given)."""

    card: CreatureCard
    hp: int
    power: int
    statuses: Statuses
    used_moves: tuple[int, ...]  # once-per-match moves used, by index, sorted

    def __init__(
        self,
        card: CreatureCard,
        hp: int,
        power: int,
        statuses: Statuses = NO_STATUSES,
        used_moves: tuple[int, ...] = (),
    ) -> None:
        self.card = card
        self.hp = hp
        self.power = power
        self.statuses = statuses
        self.used_moves = used_moves

    def fields(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "hp": self.hp,
            "power": self.power,
            "statuses": self.statuses,
            "used_moves": self.used_moves,
        }

    def replace(self, **changes: Any) -> Creature:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning; for cold paths)."""
        return Creature(**{**self.fields(), **changes})

    @classmethod
    def fresh(cls, card: CreatureCard) -> Creature:
        # Ours (assumed): a Creature enters a match at full HP and full Power.
        return cls(card=card, hp=card.max_hp, power=card.max_power)

    @property
    def defeated(self) -> bool:
        return self.hp == 0

    @property
    def alive(self) -> bool:
        return self.hp > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.card.to_dict(),
            "hp": self.hp,
            "power": self.power,
            "defeated": self.defeated,
            "used_moves": list(self.used_moves),
            "statuses": self.statuses.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Creature:
        creature = cls(
            card=CreatureCard.from_dict(data),
            hp=int(data["hp"]),
            power=int(data["power"]),
            statuses=Statuses.from_dict(data["statuses"]),
            used_moves=tuple(sorted(int(i) for i in data["used_moves"])),
        )
        if not (0 <= creature.hp <= creature.card.max_hp):
            raise ValueError(f"{creature.card.name}: HP out of range")
        if not (0 <= creature.power <= creature.card.max_power):
            raise ValueError(f"{creature.card.name}: Power out of range")
        return creature


class SideState(Frozen):
    """One side of a match (frozen by convention, see ``Frozen``)."""

    creatures: tuple[Creature, ...]
    power_cards: tuple[PowerCard, ...]
    discarded: tuple[int, ...]  # Power cards played, by index, sorted
    active: int | None
    # A selection made during initial selection or replacement, hidden from the
    # other side until every side that must select has done so.
    choice: int | None

    def __init__(
        self,
        creatures: tuple[Creature, ...],
        power_cards: tuple[PowerCard, ...],
        discarded: tuple[int, ...] = (),
        active: int | None = None,
        choice: int | None = None,
    ) -> None:
        self.creatures = creatures
        self.power_cards = power_cards
        self.discarded = discarded
        self.active = active
        self.choice = choice

    def fields(self) -> dict[str, Any]:
        return {
            "creatures": self.creatures,
            "power_cards": self.power_cards,
            "discarded": self.discarded,
            "active": self.active,
            "choice": self.choice,
        }

    def replace(self, **changes: Any) -> SideState:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning; for cold paths)."""
        return SideState(**{**self.fields(), **changes})

    def with_choice(self, active: int | None, choice: int | None) -> SideState:
        """The side with this active Creature and this (hidden) choice."""
        return SideState(self.creatures, self.power_cards, self.discarded, active, choice)

    @property
    def active_creature(self) -> Creature | None:
        return None if self.active is None else self.creatures[self.active]

    @property
    def living(self) -> list[int]:
        return [i for i, c in enumerate(self.creatures) if c.alive]

    @property
    def hand(self) -> list[int]:
        return [i for i in range(len(self.power_cards)) if i not in self.discarded]

    def with_creature(self, index: int, creature: Creature) -> SideState:
        creatures = list(self.creatures)
        creatures[index] = creature
        return SideState(
            tuple(creatures), self.power_cards, self.discarded, self.active, self.choice
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "active": self.active,
            "choice": self.choice,
            "creatures": [c.to_dict() for c in self.creatures],
            "power_cards": [p.to_dict() for p in self.power_cards],
            "discarded": list(self.discarded),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SideState:
        return cls(
            creatures=tuple(Creature.from_dict(c) for c in data["creatures"]),
            power_cards=tuple(PowerCard.from_dict(p) for p in data["power_cards"]),
            discarded=tuple(sorted(int(i) for i in data["discarded"])),
            active=data["active"],
            choice=data["choice"],
        )


class MatchState(Frozen):
    """The match (frozen by convention, see ``Frozen``): ``replace`` makes a changed copy
    (``dataclasses.replace``'s meaning), ``with_side``, ``with_version`` and ``turned``
    the copies an action makes, each one compiled constructor call."""

    player: SideState
    cpu: SideState
    random: RandomState
    affinity_rules_version: int
    turn_seconds: int
    started_at: datetime
    phase: Phase
    selecting: tuple[Side, ...]  # who must select in a selection phase
    turn: Side | None  # to move; during replacement, who moves next
    turn_number: int  # of the current (or next) normal turn, from 1
    deadline: datetime | None  # normal turns; selections too under FORFEIT
    winner: Side | None
    finish_reason: FinishReason | None
    version: int  # +1 for every applied action
    missed_deadline: MissedDeadline
    # Live PvP: each side's missed windows in a row, in SIDES order (live.py).
    timeouts_in_row: tuple[int, int]

    def __init__(
        self,
        player: SideState,
        cpu: SideState,
        random: RandomState,
        affinity_rules_version: int,
        turn_seconds: int,
        started_at: datetime,
        phase: Phase = Phase.INITIAL_SELECTION,
        selecting: tuple[Side, ...] = SIDES,
        turn: Side | None = None,
        turn_number: int = 0,
        deadline: datetime | None = None,
        winner: Side | None = None,
        finish_reason: FinishReason | None = None,
        version: int = 0,
        missed_deadline: MissedDeadline = MissedDeadline.TIMEOUT,
        timeouts_in_row: tuple[int, int] = (0, 0),
    ) -> None:
        self.player = player
        self.cpu = cpu
        self.random = random
        self.affinity_rules_version = affinity_rules_version
        self.turn_seconds = turn_seconds
        self.started_at = started_at
        self.phase = phase
        self.selecting = selecting
        self.turn = turn
        self.turn_number = turn_number
        self.deadline = deadline
        self.winner = winner
        self.finish_reason = finish_reason
        self.version = version
        self.missed_deadline = missed_deadline
        self.timeouts_in_row = timeouts_in_row

    def fields(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "cpu": self.cpu,
            "random": self.random,
            "affinity_rules_version": self.affinity_rules_version,
            "turn_seconds": self.turn_seconds,
            "started_at": self.started_at,
            "phase": self.phase,
            "selecting": self.selecting,
            "turn": self.turn,
            "turn_number": self.turn_number,
            "deadline": self.deadline,
            "winner": self.winner,
            "finish_reason": self.finish_reason,
            "version": self.version,
            "missed_deadline": self.missed_deadline,
            "timeouts_in_row": self.timeouts_in_row,
        }

    def replace(self, **changes: Any) -> MatchState:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning): for the copies
        made once a match or a selection; an action's own go through ``turned``."""
        return MatchState(**{**self.fields(), **changes})

    def turned(
        self,
        player: SideState,
        cpu: SideState,
        phase: Phase,
        selecting: tuple[Side, ...],
        turn: Side | None,
        turn_number: int,
        deadline: datetime | None,
        winner: Side | None,
        finish_reason: FinishReason | None,
        version: int,
    ) -> MatchState:
        """The match with the fields a normal-turn action changes (every one given)."""
        return MatchState(
            player,
            cpu,
            self.random,
            self.affinity_rules_version,
            self.turn_seconds,
            self.started_at,
            phase,
            selecting,
            turn,
            turn_number,
            deadline,
            winner,
            finish_reason,
            version,
            self.missed_deadline,
            self.timeouts_in_row,
        )

    def with_sides(self, player: SideState, cpu: SideState) -> MatchState:
        """The match with these two sides."""
        return self.turned(
            player,
            cpu,
            self.phase,
            self.selecting,
            self.turn,
            self.turn_number,
            self.deadline,
            self.winner,
            self.finish_reason,
            self.version,
        )

    def with_version(self, version: int) -> MatchState:
        return self.turned(
            self.player,
            self.cpu,
            self.phase,
            self.selecting,
            self.turn,
            self.turn_number,
            self.deadline,
            self.winner,
            self.finish_reason,
            version,
        )

    def side(self, side: Side) -> SideState:
        return self.player if side == "player" else self.cpu  # a Side is its str value

    def with_side(self, side: Side, state: SideState) -> MatchState:
        if side == "player":  # a Side is its str value
            return self.with_sides(state, self.cpu)
        return self.with_sides(self.player, state)

    def with_creature(self, side: Side, index: int, creature: Creature) -> MatchState:
        return self.with_side(side, self.side(side).with_creature(index, creature))

    @property
    def pending(self) -> tuple[Side, ...]:
        """The sides that still have a selection to make in this phase."""
        phase = self.phase
        if phase is not _INITIAL_SELECTION and phase is not _MANDATORY_REPLACEMENT:
            return ()
        return tuple(
            s for s in self.selecting if (self.player if s == "player" else self.cpu).choice is None
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "affinity_rules_version": self.affinity_rules_version,
            "phase": str(self.phase),
            "selecting": [str(s) for s in self.selecting],
            "turn": None if self.turn is None else str(self.turn),
            "turn_number": self.turn_number,
            "turn_seconds": self.turn_seconds,
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "winner": None if self.winner is None else str(self.winner),
            "finish_reason": None if self.finish_reason is None else str(self.finish_reason),
            "version": self.version,
            "started_at": self.started_at.isoformat(),
            "random": self.random.to_dict(),
            "sides": {str(s): self.side(s).to_dict() for s in SIDES},
            # Written only where a missed window forfeits: a CPU battle's stored form (and
            # the recorded golden games) stay as they were.
            **(
                {"missed_deadline": str(self.missed_deadline)}
                if self.missed_deadline is not MissedDeadline.TIMEOUT
                else {}
            ),
            **(
                {"timeouts_in_row": list(self.timeouts_in_row)}
                if self.missed_deadline is MissedDeadline.LIVE
                else {}
            ),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchState:
        # Rulebook: a historical state without the field keeps the original cycle.
        version = int(data.get("affinity_rules_version", LEGACY_VERSION))
        if version not in SUPPORTED_VERSIONS:
            raise ValueError(f"affinity rules version {version} is not supported")
        started_at = _time(data["started_at"])
        if started_at is None:
            raise ValueError("a match state needs started_at")
        return cls(
            player=SideState.from_dict(data["sides"]["player"]),
            cpu=SideState.from_dict(data["sides"]["cpu"]),
            random=RandomState.from_dict(data["random"]),
            affinity_rules_version=version,
            turn_seconds=int(data["turn_seconds"]),
            started_at=started_at,
            phase=Phase(data["phase"]),
            selecting=tuple(Side(s) for s in data["selecting"]),
            turn=None if data["turn"] is None else Side(data["turn"]),
            turn_number=int(data["turn_number"]),
            deadline=_time(data["deadline"]),
            winner=None if data["winner"] is None else Side(data["winner"]),
            finish_reason=None
            if data["finish_reason"] is None
            else FinishReason(data["finish_reason"]),
            version=int(data["version"]),
            # States stored before asynchronous PvP are CPU battles.
            missed_deadline=MissedDeadline(data.get("missed_deadline", MissedDeadline.TIMEOUT)),
            timeouts_in_row=_in_row(data.get("timeouts_in_row", (0, 0))),
        )


def _in_row(counts: Any) -> tuple[int, int]:
    player, cpu = (int(n) for n in counts)
    if player < 0 or cpu < 0:
        raise ValueError("timeouts in a row cannot be negative")
    return player, cpu

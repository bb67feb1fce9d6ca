"""The state of one attack: frozen value classes and their JSON dicts.

Nothing here changes a state in place; the engine builds a new one (``AttackState``'s
``copy_with`` and ``replace``). The classes are written out on ``games.kit.frozen.Frozen``
rather than dataclasses, so that compiled they are native classes (docs/performance.md,
"TerraKard engine, native state"). ``AttackState.to_dict()`` is what a host stores (it holds
the defense plan, reserve included, so it is never shown: views are,
games/terrakard/view.py) and ``AttackState.from_dict()`` reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any

from games.kit.chance import RandomState
from games.kit.frozen import Frozen
from games.terrakard import config
from games.terrakard.content import Card, Difficulty
from games.terrakard.plans import DefensePlan
from games.terrakard.terrains import Terrain, terrain_from_dict, terrain_to_dict

STATE_FORMAT = 1  # the shape of to_dict(); bump when it changes incompatibly
ATTACKER = "attacker"
DEFENDER = "defender"
SEATS = (ATTACKER, DEFENDER)


class Phase(StrEnum):
    RECONNAISSANCE = "reconnaissance"
    CHOOSE = "choose"  # the attacker picks this round's card
    QUESTION = "question"  # the knowledge question, after the defense card's reveal
    FINISHED = "finished"


class FinishReason(StrEnum):
    DEFENSE_DOWN = "defense_down"  # three stars: the attack stops at once
    ATTACKER_DOWN = "attacker_down"
    BOTH_DOWN = "both_down"  # rulebook: "the defense wins"
    LAST_ROUND = "last_round"  # after round 5, by hit points (a tie goes to the defense)
    GAVE_UP = "gave_up"


class Answered(StrEnum):
    RIGHT = "right"
    WRONG = "wrong"
    SKIPPED = "skipped"
    TIMED_OUT = "timed_out"


class AttackerSide(Frozen):
    """The attacker's snapshot (frozen by convention, ``games.kit.frozen.Frozen``)."""

    deck: tuple[Card, ...]
    questions: bool  # rulebook: "You can turn the questions off in your settings"

    def __init__(self, deck: tuple[Card, ...], questions: bool = True) -> None:
        self.deck = deck
        self.questions = questions

    def fields(self) -> dict[str, Any]:
        return {"deck": self.deck, "questions": self.questions}

    def to_dict(self) -> dict[str, Any]:
        return {"deck": [c.to_dict() for c in self.deck], "questions": self.questions}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AttackerSide:
        return cls(tuple(Card.from_dict(c) for c in data["deck"]), bool(data["questions"]))


class DefenseSide(Frozen):
    """The defense as the attack snapshotted it: the plan and the public profile shown
    in the reconnaissance (frozen by convention)."""

    plan: DefensePlan
    pseudonym: str
    level: int
    trophies: int
    automatic: bool  # an automatic plan (a victory against it earns less)

    def __init__(
        self, plan: DefensePlan, pseudonym: str, level: int, trophies: int, automatic: bool = False
    ) -> None:
        self.plan = plan
        self.pseudonym = pseudonym
        self.level = level
        self.trophies = trophies
        self.automatic = automatic

    def fields(self) -> dict[str, Any]:
        return {
            "plan": self.plan,
            "pseudonym": self.pseudonym,
            "level": self.level,
            "trophies": self.trophies,
            "automatic": self.automatic,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "plan": self.plan.to_dict(),
            "pseudonym": self.pseudonym,
            "level": self.level,
            "trophies": self.trophies,
            "automatic": self.automatic,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DefenseSide:
        return cls(
            plan=DefensePlan.from_dict(data["plan"]),
            pseudonym=str(data["pseudonym"]),
            level=int(data["level"]),
            trophies=int(data["trophies"]),
            automatic=bool(data["automatic"]),
        )


class Played(Frozen):
    """This round's cards once the attacker's is played: the attacker's deck index, whether
    the server played it (no knowledge effect then), and whether the reserve came in."""

    card: int
    auto: bool
    reserve: bool

    def __init__(self, card: int, auto: bool, reserve: bool) -> None:
        self.card = card
        self.auto = auto
        self.reserve = reserve

    def fields(self) -> dict[str, Any]:
        return {"card": self.card, "auto": self.auto, "reserve": self.reserve}

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "auto": self.auto, "reserve": self.reserve}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Played:
        return cls(int(data["card"]), bool(data["auto"]), bool(data["reserve"]))


class RoundRecord(Frozen):
    number: int
    played: Played
    to_defense: int
    to_attacker: int
    attacker_hp: int  # after the round
    defense_hp: int
    knowledge: bool  # the knowledge effect applied to this round's attacker card

    def __init__(
        self,
        number: int,
        played: Played,
        to_defense: int,
        to_attacker: int,
        attacker_hp: int,
        defense_hp: int,
        knowledge: bool,
    ) -> None:
        self.number = number
        self.played = played
        self.to_defense = to_defense
        self.to_attacker = to_attacker
        self.attacker_hp = attacker_hp
        self.defense_hp = defense_hp
        self.knowledge = knowledge

    def fields(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "played": self.played,
            "to_defense": self.to_defense,
            "to_attacker": self.to_attacker,
            "attacker_hp": self.attacker_hp,
            "defense_hp": self.defense_hp,
            "knowledge": self.knowledge,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "played": self.played.to_dict(),
            "to_defense": self.to_defense,
            "to_attacker": self.to_attacker,
            "attacker_hp": self.attacker_hp,
            "defense_hp": self.defense_hp,
            "knowledge": self.knowledge,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundRecord:
        return cls(
            number=int(data["number"]),
            played=Played.from_dict(data["played"]),
            to_defense=int(data["to_defense"]),
            to_attacker=int(data["to_attacker"]),
            attacker_hp=int(data["attacker_hp"]),
            defense_hp=int(data["defense_hp"]),
            knowledge=bool(data["knowledge"]),
        )


class AskedQuestion(Frozen):
    """The attack's one knowledge question: the round, the difficulty (by the rarity of
    the card it is about), and how it was answered (None while it waits)."""

    round: int
    difficulty: Difficulty
    answered: Answered | None
    choice: int | None

    def __init__(
        self,
        round: int,
        difficulty: Difficulty,
        answered: Answered | None = None,
        choice: int | None = None,
    ) -> None:
        self.round = round
        self.difficulty = difficulty
        self.answered = answered
        self.choice = choice

    def fields(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "difficulty": self.difficulty,
            "answered": self.answered,
            "choice": self.choice,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "difficulty": str(self.difficulty),
            "answered": None if self.answered is None else str(self.answered),
            "choice": self.choice,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AskedQuestion:
        answered = data.get("answered")
        return cls(
            round=int(data["round"]),
            difficulty=Difficulty(data["difficulty"]),
            answered=None if answered is None else Answered(answered),
            choice=data.get("choice"),
        )


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


class AttackState(Frozen):
    """The attack (frozen by convention, ``games.kit.frozen.Frozen``: compiled, a native
    class). ``replace`` makes a changed copy (``dataclasses.replace``'s meaning); the
    engine's copies of an action go through ``copy_with`` (one constructor call)."""

    attacker: AttackerSide
    defense: DefenseSide
    terrain: Terrain
    random: RandomState
    started_at: datetime
    round_seconds: int
    question_seconds: int
    start_hp: int
    phase: Phase
    round: int  # the current round, from 1; 0 during the reconnaissance
    deadline: datetime | None
    attacker_hp: int
    defense_hp: int
    used: tuple[int, ...]  # the attacker's deck indexes already played
    played: Played | None  # this round's cards, while the question waits
    reserve_round: int | None  # the round the reserve came in
    question: AskedQuestion | None
    rounds: tuple[RoundRecord, ...]
    stars: int
    finish_reason: FinishReason | None
    version: int  # +1 for every applied action

    def __init__(
        self,
        attacker: AttackerSide,
        defense: DefenseSide,
        terrain: Terrain,
        random: RandomState,
        started_at: datetime,
        round_seconds: int = config.ROUND_SECONDS,
        question_seconds: int = config.QUESTION_SECONDS,
        start_hp: int = config.START_HP,
        phase: Phase = Phase.RECONNAISSANCE,
        round: int = 0,
        deadline: datetime | None = None,
        attacker_hp: int = config.START_HP,
        defense_hp: int = config.START_HP,
        used: tuple[int, ...] = (),
        played: Played | None = None,
        reserve_round: int | None = None,
        question: AskedQuestion | None = None,
        rounds: tuple[RoundRecord, ...] = (),
        stars: int = 0,
        finish_reason: FinishReason | None = None,
        version: int = 0,
    ) -> None:
        self.attacker = attacker
        self.defense = defense
        self.terrain = terrain
        self.random = random
        self.started_at = started_at
        self.round_seconds = round_seconds
        self.question_seconds = question_seconds
        self.start_hp = start_hp
        self.phase = phase
        self.round = round
        self.deadline = deadline
        self.attacker_hp = attacker_hp
        self.defense_hp = defense_hp
        self.used = used
        self.played = played
        self.reserve_round = reserve_round
        self.question = question
        self.rounds = rounds
        self.stars = stars
        self.finish_reason = finish_reason
        self.version = version

    def fields(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "defense": self.defense,
            "terrain": self.terrain,
            "random": self.random,
            "started_at": self.started_at,
            "round_seconds": self.round_seconds,
            "question_seconds": self.question_seconds,
            "start_hp": self.start_hp,
            "phase": self.phase,
            "round": self.round,
            "deadline": self.deadline,
            "attacker_hp": self.attacker_hp,
            "defense_hp": self.defense_hp,
            "used": self.used,
            "played": self.played,
            "reserve_round": self.reserve_round,
            "question": self.question,
            "rounds": self.rounds,
            "stars": self.stars,
            "finish_reason": self.finish_reason,
            "version": self.version,
        }

    def replace(self, **changes: Any) -> AttackState:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning; for cold paths)."""
        return AttackState(**{**self.fields(), **changes})

    def copy_with(
        self,
        phase: Phase,
        round: int,
        deadline: datetime | None,
        attacker_hp: int,
        defense_hp: int,
        used: tuple[int, ...],
        played: Played | None,
        reserve_round: int | None,
        question: AskedQuestion | None,
        rounds: tuple[RoundRecord, ...],
        stars: int,
        finish_reason: FinishReason | None,
        version: int,
    ) -> AttackState:
        """A copy with every field an action may change given: one constructor call."""
        return AttackState(
            self.attacker,
            self.defense,
            self.terrain,
            self.random,
            self.started_at,
            self.round_seconds,
            self.question_seconds,
            self.start_hp,
            phase,
            round,
            deadline,
            attacker_hp,
            defense_hp,
            used,
            played,
            reserve_round,
            question,
            rounds,
            stars,
            finish_reason,
            version,
        )

    def next_version(self) -> AttackState:
        """The attack one version on (every applied action)."""
        return self.copy_with(
            self.phase,
            self.round,
            self.deadline,
            self.attacker_hp,
            self.defense_hp,
            self.used,
            self.played,
            self.reserve_round,
            self.question,
            self.rounds,
            self.stars,
            self.finish_reason,
            self.version + 1,
        )

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def attacker_won(self) -> bool:
        return self.stars > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "attacker": self.attacker.to_dict(),
            "defense": self.defense.to_dict(),
            "terrain": terrain_to_dict(self.terrain),
            "random": self.random.to_dict(),
            "started_at": self.started_at.isoformat(),
            "round_seconds": self.round_seconds,
            "question_seconds": self.question_seconds,
            "start_hp": self.start_hp,
            "phase": str(self.phase),
            "round": self.round,
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "attacker_hp": self.attacker_hp,
            "defense_hp": self.defense_hp,
            "used": list(self.used),
            "played": None if self.played is None else self.played.to_dict(),
            "reserve_round": self.reserve_round,
            "question": None if self.question is None else self.question.to_dict(),
            "rounds": [r.to_dict() for r in self.rounds],
            "stars": self.stars,
            "finish_reason": None if self.finish_reason is None else str(self.finish_reason),
            "version": self.version,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AttackState:
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"unknown TerraKard state format {data.get('format')!r}")
        started_at = _time(data["started_at"])
        assert started_at is not None
        played, question, reason = data["played"], data["question"], data["finish_reason"]
        return cls(
            attacker=AttackerSide.from_dict(data["attacker"]),
            defense=DefenseSide.from_dict(data["defense"]),
            terrain=terrain_from_dict(data["terrain"]),
            random=RandomState.from_dict(data["random"]),
            started_at=started_at,
            round_seconds=int(data["round_seconds"]),
            question_seconds=int(data["question_seconds"]),
            start_hp=int(data["start_hp"]),
            phase=Phase(data["phase"]),
            round=int(data["round"]),
            deadline=_time(data["deadline"]),
            attacker_hp=int(data["attacker_hp"]),
            defense_hp=int(data["defense_hp"]),
            used=tuple(int(i) for i in data["used"]),
            played=None if played is None else Played.from_dict(played),
            reserve_round=data["reserve_round"],
            question=None if question is None else AskedQuestion.from_dict(question),
            rounds=tuple(RoundRecord.from_dict(r) for r in data["rounds"]),
            stars=int(data["stars"]),
            finish_reason=None if reason is None else FinishReason(reason),
            version=int(data["version"]),
        )

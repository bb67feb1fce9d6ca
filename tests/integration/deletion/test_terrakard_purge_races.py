"""Battle's purge of a TerraKard player raced against the attack writes around them, many
times, on the real database: the attacker's round (``play``), the sweeper timing an attack
out (a moved clock), a confirmation (``start_attack``), and the purge of the other player
of the attack. None may end in a deadlock (PostgreSQL's ``deadlock_detected``: the purge
would be retried and the player's request would fail) or in any error but a refusal a lost
race may give; afterwards no attack is still live without its attacker, every attack the
purged player defended shows "Deleted player", and nothing in battle's database names them
(docs/terrakard.md, "Account deletion (ours)"; services/battle/terrakard_purge.py).

Each round gives two fresh players (P attacks D, unless the write is the confirmation of
that attack), then starts the write and the purge together from a barrier in green
threads; rounds yield a different number of times before the write, so the two
interleave at different statements.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import eventlet
import psycopg.errors
import pytest
import sqlalchemy as sa

from games.terrakard.arena import ARENA
from games.terrakard.content import Card, Category, Rarity
from games.terrakard.plans import DefensePlan, Posture, ReserveCondition, Trigger
from games.terrakard.terrains import TERRAINS_BY_NAME
from services.battle import handlers
from services.battle import orm as battle_orm
from services.battle import purge as battle_purge
from services.battle import terrakard_handlers as terrakard
from services.battle.games import terrakard as tk
from services.battle.repository import unit_of_work as battle_uow
from services.battle.service import end_shared_matches
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.errors import DeckyardError
from shared.randomness import SeededRandomSource
from tests.integration.deletion.test_account_deletion import occurrences

pytestmark = pytest.mark.integration

ROUNDS = 10  # per race; a round is tens of milliseconds (a deadlock: one second more)
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=1)  # every round's deadline has passed: the sweeper plays
TERRAIN = next(iter(TERRAINS_BY_NAME))
# What a write that lost to the purge may answer; anything else fails the test.
LOSING = {
    "account_locked",  # the purge sealed the player's gate first
    "match_not_found",  # the attack is no longer theirs (their seat emptied)
    "stale_version",  # the purge or the sweeper moved the attack first
    "match_finished",
    "match_over",
    "target_not_allowed",  # the defender's arena row is gone
    "target_under_attack",
}
Write = Callable[[], Any]


class Client:
    """One service as battle calls it (``.call(method, **kwargs)``), answering from data."""

    def __init__(self, answer: Callable[..., Any]) -> None:
        self._answer = answer

    def call(self, method: str, **kwargs: Any) -> Any:
        return self._answer(method, **kwargs)


def _card(n: int) -> dict[str, Any]:
    """A copy with an id of its own (the purge rewrites copy ids as text)."""
    return Card(str(uuid.uuid4()), f"Card {n}", Category.GEOGRAPHY, Rarity.COMMON, 40, 20,
                None).to_dict()  # fmt: skip


class Services:
    """Cards, authoring and accounts as TerraKard's attacks ask them: every player has a
    deck of eight Commons and a plan of five and a reserve, no knowledge question."""

    def __init__(self) -> None:
        self.cards = Client(self._cards)
        self.authoring = Client(lambda method, **_: {})
        self.accounts = Client(lambda method, **_: {})

    def _cards(self, method: str, **kw: Any) -> Any:
        if method == "terrakard_target":  # the arena's id of a defender is their id here
            return {"player_id": kw["target_id"]}
        if method == "fair_choice":
            return {"outcome": TERRAIN}
        if method == "terrakard_deck_for_attack":
            cards = [_card(n) for n in range(8)]
            return {"deck_id": kw["deck_id"], "version": 1, "cards": cards}
        if method == "terrakard_defense_for_attack":
            plan = DefensePlan(
                tuple(Card.from_dict(_card(n)) for n in range(5)),
                Card.from_dict(_card(5)),
                ReserveCondition(Trigger.LOW_HP),
                Posture.BALANCED,
            )
            return {
                "plan": plan.to_dict(),
                "lineages": {},
                "plan_id": str(uuid.uuid4()),
                "version": 1,
                "automatic": False,
            }
        return {}  # grants of packs and rampart tokens


@pytest.fixture(scope="module")
def db(settings) -> Iterator[Database]:
    engine = make_engine(settings.database_url_for("battle"), pool_size=6)
    made = Database(engine, battle_orm.plumbing, lambda: NOW)
    yield made
    engine.dispose()


def arena_players(db: Database, *player_ids: uuid.UUID) -> None:
    """Arena rows past the tutorial and the new-player protection, at level 1."""
    old = NOW - ARENA.new_player_protection - timedelta(days=1)
    rows = [
        {"player_id": p, "started_at": old, "tickets": ARENA.max_tickets, "tickets_since": old,
         "shield_until": None, "trophies": 100, "experience": 0, "level": 1,
         "tutorial_done_at": old, "seen_at": NOW}
        for p in player_ids
    ]  # fmt: skip
    with db.transaction() as tx:
        tx.session.execute(sa.insert(battle_orm.terrakard_arena), rows)


@dataclass
class World:
    db: Database
    services: Services
    retries: list[uuid.UUID] = field(default_factory=list)  # purges to run again

    def uow(self) -> Any:
        return battle_uow(self.db)

    def confirm(self, attacker: uuid.UUID, defender: uuid.UUID) -> uuid.UUID:
        cmd = terrakard.StartAttack(attacker, uuid.uuid4(), defender, questions=False)
        view = terrakard.start_attack(
            cmd, self.services, self.uow, FixedClock(NOW), SeededRandomSource(17)
        )
        return uuid.UUID(str(view["id"]))

    def version(self, match_id: uuid.UUID) -> int:
        with self.uow() as uow:
            match = uow.matches.get(match_id)
        assert match is not None
        return match.version

    def act(self, player_id: uuid.UUID, match_id: uuid.UUID, action: dict[str, Any]) -> Any:
        cmd = handlers.Act(player_id, match_id, self.version(match_id), action, None, tk.GAME)
        return terrakard.act(cmd, self.services, self.uow, FixedClock(NOW))

    def attack(self, attacker: uuid.UUID, defender: uuid.UUID, rounds: int) -> uuid.UUID:
        """A live attack past its reconnaissance, ``rounds`` rounds played."""
        match_id = self.confirm(attacker, defender)
        self.act(attacker, match_id, {"kind": "begin"})
        for n in range(rounds):
            self.act(attacker, match_id, {"kind": "play", "card": n})
        return match_id

    def sweep(self) -> None:
        with self.uow() as uow:
            handlers.expire_overdue(uow, FixedClock(LATER), limit=10_000)

    def purge(self, player_id: uuid.UUID) -> None:
        """Battle's purge, in its handler's transaction. One that finds a player of an
        attack it ends busy fails (``player_busy``) and is retried, as its handler does."""
        try:
            with self.db.transaction() as tx:
                battle_purge.purge_player(tx.session, player_id, NOW, end_shared=end_shared_matches)
        except DeckyardError as busy:
            if busy.code != "player_busy":
                raise
            self.retries.append(player_id)


@pytest.fixture
def world(db) -> World:
    return World(db, Services())


@dataclass
class Round:
    purged: tuple[uuid.UUID, ...]
    writes: tuple[Write, ...]
    attacks: list[uuid.UUID]  # attacks of the round (the writes may add one)


# -- the races --------------------------------------------------------------------------------


def _live(world: World, n: int) -> tuple[uuid.UUID, uuid.UUID, uuid.UUID]:
    attacker, defender = uuid.uuid4(), uuid.uuid4()
    arena_players(world.db, attacker, defender)
    return attacker, defender, world.attack(attacker, defender, rounds=n % 5)


def play_vs_attacker_purge(world: World, n: int) -> Round:
    p, _d, match_id = _live(world, n)
    play = partial(world.act, p, match_id, {"kind": "play", "card": 7})
    return Round((p,), (play, partial(world.purge, p)), [match_id])


def play_vs_defender_purge(world: World, n: int) -> Round:
    p, d, match_id = _live(world, n)
    play = partial(world.act, p, match_id, {"kind": "play", "card": 7})
    return Round((d,), (play, partial(world.purge, d)), [match_id])


def sweeper_vs_attacker_purge(world: World, n: int) -> Round:
    p, _d, match_id = _live(world, n)
    return Round((p,), (world.sweep, partial(world.purge, p)), [match_id])


def sweeper_vs_defender_purge(world: World, n: int) -> Round:
    _p, d, match_id = _live(world, n)
    return Round((d,), (world.sweep, partial(world.purge, d)), [match_id])


def _confirm_vs_purge(world: World, defender_purged: bool) -> Round:
    """P confirms an attack on D while one of them is purged."""
    p, d = uuid.uuid4(), uuid.uuid4()
    arena_players(world.db, p, d)
    attacks: list[uuid.UUID] = []
    purged = d if defender_purged else p
    confirm = lambda: attacks.append(world.confirm(p, d))  # noqa: E731
    return Round((purged,), (confirm, partial(world.purge, purged)), attacks)


def confirm_vs_attacker_purge(world: World, n: int) -> Round:
    return _confirm_vs_purge(world, defender_purged=False)


def confirm_vs_defender_purge(world: World, n: int) -> Round:
    return _confirm_vs_purge(world, defender_purged=True)


def counterattack_vs_attacker_purge(world: World, n: int) -> Round:
    """D confirms an attack on P while P, attacking D, is purged (both gates in play)."""
    p, d, match_id = _live(world, n)
    attacks = [match_id]
    confirm = lambda: attacks.append(world.confirm(d, p))  # noqa: E731
    return Round((p,), (confirm, partial(world.purge, p)), attacks)


def both_purged(world: World, n: int) -> Round:
    p, d, match_id = _live(world, n)
    return Round((p, d), (partial(world.purge, p), partial(world.purge, d)), [match_id])


RACES = {
    "play vs the attacker's purge": play_vs_attacker_purge,
    "play vs the defender's purge": play_vs_defender_purge,
    "sweeper vs the attacker's purge": sweeper_vs_attacker_purge,
    "sweeper vs the defender's purge": sweeper_vs_defender_purge,
    "confirmation vs the attacker's purge": confirm_vs_attacker_purge,
    "confirmation vs the defender's purge": confirm_vs_defender_purge,
    "counterattack vs the attacker's purge": counterattack_vs_attacker_purge,
    "the attacker's purge vs the defender's": both_purged,
}


def race(writes: tuple[Write, ...], yields: int) -> list[BaseException]:
    """The writes from one barrier, the first after ``yields`` yields to the hub; what
    they raised that a lost race may not give."""
    barrier = threading.Barrier(len(writes))
    failures: list[BaseException] = []

    def run(write: Write, delay: int) -> None:
        barrier.wait()
        for _ in range(delay):
            eventlet.sleep(0)  # a yield to the hub, not a clock: shifts the interleaving
        try:
            write()
        except DeckyardError as refusal:
            if refusal.code not in LOSING:
                failures.append(refusal)
        except Exception as crash:
            failures.append(crash)

    threads = [eventlet.spawn(run, w, yields if i == 0 else 0) for i, w in enumerate(writes)]
    for thread in threads:
        thread.wait()
    return failures


def deadlocked(failure: BaseException) -> bool:
    return isinstance(getattr(failure, "orig", None), psycopg.errors.DeadlockDetected)


def inconsistencies(world: World, found: Round) -> list[str]:
    """What the purge left that it must not: a purged player's seat, an attack still
    live without its attacker, a defense that still shows the purged player's pseudonym."""
    matches, seats = battle_orm.matches, battle_orm.match_seats
    wrong = []
    with world.db.read() as session:
        named = session.execute(
            sa.select(seats.c.match_id).where(seats.c.player_id.in_(found.purged))
        ).all()
        wrong += [f"a seat still names a purged player in {m}" for (m,) in named]
        for match_id in found.attacks:
            row = session.execute(
                sa.select(matches.c.status, matches.c.state, matches.c.initial_state).where(
                    matches.c.id == match_id
                )
            ).one_or_none()
            if row is None:  # both players purged: the second purge took the match whole
                continue
            attacker = session.execute(
                sa.select(seats.c.player_id).where(
                    seats.c.match_id == match_id, seats.c.seat == "attacker"
                )
            ).scalar_one()
            if row.status == "active" and attacker is None:
                wrong.append(f"attack {match_id} is live without its (purged) attacker")
            shown = {row.state["defense"]["pseudonym"], row.initial_state["defense"]["pseudonym"]}
            if shown & {tk.pseudonym(p) for p in found.purged}:
                wrong.append(f"attack {match_id} still shows its purged defender: {shown}")
    return wrong


@pytest.mark.parametrize("name", RACES)
def test_the_terrakard_purge_racing_attack_writes_never_deadlocks_nor_leaves_the_player(
    name, world, settings
):
    failures, wrong, rounds = [], [], []
    for n in range(ROUNDS):
        found = RACES[name](world, n)
        failures += race(found.writes, yields=n % 6)
        while world.retries:  # the handler's retry, once the race is over: it must succeed
            world.purge(world.retries.pop())
        wrong += inconsistencies(world, found)
        rounds.append(found)
    assert [f for f in failures if deadlocked(f)] == [], "deadlock_detected"
    assert failures == []
    assert wrong == []
    engine = sa.create_engine(settings.database_url_for("battle"))
    try:
        purged = [p for found in rounds for p in found.purged]
        needles = [n for p in purged for n in (str(p), p.hex, tk.pseudonym(p))]
        assert occurrences({"battle": engine}, needles) == []
    finally:
        engine.dispose()

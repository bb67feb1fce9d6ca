"""Every player-data write raced against the purge of that player, many times, on the real
databases: afterwards no table of any service database names a player (issue 13, item 1).

Each round gives a fresh player what the write needs, then lets the write (the service's
own handler over its own unit of work, as its entrypoint calls it) and the service's
purge start together from a barrier, in green threads. Rounds yield a different number
of times before the write, so the two interleave at different statements. A write may
lose (403 ``account_locked``, or 404/409 for what the purge already removed); it must
never fail otherwise, and nothing it wrote may survive.
"""

# ruff: noqa: F401, F811 - pytest fixtures imported from the modules that define them

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

import eventlet
import pytest
import sqlalchemy as sa

from games.quest.cpu import CPU_DECK
from services.authoring import handlers as authoring
from services.authoring import orm as authoring_orm
from services.authoring import purge as authoring_purge
from services.authoring.repository import unit_of_work as authoring_uow
from services.battle import handlers as battle
from services.battle import orm as battle_orm
from services.battle import purge as battle_purge
from services.battle.repository import unit_of_work as battle_uow
from services.cards import collection_handlers as cards
from services.cards import orm as cards_orm
from services.cards import purge as cards_purge
from services.cards.repository import unit_of_work as cards_uow
from services.challenge import attempt_handlers as attempts
from services.challenge import orm as challenge_orm
from services.challenge import purge as challenge_purge
from services.challenge.domain.claims import Claim, ClaimPolicy
from services.challenge.repository import unit_of_work as challenge_uow
from shared.clock import FixedClock
from shared.config import SERVICE_NAMES
from shared.db import Database, make_engine
from shared.errors import DeckyardError
from shared.randomness import SeededRandomSource
from tests.integration.authoring.test_lifecycle import question_body
from tests.integration.battle.support import PLAYER_CARDS, catalogue, give
from tests.integration.cards.test_collection import cards_engine, starter_set
from tests.integration.challenge.test_attempts import (
    CENTRE,
    NOW,
    published_event,
    right_choice,
)
from tests.integration.deletion.test_account_deletion import occurrences
from tests.unit.battle.support import FakeCards

pytestmark = pytest.mark.integration

ROUNDS = 12  # per write path; each round is a few milliseconds of database work
POLICY = ClaimPolicy(max_age=timedelta(seconds=120), max_speed_mps=100.0)
# What a write that lost to the purge may answer; anything else (a 500) fails the test.
LOSING = {
    "account_locked",
    "attempt_not_found",
    "deck_not_found",
    "match_not_found",
    "content_not_found",
}


@pytest.fixture(scope="module")
def dbs(settings):
    made = {
        name: Database(make_engine(settings.database_url_for(name), pool_size=4), orm.plumbing, now)
        for name, orm, now in (
            ("cards", cards_orm, lambda: NOW),
            ("challenge", challenge_orm, lambda: NOW),
            ("battle", battle_orm, lambda: NOW),
            ("authoring", authoring_orm, lambda: NOW),
        )
    }
    yield made
    for db in made.values():
        db.engine.dispose()


@pytest.fixture(scope="module")
def engines(settings):
    made = {name: sa.create_engine(settings.database_url_for(name)) for name in SERVICE_NAMES}
    yield made
    for engine in made.values():
        engine.dispose()


def claim() -> Claim:
    return Claim(CENTRE[0], CENTRE[1], 10.0, NOW - timedelta(seconds=5))


@dataclass
class Path:
    """One write path: what a player needs first, the write, and whose purge races it."""

    service: str
    prepare: Callable[[uuid.UUID], Any]
    write: Callable[[uuid.UUID, Any], Any]


def paths(dbs, event_id, catalogue_, cards_engine_) -> dict[str, Path]:
    clock = FixedClock(NOW)
    rng = SeededRandomSource(3)

    def challenge() -> AbstractContextManager[Any]:
        return challenge_uow(dbs["challenge"])

    def card_uow() -> AbstractContextManager[Any]:
        return cards_uow(dbs["cards"])

    def start(player_id: uuid.UUID, _: Any = None) -> dict[str, Any]:
        with challenge() as uow:
            cmd = attempts.StartAttempt(player_id, event_id, claim())
            return attempts.start_attempt(cmd, uow, clock, rng, POLICY).view

    def answer(player_id: uuid.UUID, view: dict[str, Any]) -> None:
        with challenge() as uow:
            index = view["questions"][0]["index"]
            submission = {"choice": right_choice(view, index)}
            cmd = attempts.AnswerQuestion(player_id, uuid.UUID(str(view["id"])), index, submission)
            attempts.answer_question(cmd, uow, clock)

    def starter(player_id: uuid.UUID, _: Any) -> None:
        with card_uow() as uow:
            cards.choose_starter(cards.ChooseStarter(player_id, "Wit"), uow, rng, clock)

    def copies(player_id: uuid.UUID) -> list[uuid.UUID]:
        return [uuid.UUID(c) for c in give(cards_engine_, catalogue_, player_id, PLAYER_CARDS)]

    def create_deck(player_id: uuid.UUID, owned: list[uuid.UUID]) -> dict[str, Any]:
        with card_uow() as uow:
            return cards.create_deck(cards.SaveDeck(player_id, "Race", owned), uow, clock)

    def deck_with_spare_copies(player_id: uuid.UUID) -> tuple[dict[str, Any], list[uuid.UUID]]:
        return create_deck(player_id, copies(player_id)), copies(player_id)

    def edit_deck(player_id: uuid.UUID, prepared: tuple[dict[str, Any], list[uuid.UUID]]) -> None:
        deck, spare = prepared
        with card_uow() as uow:
            cmd = cards.EditDeck(
                player_id, uuid.UUID(str(deck["id"])), deck["version"], cards=spare
            )
            cards.edit_deck(cmd, uow, clock)

    def start_match(player_id: uuid.UUID, _: Any = None) -> dict[str, Any]:
        cmd = battle.StartMatch(player_id, uuid.uuid4())
        return battle.start_match(
            cmd, FakeCards(), partial(battle_uow, dbs["battle"]), clock, rng, CPU_DECK
        )

    def act(player_id: uuid.UUID, view: dict[str, Any]) -> None:
        action = next(a for a in view["legal_actions"] if a["kind"] != "forfeit")
        with battle_uow(dbs["battle"]) as uow:
            cmd = battle.Act(player_id, uuid.UUID(str(view["id"])), view["version"], action)
            battle.act(cmd, uow, clock)

    def author_uow() -> AbstractContextManager[Any]:
        return authoring_uow(dbs["authoring"])

    def draft(player_id: uuid.UUID, _: Any = None) -> Any:
        body = question_body()  # content outlives its author: nothing in it names them
        with author_uow() as uow:
            cmd = authoring.CreateContent(author(player_id), "question", "quest", body)
            return authoring.create_content(cmd, uow, clock)

    def submit(player_id: uuid.UUID, item: Any) -> None:
        with author_uow() as uow:
            cmd = authoring.TransitionContent(author(player_id), item.id, "in_review", item.version)
            authoring.transition_content(cmd, uow, clock)

    nothing: Callable[[uuid.UUID], None] = lambda _: None  # noqa: E731
    return {
        "attempt start": Path("challenge", nothing, start),
        "answer": Path("challenge", start, answer),
        "starter": Path("cards", nothing, starter),
        "deck create": Path("cards", copies, create_deck),
        "deck edit": Path("cards", deck_with_spare_copies, edit_deck),
        "match start": Path("battle", nothing, start_match),
        "battle action": Path("battle", start_match, act),
        "authoring create": Path("authoring", nothing, draft),
        "authoring submit": Path("authoring", draft, submit),
    }


def author(player_id: uuid.UUID) -> str:
    """The Auth0 subject of a racing author: the scan finds it by the id's hex."""
    return f"auth0|race-{player_id.hex}"


def purge_author(session: Any, player_id: uuid.UUID, now: Any) -> None:
    authoring_purge.purge_author(
        session, author(player_id), authoring_purge.historical_actor(), now
    )


WRITES = (
    "attempt start",
    "answer",
    "starter",
    "deck create",
    "deck edit",
    "match start",
    "battle action",
    "authoring create",
    "authoring submit",
)
PURGES = {
    "cards": cards_purge.purge_player,
    "challenge": challenge_purge.purge_player,
    "battle": battle_purge.purge_player,
    "authoring": purge_author,
}


def race(path: Path, db: Database, player_id: uuid.UUID, yields: int) -> list[BaseException]:
    """The write and the purge from one barrier; returns what the write raised, if it
    was not a refusal a lost race may give."""
    prepared = path.prepare(player_id)
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def write() -> None:
        barrier.wait()
        for _ in range(yields):
            eventlet.sleep(0)  # a yield to the hub, not a clock: shifts the interleaving
        try:
            path.write(player_id, prepared)
        except DeckyardError as refusal:
            if refusal.code not in LOSING:
                failures.append(refusal)
        except Exception as crash:
            failures.append(crash)

    def purge() -> None:
        barrier.wait()
        with db.transaction() as tx:
            PURGES[path.service](tx.session, player_id, NOW)

    threads = [eventlet.spawn(write), eventlet.spawn(purge)]
    for thread in threads:
        thread.wait()
    return failures


@pytest.fixture
def writes(dbs, published_event, catalogue, cards_engine, starter_set) -> dict[str, Path]:
    return paths(dbs, published_event(), catalogue, cards_engine)


def needles(player_ids: list[uuid.UUID]) -> Iterator[str]:
    for player_id in player_ids:
        yield str(player_id)
        yield player_id.hex


@pytest.mark.parametrize("name", WRITES)
def test_a_write_racing_the_purge_leaves_nothing_of_the_player(name, writes, dbs, engines):
    path = writes[name]
    players = [uuid.uuid4() for _ in range(ROUNDS)]
    failures = [
        failure
        for n, player_id in enumerate(players)
        for failure in race(path, dbs[path.service], player_id, yields=n % 6)
    ]
    assert failures == []
    assert occurrences(engines, list(needles(players))) == []


@pytest.mark.parametrize("name", WRITES)
def test_a_write_after_the_purge_is_refused_as_account_locked_and_changes_nothing(
    name, writes, dbs, engines
):
    path = writes[name]
    player_id = uuid.uuid4()
    prepared = path.prepare(player_id)
    with dbs[path.service].transaction() as tx:
        PURGES[path.service](tx.session, player_id, NOW)
    with pytest.raises(DeckyardError) as refused:
        path.write(player_id, prepared)
    assert (refused.value.status, refused.value.code) == (403, "account_locked")
    assert occurrences(engines, list(needles([player_id]))) == []


def seal_only(db: Database, gate: Callable[[Any], Any], player_id: uuid.UUID) -> None:
    """A tombstone with the player's rows still there: what a purge leaves if a write
    ever slipped past it (it cannot now); the sweepers must not act on those rows."""
    with db.transaction() as tx:
        gate(tx.session).seal(player_id, NOW)


def test_the_attempt_sweeper_never_completes_an_attempt_of_a_purged_player(writes, dbs):
    path = writes["attempt start"]
    player_id = uuid.uuid4()
    view = path.write(player_id, None)
    seal_only(dbs["challenge"], challenge_purge.player_gate, player_id)
    later = FixedClock(NOW + timedelta(hours=1))  # long past the attempt's deadline
    with challenge_uow(dbs["challenge"]) as uow:  # other tests' attempts may complete
        attempts.expire_due(uow, later, limit=10_000)
    with dbs["challenge"].read() as session:
        status = session.execute(
            sa.select(challenge_orm.attempts.c.status).where(
                challenge_orm.attempts.c.id == uuid.UUID(str(view["id"]))
            )
        ).scalar_one()
        outbox = challenge_orm.plumbing.outbox
        written = session.execute(
            sa.select(sa.func.count()).where(
                outbox.c.payload["data"]["player_id"].astext == str(player_id)
            )
        ).scalar_one()
    assert (status, written) == ("active", 0)


def test_the_turn_sweeper_never_plays_a_match_of_a_purged_player(writes, dbs):
    player_id = uuid.uuid4()
    view = writes["match start"].write(player_id, None)
    while view["deadline"] is None:  # selections have no deadline; a normal turn has
        writes["battle action"].write(player_id, view)
        with battle_uow(dbs["battle"]) as uow:
            view = battle.get_match(player_id, uuid.UUID(str(view["id"])), uow, FixedClock(NOW))
    seal_only(dbs["battle"], battle_purge.player_gate, player_id)
    later = FixedClock(NOW + timedelta(hours=1))  # long past the turn's deadline
    with battle_uow(dbs["battle"]) as uow:
        battle.expire_overdue(uow, later, limit=10_000)
    with dbs["battle"].read() as session:
        version = session.execute(
            sa.select(battle_orm.matches.c.version).where(
                battle_orm.matches.c.id == uuid.UUID(str(view["id"]))
            )
        ).scalar_one()
    assert version == view["version"]

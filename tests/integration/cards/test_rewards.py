"""Quest challenge rewards in the cards service, on real PostgreSQL and RabbitMQ.

Rolls that depend on which definitions exist run the real handler and queries
inside a transaction that hides every other definition and is rolled back, so
each test sees exactly the reward pool it describes.
"""

import os
import signal
import subprocess
import sys
import uuid
from collections import Counter
from contextlib import contextmanager
from datetime import UTC, datetime

import eventlet
import pytest
import sqlalchemy as sa

from services.cards import orm
from services.cards.repository import unit_of_work
from services.cards.reward_handlers import grant_reward
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.events import ATTEMPT_COMPLETED, new_event
from shared.randomness import SeededRandomSource
from tests.helpers import publish_event, wait_for
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


class _Rollback(Exception):
    pass


@pytest.fixture(scope="module")
def cards_db(settings):
    engine = make_engine(settings.database_url_for("cards"), pool_size=2)
    yield Database(engine, orm.plumbing, lambda: NOW)
    engine.dispose()


QUEST_ATTRIBUTES = ("affinity", "reward_eligible", "evolved", "starter")


def definition(rarity="Common", kind="creature", **overrides):
    """A card_definitions row; Quest's attributes (affinity, reward_eligible, evolved,
    starter) may be given as keywords and go into ``attributes``."""
    attributes = {
        "affinity": "Wit" if kind == "creature" else None,
        "reward_eligible": True,
        "evolved": False,
        "starter": False,
    }
    attributes.update({k: overrides.pop(k) for k in QUEST_ATTRIBUTES if k in overrides})
    row = {
        "id": uuid.uuid4(),
        "lineage_id": uuid.uuid4(),
        "game": "quest",
        "kind": kind,
        "name": f"Rewardling {random_suffix()}",
        "rarity": rarity,
        "attributes": attributes,
        "version": 1,
        "snapshot": {},
        "published_at": NOW,
    }
    row.update(overrides)
    return row


def completed(correct, attempt_id=None, player_id=None):
    return new_event(
        ATTEMPT_COMPLETED,
        {
            "attempt_id": attempt_id or uuid.uuid4(),
            "game": "quest",
            "player_id": player_id or uuid.uuid4(),
            "event_id": uuid.uuid4(),
            "correct_count": correct,
            "completed_at": NOW,
        },
        occurred_at=NOW,
    )


@contextmanager
def only_these_definitions(db, definitions):
    """A unit of work in which the reward pool is exactly ``definitions``; rolled back."""
    try:
        with unit_of_work(db) as uow:
            session = uow.owned._session
            session.execute(
                sa.update(orm.card_definitions)
                .where(orm.card_definitions.c.retired_at.is_(None))
                .values(retired_at=NOW)
            )
            for row in definitions:
                session.execute(sa.insert(orm.card_definitions).values(**row))
            yield uow, session
            raise _Rollback
    except _Rollback:
        pass


def granted_rarities(session, attempt_id):
    rows = session.execute(
        sa.select(orm.card_definitions.c.rarity)
        .join(orm.owned_cards, orm.owned_cards.c.definition_id == orm.card_definitions.c.id)
        .where(orm.owned_cards.c.source_id == attempt_id)
    ).all()
    return sorted(row.rarity for row in rows)


def reward_events(session, attempt_id):
    rows = session.execute(
        sa.select(orm.plumbing.outbox.c.payload).where(
            orm.plumbing.outbox.c.routing_key == "RewardGranted"
        )
    ).all()
    return [r.payload for r in rows if r.payload["data"]["attempt_id"] == str(attempt_id)]


FULL_POOL = [definition(r) for r in ("Common", "Rare", "Epic", "Legendary")]


@pytest.mark.parametrize("correct", [0, 1, 2])
def test_two_or_fewer_correct_answers_earn_no_card_but_the_result_is_recorded(cards_db, correct):
    with only_these_definitions(cards_db, FULL_POOL) as (uow, session):
        event = completed(correct)
        assert grant_reward(event, uow, SeededRandomSource(1), FixedClock(NOW)) is True
        assert granted_rarities(session, event.data["attempt_id"]) == []
        [payload] = reward_events(session, event.data["attempt_id"])
        assert payload["data"]["cards"] == []
        assert payload["data"]["correct_count"] == correct


def test_three_correct_answers_earn_exactly_one_common(cards_db):
    with only_these_definitions(cards_db, FULL_POOL) as (uow, session):
        for seed in range(30):
            event = completed(3)
            grant_reward(event, uow, SeededRandomSource(seed), FixedClock(NOW))
            assert granted_rarities(session, event.data["attempt_id"]) == ["Common"]


def test_four_correct_answers_earn_one_common_or_rare(cards_db):
    with only_these_definitions(cards_db, FULL_POOL) as (uow, session):
        seen = Counter()
        for seed in range(60):
            event = completed(4)
            grant_reward(event, uow, SeededRandomSource(seed), FixedClock(NOW))
            [rarity] = granted_rarities(session, event.data["attempt_id"])
            seen[rarity] += 1
        assert set(seen) == {"Common", "Rare"}  # both happen; the odds are the unit test's


def test_five_correct_answers_earn_one_or_two_cards_of_any_rarity(cards_db):
    with only_these_definitions(cards_db, FULL_POOL) as (uow, session):
        sizes, rarities = Counter(), Counter()
        for seed in range(400):
            event = completed(5)
            grant_reward(event, uow, SeededRandomSource(seed), FixedClock(NOW))
            granted = granted_rarities(session, event.data["attempt_id"])
            sizes[len(granted)] += 1
            rarities.update(granted)
        assert set(sizes) == {1, 2}
        assert {"Common", "Rare", "Epic"} <= set(rarities)


def test_a_missing_rarity_is_redistributed_over_the_others(cards_db):
    pool = [definition("Common"), definition("Epic", kind="power_card")]
    with only_these_definitions(cards_db, pool) as (uow, session):
        seen = Counter()
        for seed in range(200):
            event = completed(5)
            grant_reward(event, uow, SeededRandomSource(seed), FixedClock(NOW))
            seen.update(granted_rarities(session, event.data["attempt_id"]))
        assert set(seen) == {"Common", "Epic"}
        # 45 : 14 renormalised: Common about 76%; far from a 50/50 split either way.
        assert seen["Common"] > seen["Epic"] * 2


def test_four_correct_without_any_rare_always_gives_a_common(cards_db):
    with only_these_definitions(cards_db, [definition("Common"), definition("Epic")]) as (
        uow,
        session,
    ):
        for seed in range(30):
            event = completed(4)
            grant_reward(event, uow, SeededRandomSource(seed), FixedClock(NOW))
            assert granted_rarities(session, event.data["attempt_id"]) == ["Common"]


def test_three_correct_without_an_eligible_common_records_an_empty_grant(cards_db):
    with only_these_definitions(cards_db, [definition("Rare")]) as (uow, session):
        event = completed(3)
        assert grant_reward(event, uow, SeededRandomSource(3), FixedClock(NOW)) is True
        assert granted_rarities(session, event.data["attempt_id"]) == []
        [payload] = reward_events(session, event.data["attempt_id"])
        assert payload["data"]["cards"] == []


def test_only_active_eligible_non_evolved_definitions_are_awarded(cards_db):
    eligible = definition("Common")
    pool = [
        eligible,
        definition("Common", evolved=True),
        definition("Common", reward_eligible=False),
        definition("Common", retired_at=NOW),
        definition("Common", game="chronovore"),
    ]
    with only_these_definitions(cards_db, pool) as (uow, session):
        for seed in range(25):
            event = completed(3)
            grant_reward(event, uow, SeededRandomSource(seed), FixedClock(NOW))
            [definition_id] = session.execute(
                sa.select(orm.owned_cards.c.definition_id).where(
                    orm.owned_cards.c.source_id == event.data["attempt_id"]
                )
            ).scalars()
            assert definition_id == eligible["id"]


def test_the_same_attempt_in_another_message_grants_nothing_more(cards_db):
    with only_these_definitions(cards_db, FULL_POOL) as (uow, session):
        attempt_id, player_id = uuid.uuid4(), uuid.uuid4()
        first = completed(5, attempt_id, player_id)
        again = completed(5, attempt_id, player_id)  # same attempt, new event id
        assert grant_reward(first, uow, SeededRandomSource(1), FixedClock(NOW)) is True
        granted = granted_rarities(session, attempt_id)
        assert grant_reward(again, uow, SeededRandomSource(2), FixedClock(NOW)) is False
        assert grant_reward(first, uow, SeededRandomSource(3), FixedClock(NOW)) is False
        assert granted_rarities(session, attempt_id) == granted
        assert len(reward_events(session, attempt_id)) == 1


# -- through the broker ---------------------------------------------------------------


@pytest.fixture(scope="module")
def common_definition(cards_db):
    """One committed eligible Common, so that three correct answers always earn a card."""
    row = definition("Common")
    with unit_of_work(cards_db) as uow:
        uow.owned._session.execute(sa.insert(orm.card_definitions).values(**row))
    return row


def grants_for(settings, attempt_id):
    engine = sa.create_engine(settings.database_url_for("cards"))
    try:
        with engine.connect() as conn:
            grants = conn.execute(
                sa.select(sa.func.count()).where(orm.reward_grants.c.attempt_id == attempt_id)
            ).scalar_one()
            copies = conn.execute(
                sa.select(sa.func.count()).where(orm.owned_cards.c.source_id == attempt_id)
            ).scalar_one()
            events = conn.execute(
                sa.select(sa.func.count()).where(
                    orm.plumbing.outbox.c.routing_key == "RewardGranted",
                    orm.plumbing.outbox.c.payload["data"]["attempt_id"].astext == str(attempt_id),
                )
            ).scalar_one()
    finally:
        engine.dispose()
    return grants, copies, events


def test_a_redelivered_attempt_completed_grants_once(start_service, settings, common_definition):
    start_service("cards")
    event = completed(3)
    for _ in range(3):  # the same message again, as an at-least-once broker may
        publish_event(settings, event)
    publish_event(settings, completed(3, attempt_id=event.data["attempt_id"]))  # a re-send
    marker = completed(3)
    publish_event(settings, marker)  # queued behind the duplicates: no fixed sleep
    wait_for(lambda: grants_for(settings, marker.data["attempt_id"])[0] == 1)
    assert grants_for(settings, event.data["attempt_id"]) == (1, 1, 1)


def _cards_process(settings, log_path):
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "DATABASE_PREFIX": settings.database_prefix,
        "AMQP_URI": settings.amqp_uri,
        "RPC_EXCHANGE": settings.rpc_exchange,
        "DEV_AUTH": "1",
        "HEALTH_PORT": "0",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "deckyard.cli", "run", "--service", "cards", "--no-migrate"],
        env=env,
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _blocked_on_reward_grants(conn):
    return conn.execute(
        sa.text(
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            "WHERE c.relname = 'reward_grants' AND NOT l.granted"
        )
    ).scalar_one()


def test_a_cards_crash_before_commit_leaves_no_grant_and_the_restart_grants_once(
    settings, common_definition, tmp_path
):
    """SIGKILL the cards process while its reward transaction is open; restart it."""
    engine = sa.create_engine(settings.database_url_for("cards"))
    event = completed(3)
    attempt_id = event.data["attempt_id"]
    process = _cards_process(settings, tmp_path / "cards.log")
    try:
        with engine.connect() as blocker:
            transaction = blocker.begin()
            blocker.execute(sa.text("LOCK TABLE reward_grants IN ACCESS EXCLUSIVE MODE"))
            publish_event(settings, event)
            # The handler has received the event and is inside its transaction, waiting.
            wait_for(lambda: _blocked_on_reward_grants(blocker) > 0, timeout=60)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
            transaction.rollback()
        assert grants_for(settings, attempt_id) == (0, 0, 0)

        process = _cards_process(settings, tmp_path / "cards.log")
        wait_for(lambda: grants_for(settings, attempt_id)[0] == 1, timeout=60)
        marker = completed(3)
        publish_event(settings, marker)
        wait_for(lambda: grants_for(settings, marker.data["attempt_id"])[0] == 1, timeout=30)
        assert grants_for(settings, attempt_id) == (1, 1, 1)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        engine.dispose()
        eventlet.sleep(0)


def test_a_completion_arriving_after_the_players_data_was_purged_grants_nothing(cards_db):
    from services.cards.purge import purge_player

    with only_these_definitions(cards_db, FULL_POOL) as (uow, session):
        player_id = uuid.uuid4()
        purge_player(session, player_id, NOW)
        late = completed(5, player_id=player_id)
        assert grant_reward(late, uow, SeededRandomSource(1), FixedClock(NOW)) is False
        assert granted_rarities(session, late.data["attempt_id"]) == []
        assert reward_events(session, late.data["attempt_id"]) == []
        stored = session.execute(sa.select(orm.purged_players.c.player_digest)).scalars().all()
        assert str(player_id) not in " ".join(stored)  # a digest, never the id
        other = completed(5)
        assert grant_reward(other, uow, SeededRandomSource(1), FixedClock(NOW)) is True

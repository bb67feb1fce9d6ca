"""Progression points from AttemptCompleted and MatchFinished, on PostgreSQL and RabbitMQ.

Events are published as the outbox relay publishes them: the envelope on the
source's events exchange with the event type as routing key.
"""

import logging
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from alembic import command
from kombu import Exchange

from services.accounts.handlers import ATTEMPT_COMPLETED_CONSUMER, MATCH_FINISHED_CONSUMER
from services.accounts.orm import players, plumbing, progression_entries
from shared.errors import InvalidInput, NotFound
from shared.events import ATTEMPT_COMPLETED, Event, new_event
from shared.migrations import alembic_config, drop_database, upgrade
from shared.outbox import nameko_publisher
from tests.helpers import wait_for
from tests.match_events import quest_cpu_finished
from tests.random_refs import random_sub, random_suffix

pytestmark = pytest.mark.integration


@pytest.fixture
def accounts_engine(settings):
    engine = sa.create_engine(settings.database_url_for("accounts"))
    yield engine
    engine.dispose()


@pytest.fixture
def publish(settings):
    publisher = nameko_publisher(settings.amqp_uri)

    def send(event: Event) -> None:
        publisher.publish(
            event.to_message(),
            exchange=Exchange(event.contract.exchange, type="topic", durable=True),
            routing_key=event.contract.name,
            mandatory=True,  # fails if no consumer queue is bound: the handler must exist
        )

    return send


def attempt_completed(player_id, correct_count, attempt_id=None, at=None):
    at = at or datetime.now(UTC)
    return new_event(
        ATTEMPT_COMPLETED,
        {
            "attempt_id": attempt_id or uuid.uuid4(),
            "game": "quest",
            "player_id": player_id,
            "event_id": uuid.uuid4(),
            "correct_count": correct_count,
            "completed_at": at,
        },
        occurred_at=at,
    )


def match_finished(player_id, outcome, match_id=None, at=None, version=2):
    return quest_cpu_finished(player_id, outcome, match_id, at, version)


def register(rpc):
    return rpc.accounts.me(sub=random_sub())["id"]


def entries_once(rpc, player_id, count):
    """The player's progression once it has ``count`` entries (None before)."""
    progression = rpc.accounts.progression(player_id=player_id)
    return progression if len(progression["entries"]) >= count else None


def processed(engine, consumer, event_ids):
    table = plumbing.processed_messages
    with engine.connect() as conn:
        found = conn.execute(
            sa.select(table.c.message_id).where(
                table.c.consumer == consumer, table.c.message_id.in_(event_ids)
            )
        ).scalars()
        return set(found) == set(event_ids)


def test_a_new_player_has_no_points(start_service, rpc):
    start_service("accounts")
    me = rpc.accounts.me(sub=random_sub())

    assert me["points"] == 0
    assert rpc.accounts.progression(player_id=me["id"]) == {
        "player_id": me["id"],
        "points": 0,
        "entries": [],
    }


def test_a_completed_attempt_adds_ten_points_per_correct_answer(start_service, rpc, publish):
    start_service("accounts")
    sub = random_sub()
    player_id = rpc.accounts.me(sub=sub)["id"]
    event = attempt_completed(player_id, 3)

    publish(event)

    progression = wait_for(lambda: entries_once(rpc, player_id, 1))
    assert progression["points"] == 30
    assert progression["entries"] == [
        {
            "source_type": "attempt",
            "source_id": str(event.data["attempt_id"]),
            "points": 30,
            "reason": "challenge_answers",
            "correct_count": 3,
            "occurred_at": event.data["completed_at"].isoformat(),
        }
    ]
    assert rpc.accounts.me(sub=sub)["points"] == 30


def test_redelivered_and_repeated_messages_add_an_attempts_points_once(
    start_service, rpc, publish, accounts_engine
):
    start_service("accounts", max_workers=1)  # one at a time: the marker comes last
    player_id = register(rpc)
    attempt_id = uuid.uuid4()
    first = attempt_completed(player_id, 4, attempt_id)
    again = attempt_completed(player_id, 4, attempt_id)  # same attempt, another event id
    marker = attempt_completed(player_id, 1)

    for event in (first, first, again, marker):
        publish(event)

    progression = wait_for(lambda: entries_once(rpc, player_id, 2))
    assert processed(accounts_engine, ATTEMPT_COMPLETED_CONSUMER, [first.event_id, again.event_id])
    assert progression["points"] == 40 + 10
    assert sorted(e["source_id"] for e in progression["entries"]) == sorted(
        [str(attempt_id), str(marker.data["attempt_id"])]
    )


def test_concurrent_messages_about_one_attempt_add_its_points_once(
    start_service, rpc, publish, accounts_engine
):
    start_service("accounts")  # several workers: the messages race
    player_id = register(rpc)
    attempt_id = uuid.uuid4()
    events = [attempt_completed(player_id, 5, attempt_id) for _ in range(6)]

    for event in events:
        publish(event)

    wait_for(
        lambda: processed(accounts_engine, ATTEMPT_COMPLETED_CONSUMER, [e.event_id for e in events])
    )
    progression = rpc.accounts.progression(player_id=player_id)
    assert progression["points"] == 50
    assert len(progression["entries"]) == 1


def test_a_cpu_victory_adds_25_points_and_a_loss_is_recorded_with_none(start_service, rpc, publish):
    start_service("accounts")
    player_id = register(rpc)
    outcomes = {"victory": uuid.uuid4(), "defeat": uuid.uuid4(), "forfeit": uuid.uuid4()}

    for outcome, match_id in outcomes.items():
        publish(match_finished(player_id, outcome, match_id))

    progression = wait_for(lambda: entries_once(rpc, player_id, 3))
    assert progression["points"] == 25
    by_match = {e["source_id"]: e for e in progression["entries"]}
    assert {
        outcome: (by_match[str(match_id)]["points"], by_match[str(match_id)]["reason"])
        for outcome, match_id in outcomes.items()
    } == {
        "victory": (25, "cpu_victory"),
        "defeat": (0, "cpu_defeat"),
        "forfeit": (0, "cpu_forfeit"),
    }
    assert all(
        e["source_type"] == "match" and e["correct_count"] is None for e in progression["entries"]
    )


def test_a_v1_match_finished_on_the_wire_still_adds_its_points(
    start_service, rpc, publish, accounts_engine
):
    """Messages battle wrote before it published v2 (in its outbox or a queue at the
    upgrade) are still applied, and the same match re-sent as v2 counts once."""
    start_service("accounts")
    player_id = register(rpc)
    match_id = uuid.uuid4()
    events = [match_finished(player_id, "victory", match_id, version=v) for v in (1, 2)]

    for event in events:
        publish(event)

    wait_for(
        lambda: processed(accounts_engine, MATCH_FINISHED_CONSUMER, [e.event_id for e in events])
    )
    progression = rpc.accounts.progression(player_id=player_id)
    assert (progression["points"], len(progression["entries"])) == (25, 1)
    assert progression["entries"][0]["reason"] == "cpu_victory"


def test_a_repeated_match_message_adds_its_points_once(
    start_service, rpc, publish, accounts_engine
):
    start_service("accounts")
    player_id = register(rpc)
    match_id = uuid.uuid4()
    events = [match_finished(player_id, "victory", match_id) for _ in range(3)]

    for event in [*events, events[0]]:
        publish(event)

    wait_for(
        lambda: processed(accounts_engine, MATCH_FINISHED_CONSUMER, [e.event_id for e in events])
    )
    progression = rpc.accounts.progression(player_id=player_id)
    assert (progression["points"], len(progression["entries"])) == (25, 1)


def test_progression_lists_the_history_newest_first(start_service, rpc, publish):
    start_service("accounts")
    player_id = register(rpc)
    start = datetime.now(UTC) - timedelta(hours=1)
    oldest = attempt_completed(player_id, 2, at=start)
    middle = match_finished(player_id, "defeat", at=start + timedelta(minutes=10))
    newest = match_finished(player_id, "victory", at=start + timedelta(minutes=20))

    for event in (middle, newest, oldest):  # arrival order is not history order
        publish(event)

    progression = wait_for(lambda: entries_once(rpc, player_id, 3))
    assert [e["reason"] for e in progression["entries"]] == [
        "cpu_victory",
        "cpu_defeat",
        "challenge_answers",
    ]
    assert progression["points"] == 20 + 0 + 25
    newest_two = rpc.accounts.progression(player_id=player_id, limit=2)
    assert newest_two["entries"] == progression["entries"][:2]
    assert newest_two["points"] == 45  # the total, not the sum of the page


def test_me_shows_the_points_earned_from_events(start_service, rpc, publish):
    start_service("accounts")
    sub = random_sub()
    player_id = rpc.accounts.me(sub=sub)["id"]

    publish(attempt_completed(player_id, 5))
    publish(match_finished(player_id, "victory"))

    me = wait_for(lambda: (m := rpc.accounts.me(sub=sub))["points"] == 75 and m)
    assert me["registered_now"] is False


def test_points_for_an_unknown_player_are_ignored_and_do_not_block_the_queue(
    start_service, rpc, publish, accounts_engine, caplog
):
    start_service("accounts", max_workers=1)
    stranger = uuid.uuid4()
    lost_attempt = attempt_completed(stranger, 5)
    lost_match = match_finished(stranger, "victory")
    player_id = register(rpc)

    with caplog.at_level(logging.WARNING, logger="services.accounts.handlers"):
        publish(lost_attempt)
        publish(lost_match)
        publish(attempt_completed(player_id, 1))  # behind them in the queue
        publish(match_finished(player_id, "victory"))
        wait_for(lambda: entries_once(rpc, player_id, 2))
        wait_for(lambda: processed(accounts_engine, MATCH_FINISHED_CONSUMER, [lost_match.event_id]))

    assert processed(accounts_engine, ATTEMPT_COMPLETED_CONSUMER, [lost_attempt.event_id])
    with accounts_engine.connect() as conn:
        recorded = conn.execute(
            sa.select(sa.func.count()).where(progression_entries.c.player_id == stranger)
        ).scalar_one()
    assert recorded == 0
    assert str(stranger) in caplog.text
    with pytest.raises(NotFound):
        rpc.accounts.progression(player_id=str(stranger))


def test_progression_of_an_unknown_player_is_not_found(start_service, rpc):
    start_service("accounts")
    with pytest.raises(NotFound) as caught:
        rpc.accounts.progression(player_id=str(uuid.uuid4()))
    assert caught.value.code == "player_not_found"


@pytest.mark.parametrize(
    "arguments",
    [
        {"player_id": "not-a-uuid"},
        {"player_id": str(uuid.UUID(int=1)), "limit": 0},
        {"player_id": str(uuid.UUID(int=1)), "limit": 201},
        {"player_id": str(uuid.UUID(int=1)), "limit": "10"},
    ],
)
def test_bad_progression_input_is_invalid_input(start_service, rpc, arguments):
    start_service("accounts")
    with pytest.raises(InvalidInput) as caught:
        rpc.accounts.progression(**arguments)
    assert caught.value.code == "validation_failed"


def test_points_can_never_be_negative_in_the_database(start_service, rpc, accounts_engine):
    start_service("accounts")
    player_id = register(rpc)
    with pytest.raises(sa.exc.IntegrityError), accounts_engine.begin() as conn:
        conn.execute(sa.update(players).where(players.c.id == player_id).values(points=-1))


def test_migration_0002_gives_existing_players_zero_points_and_reverts(settings):
    own = replace(settings, database_prefix=f"{settings.database_prefix}_m{random_suffix()}")
    try:
        upgrade(own, "accounts", "0001")
        engine = sa.create_engine(own.database_url_for("accounts"))
        player_id = uuid.uuid4()
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO players (id, auth0_sub, status, registered_at)"
                    " VALUES (:id, 'auth0|old', 'active', now())"
                ),
                {"id": player_id},
            )
        upgrade(own, "accounts", "head")
        with engine.connect() as conn:
            points = conn.execute(
                sa.select(players.c.points).where(players.c.id == player_id)
            ).scalar_one()
        command.downgrade(alembic_config(own, "accounts"), "0001")
        tables = set(sa.inspect(engine).get_table_names())
        columns = {c["name"] for c in sa.inspect(engine).get_columns("players")}
        engine.dispose()
    finally:
        drop_database(own, "accounts")
    assert points == 0
    assert "progression_entries" not in tables
    assert "points" not in columns

"""Published content reaches the challenge and cards read models, exactly once."""

import uuid

import pytest
from kombu import Exchange
from sqlalchemy import create_engine, func, select

from services.challenge.orm import questions
from shared.errors import NotFound
from shared.outbox import nameko_publisher
from tests.helpers import wait_for
from tests.integration.authoring.test_lifecycle import (
    BOB,
    creature_body,
    event_body,
    power_card_body,
    published,
    published_challenge,
)

pytestmark = pytest.mark.integration


@pytest.fixture
def authoring(start_service, rpc):
    for name in ("authoring", "challenge", "cards"):
        start_service(name)
    return rpc.authoring


def definition_in_catalogue(rpc, definition_id):
    return next((d for d in rpc.cards.catalogue(game="quest") if d["id"] == definition_id), None)


def event_of(rpc, event_id):
    try:
        return rpc.challenge.get_event(event_id=event_id)
    except NotFound:
        return None


def count_question_rows(settings, question_id):
    engine = create_engine(settings.database_url_for("challenge"))
    with engine.connect() as conn:
        found = conn.execute(
            select(func.count()).where(questions.c.id == uuid.UUID(question_id))
        ).scalar_one()
        key = conn.execute(
            select(questions.c.body).where(questions.c.id == uuid.UUID(question_id))
        ).scalar()
    engine.dispose()
    return found, key


def test_a_published_card_reaches_the_cards_catalogue_and_leaves_it_when_retired(authoring, rpc):
    card = published(authoring, "creature", creature_body())
    shown = wait_for(lambda: definition_in_catalogue(rpc, card["id"]))
    assert shown["name"] == card["body"]["name"]
    assert shown["definition"]["moves"][0]["effects"] == [{"type": "damage", "amount": 10}]
    authoring.transition(
        actor=BOB, content_id=card["id"], to="retired", expected_version=card["version"]
    )
    wait_for(lambda: definition_in_catalogue(rpc, card["id"]) is None)


def test_a_published_event_reaches_challenge_with_its_place(authoring, rpc, settings):
    challenge = published_challenge(authoring)
    reward = published(authoring, "power_card", power_card_body())
    event = published(authoring, "event", event_body(challenge["id"], reward["id"]))
    stored = wait_for(lambda: event_of(rpc, event["id"]))
    assert (stored["lat"], stored["lon"]) == pytest.approx((51.5007, -0.1246))
    assert stored["radius_m"] == 100
    assert stored["challenge_id"] == challenge["id"]
    assert "choices" not in stored and "question_ids" not in stored

    question_id = challenge["body"]["question_ids"][0]
    rows, body = wait_for(
        lambda: (
            count_question_rows(settings, question_id)[0]
            and count_question_rows(settings, question_id)
        )
    )
    assert rows == 1
    assert any(choice["correct"] for choice in body["choices"])  # the key is here, privately


def test_the_same_event_delivered_twice_changes_the_read_models_once(authoring, rpc, settings):
    card = published(authoring, "power_card", power_card_body())
    wait_for(lambda: definition_in_catalogue(rpc, card["id"]))
    # Redeliver a ContentPublished for that card, as an at-least-once broker may:
    # a new message id for the same content (a republish by the relay after a crash
    # reuses the id; both must leave one row).
    from datetime import UTC, datetime

    from shared.events import CONTENT_PUBLISHED, new_event

    again = new_event(
        CONTENT_PUBLISHED,
        {
            "content_id": uuid.UUID(card["id"]),
            "lineage_id": uuid.UUID(card["lineageId"]),
            "kind": "power_card",
            "game": "quest",
            "version": card["version"],
            "published_at": datetime.now(UTC),
            "snapshot": card["body"],
            "replaces": None,
        },
        occurred_at=datetime.now(UTC),
    )
    publisher = nameko_publisher(settings.amqp_uri)
    exchange = Exchange("authoring.events", type="topic", durable=True)
    for _ in range(2):
        publisher.publish(
            again.to_message(), exchange=exchange, routing_key="ContentPublished", mandatory=True
        )
    marker = published(authoring, "power_card", power_card_body())  # delivered after those
    wait_for(lambda: definition_in_catalogue(rpc, marker["id"]))
    matching = [d for d in rpc.cards.catalogue(game="quest") if d["id"] == card["id"]]
    assert len(matching) == 1
    engine = create_engine(settings.database_url_for("cards"))
    with engine.connect() as conn:
        applied = conn.exec_driver_sql(
            "SELECT count(*) FROM processed_messages WHERE message_id = %(id)s",
            {"id": again.event_id},
        ).scalar_one()
    engine.dispose()
    assert applied == 1

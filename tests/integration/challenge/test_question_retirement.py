"""Issue 13, item 3: a question's retirement never leaves a published event unplayable."""

import uuid

import pytest
import sqlalchemy as sa

from services.challenge.orm import questions
from shared.errors import Conflict
from tests.helpers import wait_for
from tests.integration.authoring.test_lifecycle import (
    BOB,
    creature_body,
    event_body,
    published,
    published_challenge,
)

pytestmark = pytest.mark.integration

SPOT = {"lat": 51.5007, "lon": -0.1246}  # where event_body places its events


@pytest.fixture
def authoring(start_service, rpc):
    for name in ("authoring", "challenge", "cards"):
        start_service(name)
    return rpc.authoring


def published_event(authoring, questions=5):
    challenge = published_challenge(authoring, questions)
    reward = published(authoring, "creature", creature_body())
    event = published(authoring, "event", event_body(challenge["id"], reward["id"]))
    return challenge, event


def retire(authoring, content):
    return authoring.transition(
        actor=BOB, content_id=content["id"], to="retired", expected_version=content["version"]
    )


def nearby_ids(rpc):
    return {e["id"] for e in rpc.challenge.nearby_events(lat=SPOT["lat"], lon=SPOT["lon"])}


def test_a_question_a_five_question_published_challenge_needs_cannot_be_retired(authoring):
    challenge, event = published_event(authoring)
    question = authoring.get(content_id=challenge["body"]["question_ids"][0])

    with pytest.raises(Conflict) as caught:
        retire(authoring, question)
    assert caught.value.code == "question_in_use"
    assert caught.value.details == {"challenges": [challenge["id"]], "events": [event["id"]]}
    assert authoring.get(content_id=question["id"])["state"] == "published"


def test_a_question_beyond_the_five_a_challenge_needs_can_be_retired(authoring):
    challenge, _ = published_event(authoring, questions=6)
    question = authoring.get(content_id=challenge["body"]["question_ids"][0])
    assert retire(authoring, question)["state"] == "retired"
    second = authoring.get(content_id=challenge["body"]["question_ids"][1])
    with pytest.raises(Conflict) as caught:
        retire(authoring, second)
    assert caught.value.code == "question_in_use"


def test_an_event_whose_challenge_cannot_start_is_not_listed_nearby(authoring, rpc, settings):
    challenge, event = published_event(authoring)
    wait_for(lambda: event["id"] in nearby_ids(rpc))
    # A question retired before authoring refused it (or any other way the read model
    # comes to hold fewer than five): the event cannot start, so it is not offered.
    engine = sa.create_engine(settings.database_url_for("challenge"))
    with engine.begin() as conn:
        conn.execute(
            sa.update(questions)
            .where(questions.c.id == uuid.UUID(challenge["body"]["question_ids"][0]))
            .values(retired_at=sa.func.now())
        )
    engine.dispose()
    assert event["id"] not in nearby_ids(rpc)

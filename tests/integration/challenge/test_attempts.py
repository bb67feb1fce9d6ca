"""Quest event attempts on the real challenge service: PostGIS eligibility, timing, answers."""

import uuid
from datetime import UTC, datetime, timedelta

import eventlet
import pytest
from sqlalchemy import create_engine, text

from services.challenge.geo import point
from services.challenge.orm import plumbing
from services.challenge.repository import SqlPublishedContent
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.errors import Conflict, InvalidInput, NotFound
from shared.randomness import SeededRandomSource

pytestmark = pytest.mark.integration

NOW = datetime.now(UTC).replace(microsecond=0)
CENTRE = (51.5080, -0.1281)  # Trafalgar Square


def question(difficulty, n):
    return {
        "prompt": f"Question {n}?",
        "difficulty": difficulty,
        "explanation": "Because.",
        "choices": [
            {"text": "right", "correct": True},
            {"text": "wrong a"},
            {"text": "wrong b"},
            {"text": "wrong c"},
        ],
    }


def ordering(n):
    return {
        "prompt": f"Order {n}",
        "difficulty": 2,
        "explanation": "Sizes.",
        "items": ["ant", "dog", "cow", "whale"],
    }


@pytest.fixture
def published_event(settings):
    """An event with five questions in the challenge read model (as its consumers write it)."""

    def make(
        difficulties=(1, 1, 1, 1, 1),
        radius=100,
        starts=NOW - timedelta(hours=1),
        ends=NOW + timedelta(days=1),
        with_ordering=False,
        centre=CENTRE,
    ):
        engine = make_engine(settings.database_url_for("challenge"))
        db = Database(engine, plumbing, lambda: NOW)
        ids = []
        with db.transaction() as tx:
            content = SqlPublishedContent(tx.session)
            for n, difficulty in enumerate(difficulties):
                qid = uuid.uuid4()
                kind, body = ("question", question(difficulty, n))
                if with_ordering and n == 0:
                    kind, body = "ordering_question", ordering(n)
                content.add(
                    kind, {"id": qid, "kind": kind, "body": body, "version": 5, "published_at": NOW}
                )
                ids.append(str(qid))
            challenge_id, event_id = uuid.uuid4(), uuid.uuid4()
            content.add(
                "challenge",
                {
                    "id": challenge_id,
                    "title": "T",
                    "question_ids": ids,
                    "version": 5,
                    "published_at": NOW,
                },
            )
            content.add(
                "event",
                {
                    "id": event_id,
                    "name": "Trafalgar",
                    "description": "",
                    "radius_m": radius,
                    "geog": point(*centre),
                    "starts_at": starts,
                    "ends_at": ends,
                    "challenge_id": challenge_id,
                    "reward_definition_id": uuid.uuid4(),
                    "version": 5,
                    "published_at": NOW,
                },
            )
        engine.dispose()
        return event_id

    return make


@pytest.fixture
def clock():
    return FixedClock(NOW)


@pytest.fixture
def challenge(start_service, rpc, clock):
    start_service("challenge", replacements={"clock": clock, "random": SeededRandomSource(7)})
    return rpc.challenge


def point_at(settings, metres, azimuth_deg=90.0):
    """A point `metres` from the centre, computed by PostGIS on the spheroid."""
    engine = create_engine(settings.database_url_for("challenge"))
    with engine.connect() as conn:
        lat, lon = conn.execute(
            text(
                "SELECT ST_Y(p::geometry), ST_X(p::geometry) FROM (SELECT ST_Project("
                "ST_GeogFromText(:c), :m, radians(:az)) AS p) AS x"
            ),
            {"c": f"SRID=4326;POINT({CENTRE[1]} {CENTRE[0]})", "m": metres, "az": azimuth_deg},
        ).one()
    engine.dispose()
    return lat, lon


def location(lat=CENTRE[0], lon=CENTRE[1], accuracy_m=10.0, acquired_at=None):
    return {
        "lat": lat,
        "lon": lon,
        "accuracy_m": accuracy_m,
        "acquired_at": (acquired_at or NOW).isoformat(),
    }


def start(challenge, event_id, player_id=None, **loc):
    return challenge.start_attempt(
        player_id=str(player_id or uuid.uuid4()), event_id=str(event_id), location=location(**loc)
    )


def refused(code, call, *args, **kwargs):
    with pytest.raises((Conflict, InvalidInput, NotFound)) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


def completions_of(settings, attempt_id):
    """How many AttemptCompleted events the challenge outbox holds for an attempt."""
    engine = create_engine(settings.database_url_for("challenge"))
    with engine.connect() as conn:
        count = conn.execute(
            text(
                "SELECT count(*) FROM outbox WHERE routing_key = 'AttemptCompleted' "
                "AND payload->'data'->>'attempt_id' = :id"
            ),
            {"id": attempt_id},
        ).scalar_one()
    engine.dispose()
    return count


# -- eligibility ------------------------------------------------------------------------


def test_exactly_on_the_radius_is_inside_and_a_metre_beyond_is_outside(
    challenge, settings, published_event
):
    event_id = published_event(radius=100)
    lat, lon = point_at(settings, 100)
    assert start(challenge, event_id, lat=lat, lon=lon)["created"] is True
    lat, lon = point_at(settings, 101)
    refused("outside_event_area", start, challenge, event_id, lat=lat, lon=lon)


def test_accuracy_exactly_at_the_limit_is_accepted(challenge, published_event):
    small = published_event(radius=50)  # limit min(150, 100) = 100
    assert start(challenge, small, accuracy_m=100.0)["created"]
    refused("location_inaccurate", start, challenge, small, accuracy_m=100.5)
    large = published_event(radius=400)  # limit 150
    assert start(challenge, large, accuracy_m=150.0)["created"]
    refused("location_inaccurate", start, challenge, large, accuracy_m=150.01)


def test_a_claim_120_seconds_old_is_accepted_and_121_is_refused(challenge, published_event):
    event_id = published_event()
    assert start(challenge, event_id, acquired_at=NOW - timedelta(seconds=120))["created"]
    refused(
        "location_too_old",
        start,
        challenge,
        published_event(),
        acquired_at=NOW - timedelta(seconds=121),
    )


def test_a_claim_from_the_future_is_refused(challenge, published_event):
    refused(
        "location_from_the_future",
        start,
        challenge,
        published_event(),
        acquired_at=NOW + timedelta(seconds=1),
    )


def test_teleporting_between_cities_is_implausible(challenge, published_event, clock):
    player = uuid.uuid4()
    assert start(challenge, published_event(), player_id=player)["created"]
    clock.advance(60)
    paris = published_event(centre=(48.8556, 2.2986))  # a minute after being in London
    refused(
        "implausible_movement",
        start,
        challenge,
        paris,
        player_id=player,
        lat=48.8556,
        lon=2.2986,
        acquired_at=clock.now(),
    )


def test_a_claim_older_than_the_last_accepted_is_refused(challenge, published_event, clock):
    player = uuid.uuid4()
    start(challenge, published_event(), player_id=player, acquired_at=NOW)
    refused(
        "location_out_of_order",
        start,
        challenge,
        published_event(),
        player_id=player,
        acquired_at=NOW - timedelta(seconds=5),
    )


def test_closed_not_yet_open_and_unknown_events_are_refused(challenge, published_event):
    refused(
        "event_not_available", start, challenge, published_event(starts=NOW + timedelta(seconds=1))
    )
    refused("event_not_available", start, challenge, published_event(ends=NOW))
    refused("event_not_found", start, challenge, uuid.uuid4())


@pytest.mark.parametrize(
    "bad",
    [
        {"lat": 91},
        {"lon": -181},
        {"lat": float("nan")},
        {"accuracy_m": -1},
    ],
)
def test_malformed_locations_are_refused_and_start_nothing(challenge, published_event, bad):
    event_id, player = published_event(), uuid.uuid4()
    with pytest.raises(InvalidInput):
        challenge.start_attempt(
            player_id=str(player), event_id=str(event_id), location={**location(), **bad}
        )
    assert start(challenge, event_id, player_id=player)["created"] is True


def test_a_missing_accuracy_is_refused(challenge, published_event):
    loc = location()
    del loc["accuracy_m"]
    with pytest.raises(InvalidInput):
        challenge.start_attempt(
            player_id=str(uuid.uuid4()), event_id=str(published_event()), location=loc
        )


# -- start and resume ----------------------------------------------------------------------


def test_starting_again_resumes_the_same_attempt_even_after_the_event_closed(
    challenge, published_event, clock
):
    event_id, player = published_event(ends=NOW + timedelta(minutes=1)), uuid.uuid4()
    first = start(challenge, event_id, player_id=player)
    clock.advance(seconds=61)
    again = start(challenge, event_id, player_id=player, acquired_at=clock.now())
    assert again["created"] is False
    assert again["attempt"]["questions"] == first["attempt"]["questions"]
    assert again["attempt"]["deadline"] == first["attempt"]["deadline"]


def test_fifty_concurrent_starts_create_one_attempt(challenge, published_event, settings):
    from nameko.standalone.rpc import ClusterRpcProxy

    event_id, player = published_event(), uuid.uuid4()

    def start_with_own_client(_):  # one client per green thread: a proxy is not shareable
        with ClusterRpcProxy(settings.nameko_config(), timeout=30) as own:
            return start(own.challenge, event_id, player_id=player)

    results = list(eventlet.GreenPool(50).imap(start_with_own_client, range(50)))
    assert sum(r["created"] for r in results) == 1
    assert len({r["attempt"]["id"] for r in results}) == 1
    assert claims_of(settings, player) == 1  # the winner's; the others resumed it


def claims_of(settings, player_id):
    engine = create_engine(settings.database_url_for("challenge"))
    with engine.connect() as conn:
        count = conn.execute(
            text("SELECT count(*) FROM location_claims WHERE player_id = :p"), {"p": player_id}
        ).scalar_one()
    engine.dispose()
    return count


@pytest.mark.parametrize(
    ("difficulties", "seconds"),
    [
        ((1, 1, 2, 2, 1), 90),  # average 1.4
        ((1, 2, 2, 1, 2), 120),  # 1.6
        ((3, 3, 2, 2, 2), 120),  # 2.4... within (1.5, 2.5]
        ((3, 3, 3, 2, 2), 150),  # 2.6
    ],
)
def test_the_time_limit_follows_the_average_difficulty(
    challenge, published_event, difficulties, seconds
):
    view = start(challenge, published_event(difficulties=difficulties))["attempt"]
    started = datetime.fromisoformat(view["startedAt"])
    assert datetime.fromisoformat(view["deadline"]) - started == timedelta(seconds=seconds)


def test_an_active_attempt_shows_no_key_correctness_or_score(challenge, published_event):
    view = start(challenge, published_event(with_ordering=True))["attempt"]
    text_of_view = str(view)
    for secret in ("correct", "key", "explanation", "score", "result", "Because"):
        assert secret not in text_of_view


# -- answers ---------------------------------------------------------------------------


def right_choice(view, index):
    return next(o["id"] for o in view["questions"][index]["options"] if o["text"] == "right")


def test_an_answer_a_millisecond_before_the_deadline_counts_and_at_it_is_late(
    challenge, published_event, clock
):
    player = uuid.uuid4()
    view = start(challenge, published_event(), player_id=player)["attempt"]
    deadline = datetime.fromisoformat(view["deadline"])
    ref = {"player_id": str(player), "attempt_id": view["id"]}
    clock.set(deadline - timedelta(milliseconds=1))
    challenge.answer(**ref, index=0, submission={"choice": right_choice(view, 0)})
    clock.set(deadline)
    refused(
        "deadline_passed",
        challenge.answer,
        **ref,
        index=1,
        submission={"choice": right_choice(view, 1)},
    )
    done = challenge.get_attempt(**ref)
    assert done["status"] == "completed"
    assert done["result"]["score"] == 1
    assert [e["correct"] for e in done["result"]["review"]] == [True] + [False] * 4
    assert done["result"]["review"][1]["yourAnswer"] is None


def test_answers_are_locked_repeats_are_idempotent(challenge, published_event):
    player = uuid.uuid4()
    view = start(challenge, published_event(), player_id=player)["attempt"]
    ref = {"player_id": str(player), "attempt_id": view["id"]}
    choice = view["questions"][0]["options"][0]["id"]
    first = challenge.answer(**ref, index=0, submission={"choice": choice})
    assert challenge.answer(**ref, index=0, submission={"choice": choice}) == first
    other = view["questions"][0]["options"][1]["id"]
    refused("answer_locked", challenge.answer, **ref, index=0, submission={"choice": other})


def test_five_answers_complete_the_attempt_with_a_review(challenge, published_event):
    player = uuid.uuid4()
    view = start(challenge, published_event(with_ordering=True), player_id=player)["attempt"]
    ref = {"player_id": str(player), "attempt_id": view["id"]}
    for q in view["questions"]:
        if q["kind"] == "ordering_question":
            by_text = {o["text"]: o["id"] for o in q["options"]}
            submission = {"order": [by_text[t] for t in ("ant", "dog", "cow", "whale")]}
        else:
            submission = {"choice": right_choice(view, q["index"])}
        last = challenge.answer(**ref, index=q["index"], submission=submission)
    assert last["status"] == "completed"
    assert last["result"]["score"] == 5
    for entry, q in zip(last["result"]["review"], view["questions"], strict=True):
        assert ("explanation" in entry) == (q["kind"] == "ordering_question")


def test_bad_answers_are_refused_and_change_nothing(challenge, published_event):
    player = uuid.uuid4()
    view = start(challenge, published_event(with_ordering=True), player_id=player)["attempt"]
    ref = {"player_id": str(player), "attempt_id": view["id"]}
    mc = next(q for q in view["questions"] if q["kind"] == "question")
    ordq = next(q for q in view["questions"] if q["kind"] == "ordering_question")
    ids = [o["id"] for o in ordq["options"]]
    refused("question_not_in_attempt", challenge.answer, **ref, index=5, submission={})
    refused(
        "unknown_option",
        challenge.answer,
        **ref,
        index=mc["index"],
        submission={"choice": "o00000000"},
    )
    refused(
        "invalid_order", challenge.answer, **ref, index=ordq["index"], submission={"order": ids[:3]}
    )
    refused(
        "invalid_order",
        challenge.answer,
        **ref,
        index=ordq["index"],
        submission={"order": [ids[0]] * 4},
    )
    assert all(q["answer"] is None for q in challenge.get_attempt(**ref)["questions"])


def test_another_players_attempt_is_not_found(challenge, published_event):
    view = start(challenge, published_event())["attempt"]
    refused(
        "attempt_not_found",
        challenge.get_attempt,
        player_id=str(uuid.uuid4()),
        attempt_id=view["id"],
    )


def test_the_sweeper_completes_an_abandoned_attempt_without_any_request(
    challenge, published_event, clock, settings
):
    player = uuid.uuid4()
    view = start(challenge, published_event(), player_id=player)["attempt"]
    clock.set(datetime.fromisoformat(view["deadline"]) + timedelta(seconds=1))
    engine = create_engine(settings.database_url_for("challenge"))

    def status():
        with engine.connect() as conn:
            return conn.execute(
                text("SELECT status FROM attempts WHERE id = :id"), {"id": view["id"]}
            ).scalar_one()

    with eventlet.Timeout(20):  # the sweeper runs every 5 s; bound the wait, assert no speed
        while status() != "completed":
            eventlet.sleep(0.2)
    engine.dispose()
    assert completions_of(settings, view["id"]) == 1


def test_completion_is_recorded_once_however_often_the_result_is_read(
    challenge, published_event, clock, settings
):
    player = uuid.uuid4()
    view = start(challenge, published_event(), player_id=player)["attempt"]
    ref = {"player_id": str(player), "attempt_id": view["id"]}
    for q in view["questions"]:
        challenge.answer(
            **ref, index=q["index"], submission={"choice": right_choice(view, q["index"])}
        )
    clock.advance(seconds=600)  # long past the deadline: reading must not complete it again
    results = [challenge.get_attempt(**ref)["result"] for _ in range(3)]
    assert all(r == results[0] for r in results) and results[0]["score"] == 5
    engine = create_engine(settings.database_url_for("challenge"))
    engine.dispose()
    assert completions_of(settings, view["id"]) == 1

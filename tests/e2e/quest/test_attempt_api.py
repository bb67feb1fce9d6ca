"""A player finds an event, starts the challenge, answers, and reads the result - via HTTP."""

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from tests.e2e.accounts.test_me import assert_problem
from tests.helpers import wait_for
from tests.integration.authoring.test_lifecycle import power_card_body, question_body
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

SPOT = {"lat": 40.7740, "lon": -73.9712}  # Bethesda Terrace, Central Park


@pytest.fixture
def authors(api):
    return author_pair(api)


def author_pair(api):
    """Two authors (one writes, the other reviews): ``call(method, path, who=0, ...)``."""
    tokens = [api.token(random_sub("author"), roles=["author"]) for _ in range(2)]

    def call(method, path, who=0, **kwargs):
        headers = {"Authorization": f"Bearer {tokens[who]}"}
        response = api.request(method, path, headers=headers, **kwargs)
        assert response.ok, response.text
        return response.json()

    return call


def publish(authors, kind, body):
    item = authors("POST", "/authoring/content", json={"kind": kind, "game": "quest", "body": body})
    path = f"/authoring/content/{item['id']}/transitions"
    for to, who, version in (("in_review", 0, 1), ("approved", 1, 2), ("published", 0, 3)):
        item = authors("POST", path, who=who, json={"to": to, "expectedVersion": version})
    return item


def publish_open_event(api, authors, question_ids, name):
    """A challenge of these questions and an event at SPOT, open from a minute ago for a
    day, published; returned once the nearby list shows it."""
    challenge = publish(authors, "challenge", {"title": name, "questionIds": question_ids})
    reward = publish(authors, "power_card", power_card_body())
    now = datetime.now(UTC)
    event = publish(
        authors,
        "event",
        {
            "name": f"{name} {uuid.uuid4().hex[:6]}",
            "location": SPOT,
            "radiusM": 120,
            "startsAt": (now - timedelta(minutes=1)).isoformat(),
            "endsAt": (now + timedelta(days=1)).isoformat(),
            "challengeId": challenge["id"],
            "rewardDefinitionId": reward["id"],
        },
    )
    wait_for(
        lambda: any(
            e["id"] == event["id"]
            for e in api.get(f"/quest/events?lat={SPOT['lat']}&lon={SPOT['lon']}").json()["items"]
        )
    )
    return event


@pytest.fixture
def event_id(api, authors):
    questions = [publish(authors, "question", question_body(n)) for n in range(5)]
    return publish_open_event(api, authors, [q["id"] for q in questions], "Bethesda")["id"]


def claim(**overrides):
    return {
        "location": {
            **SPOT,
            "accuracyM": 15,
            "acquiredAt": datetime.now(UTC).isoformat(),
            **overrides,
        }
    }


def test_a_player_plays_an_event_challenge_from_start_to_result(api, event_id):
    token = api.token(random_sub())
    h = {"Authorization": f"Bearer {token}"}
    nearby = api.get(f"/quest/events?lat={SPOT['lat']}&lon={SPOT['lon']}").json()["items"]
    assert "Red Planet" not in json.dumps(nearby) and "choices" not in json.dumps(nearby)

    started = api.request("POST", f"/quest/events/{event_id}/attempt", headers=h, json=claim())
    assert started.status_code == 201, started.text
    attempt = started.json()
    resumed = api.request("POST", f"/quest/events/{event_id}/attempt", headers=h, json=claim())
    assert resumed.status_code == 200 and resumed.json()["id"] == attempt["id"]

    seen = [started.text, resumed.text]
    for q in attempt["questions"]:
        right = next(o["id"] for o in q["options"] if o["text"] == "Mars")
        answered = api.request(
            "PUT",
            f"/quest/attempts/{attempt['id']}/answers/{q['index']}",
            headers=h,
            json={"choice": right},
        )
        assert answered.ok, answered.text
        seen.append(answered.text)
        seen.append(api.get(f"/quest/attempts/{attempt['id']}", token=token).text)
    for text in seen[:-2]:  # everything before the last answer completed the attempt
        assert '"correct"' not in text and "explanation" not in text and "score" not in text
    result = json.loads(seen[-1])["result"]
    assert result["score"] == 5
    assert all(entry["correct"] for entry in result["review"])
    assert all("explanation" not in entry for entry in result["review"])  # multiple choice

    # The cards service rolls the reward once (RewardGranted); the result then shows it.
    def granted():
        reward = api.get(f"/quest/attempts/{attempt['id']}", token=token).json()["result"]
        return reward["reward"] if reward["reward"]["status"] == "granted" else None

    reward = wait_for(granted)
    assert 1 <= len(reward["cards"]) <= 2  # five correct: one card, or two
    collection = api.request("GET", "/quest/collection", headers=h).json()
    owned = {copy["id"] for group in collection["definitions"] for copy in group["copies"]}
    assert {card["ownedCardId"] for card in reward["cards"]} == owned
    assert wait_for(granted) == reward  # read again: the same cards, never a reroll

    # accounts applies the same completion: 10 points per correct answer.
    wait_for(lambda: api.request("GET", "/me", headers=h).json()["points"] == 50)
    history = api.request("GET", "/me/progression", headers=h).json()
    assert [(e["sourceId"], e["points"]) for e in history["entries"]] == [(attempt["id"], 50)]


def test_another_players_attempt_is_404_and_says_nothing(api, event_id):
    owner = {"Authorization": f"Bearer {api.token(random_sub())}"}
    attempt = api.request(
        "POST", f"/quest/events/{event_id}/attempt", headers=owner, json=claim()
    ).json()
    intruder = api.token(random_sub())
    response = api.get(f"/quest/attempts/{attempt['id']}", token=intruder)
    assert_problem(response, 404, "attempt_not_found")
    assert "Mars" not in response.text
    put = api.request(
        "PUT",
        f"/quest/attempts/{attempt['id']}/answers/0",
        headers={"Authorization": f"Bearer {intruder}"},
        json={"choice": "x"},
    )
    assert_problem(put, 404, "attempt_not_found")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (claim(lat=95), "validation_failed"),
        (claim(lat="north"), "validation_failed"),
        ({"location": {**SPOT, "acquiredAt": datetime.now(UTC).isoformat()}}, "validation_failed"),
        (claim(accuracy_m=-3), "validation_failed"),
        ({}, "validation_failed"),
    ],
)
def test_bad_claims_are_422_and_start_nothing(api, event_id, body, code):
    token = api.token(random_sub())
    h = {"Authorization": f"Bearer {token}"}
    assert_problem(
        api.request("POST", f"/quest/events/{event_id}/attempt", headers=h, json=body), 422, code
    )
    assert (
        api.request(
            "POST", f"/quest/events/{event_id}/attempt", headers=h, json=claim()
        ).status_code
        == 201
    )


def test_a_far_away_claim_is_refused_with_its_reason(api, event_id):
    h = {"Authorization": f"Bearer {api.token(random_sub())}"}
    far = api.request(
        "POST",
        f"/quest/events/{event_id}/attempt",
        headers=h,
        json=claim(lat=40.7829, lon=-73.9654),
    )
    assert_problem(far, 409, "outside_event_area")


def test_an_unknown_event_is_404(api):
    h = {"Authorization": f"Bearer {api.token(random_sub())}"}
    assert_problem(
        api.request("POST", f"/quest/events/{uuid.uuid4()}/attempt", headers=h, json=claim()),
        404,
        "event_not_found",
    )


def test_starting_needs_a_token(api):
    assert_problem(
        api.request("POST", f"/quest/events/{uuid.uuid4()}/attempt", json=claim()),
        401,
        "missing_token",
    )


def test_a_locked_account_cannot_start_an_attempt(unleased_api, event_id, settings):
    api = unleased_api
    import sqlalchemy as sa

    from services.accounts.orm import players

    sub = random_sub()
    token = api.token(sub)
    assert api.me(sub).status_code == 200
    engine = sa.create_engine(settings.database_url_for("accounts"))
    with engine.begin() as conn:
        conn.execute(sa.update(players).where(players.c.auth0_sub == sub).values(status="locked"))
    engine.dispose()
    response = api.request(
        "POST",
        f"/quest/events/{event_id}/attempt",
        headers={"Authorization": f"Bearer {token}"},
        json=claim(),
    )
    assert_problem(response, 403, "account_locked")


@pytest.mark.parametrize(
    "query", ["", "?lat=51.5", "?lat=abc&lon=1", "?lat=91&lon=0", "?lat=nan&lon=0"]
)
def test_nearby_events_need_a_valid_point(api, query):
    assert_problem(api.get(f"/quest/events{query}"), 422, "validation_failed")


@pytest.mark.parametrize("query", ["", "?game=chess"])
def test_the_catalogue_needs_a_known_game(api, query):
    assert_problem(api.get(f"/cards/catalogue{query}"), 422, "validation_failed")


def test_a_player_lists_their_attempts_newest_first_a_page_at_a_time(api, event_id):
    others = author_pair(api)  # the first pair's writes used most of their rate budget
    questions = [publish(others, "question", question_body(n))["id"] for n in range(5)]
    second = publish_open_event(api, others, questions, "Bethesda again")["id"]
    token = api.token(random_sub())
    h = {"Authorization": f"Bearer {token}"}
    started = []
    for event in (event_id, second):
        answer = api.request("POST", f"/quest/events/{event}/attempt", headers=h, json=claim())
        assert answer.status_code == 201, answer.text
        started.append(answer.json()["id"])

    first = api.get("/quest/attempts?limit=1", token=token).json()
    assert [item["id"] for item in first["items"]] == [started[1]]
    assert first["items"][0]["eventId"] == second and first["items"][0]["status"] == "active"
    assert first["next"]
    rest = api.get(f"/quest/attempts?limit=1&cursor={first['next']}", token=token).json()
    assert ([item["id"] for item in rest["items"]], rest["next"]) == ([started[0]], None)
    whole = api.get("/v1/quest/attempts", token=token).json()  # the versioned path
    assert [item["id"] for item in whole["items"]] == started[::-1] and whole["next"] is None
    assert "Mars" not in json.dumps(whole) and "questions" not in json.dumps(whole)

    stranger = api.get("/quest/attempts", token=api.token(random_sub())).json()
    assert stranger == {"items": [], "next": None}
    for query, code in (("cursor=12.zz", "invalid_cursor"), ("limit=0", "validation_failed"),
                        ("limit=101", "validation_failed")):  # fmt: skip
        assert_problem(api.get(f"/quest/attempts?{query}", token=token), 422, code)

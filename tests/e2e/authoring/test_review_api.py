"""Review at volume and the editor's forms through the gateway (issue 30): the review
queue, a batch approval item by item with its Idempotency-Key, and each kind's form,
whose field names are the ones a refusal's messages are keyed by."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.authoring.test_api import author, reviewer  # noqa: F401 (fixtures)
from tests.integration.authoring.test_lifecycle import creature_body, question_body
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e
QUEUE = "/authoring/review-queue"
APPROVALS = QUEUE + "/approvals"


def submitted(call, n=0):
    """A ready question drafted and submitted for review by ``call``'s Author."""
    created = call(
        "POST",
        "/authoring/content",
        json={"kind": "question", "game": "quest", "body": question_body(n)},
    )
    assert created.status_code == 201, created.text
    path = f"/authoring/content/{created.json()['id']}/transitions"
    moved = call("POST", path, json={"to": "in_review", "expectedVersion": 1})
    assert moved.status_code == 200, moved.text
    return moved.json()


def whole_queue(call, limit):
    found, cursor = [], None
    while True:
        query = f"?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        page = call("GET", QUEUE + query)
        assert page.status_code == 200, page.text
        found.extend(page.json()["items"])
        cursor = page.json()["next"]
        if cursor is None:
            return found


def items(*contents):
    return [{"id": c["id"], "expectedVersion": c["version"]} for c in contents]


def test_a_second_author_reads_the_queue_and_approves_a_batch_once(author, reviewer):  # noqa: F811
    first, second = submitted(author, 1), submitted(author, 2)
    own = submitted(reviewer, 3)
    queued = [c["id"] for c in whole_queue(reviewer, limit=1)]
    assert [i for i in queued if i in {first["id"], second["id"], own["id"]}] == [
        first["id"],
        second["id"],
    ]
    assert own["id"] in {c["id"] for c in whole_queue(author, limit=100)}

    key = {"Idempotency-Key": f"review-{uuid.uuid4().hex}"}
    batch = {"items": items(first, own, second)}
    answered = reviewer("POST", APPROVALS, json=batch, headers=key)
    assert answered.status_code == 200, answered.text
    body = answered.json()
    assert (body["approved"], body["refused"], body["next"]) == (2, 1, None)
    assert [o["outcome"] for o in body["items"]] == ["approved", "refused", "approved"]
    assert body["items"][0] == {
        "id": first["id"],
        "outcome": "approved",
        "state": "approved",
        "version": 3,
    }
    refused = body["items"][1]["problem"]
    assert (refused["status"], refused["code"]) == (403, "own_submission") and refused["detail"]

    again = reviewer("POST", APPROVALS, json=batch, headers=key)
    assert again.json() == body  # the first answer, nothing approved twice
    audit = reviewer("GET", f"/authoring/content/{first['id']}/audit").json()["items"]
    assert [e["to"] for e in audit].count("approved") == 1
    unkeyed = reviewer("POST", APPROVALS, json={"items": items(first)}).json()
    assert unkeyed["items"][0]["problem"]["code"] == "not_in_review"
    assert unkeyed["items"][0]["problem"]["state"] == "approved"

    stale = submitted(author, 4)
    reused = reviewer(
        "POST",
        APPROVALS,
        json={"items": [{"id": stale["id"], "expectedVersion": 1}]},
        headers=key,
    )
    assert_problem(reused, 422, "idempotency_key_reused")
    late = reviewer("POST", APPROVALS, json={"items": [{"id": stale["id"], "expectedVersion": 1}]})
    problem = late.json()["items"][0]["problem"]
    assert (problem["code"], problem["currentVersion"]) == ("stale_version", 2)


@pytest.mark.parametrize(
    ("batch", "headers", "code"),
    [
        ({"items": []}, {}, "validation_failed"),
        ({"items": [{"id": str(uuid.uuid4()), "expectedVersion": 1}] * 2}, {}, "validation_failed"),
        (
            {"items": [{"id": str(uuid.uuid4()), "expectedVersion": 1} for _ in range(101)]},
            {},
            "validation_failed",
        ),
        ({"items": [{"id": str(uuid.uuid4()), "expected_version": 1}]}, {}, "validation_failed"),
        (
            {"items": [{"id": str(uuid.uuid4()), "expectedVersion": 1}]},
            {"Idempotency-Key": "a b"},
            "invalid_idempotency_key",
        ),
    ],
)
def test_a_malformed_batch_is_refused_whole(author, batch, headers, code):  # noqa: F811
    assert_problem(author("POST", APPROVALS, json=batch, headers=headers), 422, code)


def test_a_player_cannot_read_the_queue_approve_or_read_the_forms(api):
    headers = {"Authorization": f"Bearer {api.token(random_sub())}"}
    for method, path, body in (
        ("GET", QUEUE, None),
        ("POST", APPROVALS, {"items": [{"id": str(uuid.uuid4()), "expectedVersion": 1}]}),
        ("GET", "/authoring/forms", None),
    ):
        assert_problem(
            api.request(method, path, headers=headers, json=body), 403, "author_role_required"
        )


def test_each_kinds_form_names_the_fields_a_refusal_is_keyed_by(author):  # noqa: F811
    forms = author("GET", "/authoring/forms")
    assert forms.status_code == 200, forms.text
    assert forms.json()["next"] is None
    by_kind = {(f["game"], f["kind"]): f["fields"] for f in forms.json()["items"]}
    assert {("quest", "creature"), ("terrakard", "card"), ("chronovore", "monster")} <= set(by_kind)
    creature = {f["name"]: f for f in by_kind[("quest", "creature")]}
    assert creature["maxPower"]["type"] == "integer" and creature["maxPower"]["required"]
    assert creature["affinity"]["choices"] == ["Wit", "Grit", "Spark", "Spirit", "Mystic"]
    assert [f["name"] for f in creature["moves"]["item"]["fields"]][:3] == [
        "name",
        "type",
        "powerCost",
    ]

    body = {**creature_body(), "hp": 0, "affinity": "Fire"}
    body = {("maxPower" if k == "max_power" else k): v for k, v in body.items()}
    body["moves"] = [{"name": "Jab", "type": "Basic", "powerCost": 99}]
    refused = author(
        "POST", "/authoring/content", json={"kind": "creature", "game": "quest", "body": body}
    )
    problem = assert_problem(refused, 422, "invalid_content")
    assert {"hp", "affinity", "moves"} <= set(problem["fields"]) <= set(creature)
    assert set(problem["fields"]["moves"]["0"]) == {"powerCost"}

"""The authoring routes through the gateway: Authors only, clear errors, nothing leaked."""

import uuid

import pytest

from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.quest import test_cards_api as cards_api
from tests.integration.authoring.test_lifecycle import question_body
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e
starters = cards_api.starters  # the published seed catalogue (fixture)


@pytest.fixture
def author(api):
    token = api.token(random_sub("author"), roles=["author"])

    def call(method, path, token=token, headers=None, **kwargs):
        headers = {**(headers or {}), "Authorization": f"Bearer {token}"}
        return api.request(method, path, headers=headers, **kwargs)

    return call


@pytest.fixture
def reviewer(api, author):
    token = api.token(random_sub("reviewer"), roles=["author"])
    return lambda method, path, **kwargs: author(method, path, token=token, **kwargs)


def test_an_author_drafts_submits_and_another_author_approves_and_publishes(author, reviewer):
    created = author(
        "POST",
        "/authoring/content",
        json={"kind": "question", "game": "quest", "body": question_body()},
    )
    assert created.status_code == 201, created.text
    draft = created.json()
    assert draft["state"] == "draft" and draft["version"] == 1
    assert draft["body"]["choices"][0]["correct"] is True  # Authors see the answer key

    path = f"/authoring/content/{draft['id']}"
    submitted = author(
        "POST", path + "/transitions", json={"to": "in_review", "expectedVersion": 1}
    )
    assert submitted.status_code == 200, submitted.text
    own = author("POST", path + "/transitions", json={"to": "approved", "expectedVersion": 2})
    assert_problem(own, 403, "own_submission")
    approved = reviewer(
        "POST", path + "/transitions", json={"to": "approved", "expectedVersion": 2}
    )
    assert approved.json()["state"] == "approved"
    published = author(
        "POST", path + "/transitions", json={"to": "published", "expectedVersion": 3}
    )
    assert published.json()["state"] == "published"
    audit = author("GET", path + "/audit").json()
    assert audit["next"] is None  # one content's trail comes whole
    assert [e["to"] for e in audit["items"]] == ["draft", "in_review", "approved", "published"]
    assert author("GET", path).json()["version"] == 4


def test_a_player_is_forbidden_and_learns_nothing(api, author):
    draft = author(
        "POST",
        "/authoring/content",
        json={"kind": "question", "game": "quest", "body": question_body()},
    ).json()
    player = api.token(random_sub())
    headers = {"Authorization": f"Bearer {player}"}
    for method, path, body in (
        ("GET", f"/authoring/content/{draft['id']}", None),
        ("GET", f"/authoring/content/{uuid.uuid4()}", None),
        ("GET", "/authoring/content", None),
        ("POST", "/authoring/content", {"kind": "question", "game": "quest", "body": {}}),
        ("PUT", f"/authoring/content/{draft['id']}", {"expectedVersion": 1, "body": {}}),
        (
            "POST",
            f"/authoring/content/{draft['id']}/transitions",
            {"to": "in_review", "expectedVersion": 1},
        ),
        ("GET", f"/authoring/content/{draft['id']}/audit", None),
    ):
        response = api.request(method, path, headers=headers, json=body)
        problem = assert_problem(response, 403, "author_role_required")
        assert "Red Planet" not in response.text and "answer" not in problem["detail"]


def test_without_a_token_authoring_is_401(api):
    assert_problem(api.get("/authoring/content"), 401, "missing_token")


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"kind": "question", "game": "quest"}, 422, "validation_failed"),
        ({"kind": "question", "game": "quest", "body": "text"}, 422, "validation_failed"),
        ({"kind": 7, "game": "quest", "body": {}}, 422, "validation_failed"),
        ({"kind": "spell", "game": "quest", "body": {}}, 422, "unknown_kind"),
        (
            {"kind": "question", "game": "quest", "body": {**question_body(), "difficulty": 0}},
            422,
            "invalid_content",
        ),
        (
            {"kind": "question", "game": "quest", "body": {**question_body(), "difficulty": 4}},
            422,
            "invalid_content",
        ),
        ([1, 2, 3], 422, "invalid_body"),
    ],
)
def test_bad_bodies_get_a_clear_problem_and_create_nothing(author, payload, status, code):
    # Newest first: anything created would be the head of the list.
    before = author("GET", "/authoring/content?limit=1").json()["items"]
    assert_problem(author("POST", "/authoring/content", json=payload), status, code)
    assert author("GET", "/authoring/content?limit=1").json()["items"] == before


def test_malformed_json_and_wrong_media_type_are_400(author):
    as_text = author("POST", "/authoring/content", data=b"{}")
    assert_problem(as_text, 400, "unsupported_media_type")
    broken = author(
        "POST", "/authoring/content", data=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert_problem(broken, 400, "malformed_json")


def test_a_ten_megabyte_body_is_413(author):
    huge = b'{"kind": "question", "game": "quest", "body": {"prompt": "' + b"x" * 10_000_000
    response = author("POST", "/authoring/content", data=huge + b'"}}')
    assert_problem(response, 413, "payload_too_large")


def test_a_stale_edit_is_409_and_changes_nothing(author):
    draft = author(
        "POST",
        "/authoring/content",
        json={"kind": "question", "game": "quest", "body": question_body()},
    ).json()
    path = f"/authoring/content/{draft['id']}"
    assert author("PUT", path, json={"expectedVersion": 1, "body": question_body()}).ok
    stale = author("PUT", path, json={"expectedVersion": 1, "body": question_body()})
    body = assert_problem(stale, 409, "stale_version")
    assert body["currentVersion"] == 2
    assert author("GET", path).json()["version"] == 2


def test_unknown_content_is_404_for_an_author(author):
    assert_problem(author("GET", f"/authoring/content/{uuid.uuid4()}"), 404, "content_not_found")


def test_retiring_a_card_the_cpu_deck_needs_is_a_409_naming_the_cpu_deck(api, author, starters):
    """Issue 13: the seeded Karrik is in the CPU deck; without a replacement it stays."""
    karrik = next(
        d for d in api.get("/cards/catalogue?game=quest").json()["items"] if d["name"] == "Karrik"
    )
    path = f"/authoring/content/{karrik['id']}"
    version = author("GET", path).json()["version"]
    refused = author(
        "POST", path + "/transitions", json={"to": "retired", "expectedVersion": version}
    )
    body = assert_problem(refused, 409, "card_in_use")
    assert body["dependents"] == ["CPU deck"]
    assert author("GET", path).json()["state"] == "published"

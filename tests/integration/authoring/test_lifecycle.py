"""The content lifecycle on the real authoring service (PostgreSQL, RabbitMQ)."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from shared.errors import Conflict, Forbidden, InvalidInput, NotFound
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

ALICE, BOB = "auth0|author-alice", "auth0|author-bob"


@pytest.fixture
def authoring(start_service, rpc):
    start_service("authoring")
    return rpc.authoring


def every(authoring, **filters):
    """Every listed content, page after page."""
    found, cursor = [], None
    while True:
        page = authoring.list(**filters, cursor=cursor, limit=100)
        found.extend(page["items"])
        cursor = page["next"]
        if cursor is None:
            return found


def question_body(n=0):
    return {
        "prompt": f"Which planet is known as the Red Planet? ({random_suffix()} {n})",
        "topic": "space",
        "choices": [
            {"text": "Mars", "correct": True},
            {"text": "Venus"},
            {"text": "Jupiter"},
            {"text": "Mercury"},
        ],
        "difficulty": 1,
        "explanation": "Iron oxide on its surface makes Mars look red.",
    }


def creature_body(name=None, **overrides):
    move = {
        "name": "Jab",
        "type": "Basic",
        "power_cost": 1,
        "effects": [{"type": "damage", "amount": 10}],
    }
    body = {
        "name": name or f"Testling {random_suffix()}",
        "rarity": "Common",
        "affinity": "Wit",
        "hp": 60,
        "max_power": 10,
        "moves": [move] * 4,
    }
    body.update(overrides)
    return body


def power_card_body(name=None, **overrides):
    body = {
        "name": name or f"Kit {random_suffix()}",
        "rarity": "Common",
        "effects": [{"type": "heal", "amount": 10}],
    }
    body.update(overrides)
    return body


def publish(authoring, content, author=ALICE, reviewer=BOB):
    c = authoring.transition(
        actor=author, content_id=content["id"], to="in_review", expected_version=content["version"]
    )
    c = authoring.transition(
        actor=reviewer, content_id=c["id"], to="approved", expected_version=c["version"]
    )
    return authoring.transition(
        actor=author, content_id=c["id"], to="published", expected_version=c["version"]
    )


def published(authoring, kind, body):
    return publish(authoring, authoring.create(actor=ALICE, kind=kind, game="quest", body=body))


def published_challenge(authoring, questions=5):
    ids = [published(authoring, "question", question_body(i))["id"] for i in range(questions)]
    return published(authoring, "challenge", {"title": "Space", "question_ids": ids})


def event_body(challenge_id, reward_id):
    now = datetime.now(UTC)
    return {
        "name": f"Event {random_suffix()}",
        "location": {"lat": 51.5007, "lon": -0.1246},
        "radius_m": 100,
        "starts_at": now.isoformat(),
        "ends_at": (now + timedelta(days=365)).isoformat(),
        "challenge_id": challenge_id,
        "reward_definition_id": reward_id,
    }


def test_a_question_goes_through_every_state_with_an_audit_entry_each(authoring):
    draft = authoring.create(actor=ALICE, kind="question", game="quest", body=question_body())
    assert (draft["state"], draft["version"]) == ("draft", 1)
    edited = authoring.edit(
        actor=ALICE,
        content_id=draft["id"],
        expected_version=1,
        body={**question_body(), "difficulty": 2},
    )
    assert (edited["version"], edited["body"]["difficulty"]) == (2, 2)
    done = publish(authoring, edited)
    retired = authoring.transition(
        actor=BOB, content_id=done["id"], to="retired", expected_version=done["version"]
    )
    assert retired["state"] == "retired"
    trail = authoring.audit(content_id=draft["id"])
    assert [(e["action"], e["from"], e["to"], e["version"]) for e in trail] == [
        ("create", None, "draft", 1),
        ("edit", "draft", "draft", 2),
        ("transition", "draft", "in_review", 3),
        ("transition", "in_review", "approved", 4),
        ("transition", "approved", "published", 5),
        ("transition", "published", "retired", 6),
    ]
    assert [e["actor"] for e in trail] == [ALICE, ALICE, ALICE, BOB, ALICE, BOB]


def test_the_submitter_cannot_approve_or_return_their_own_submission(authoring):
    draft = authoring.create(actor=ALICE, kind="question", game="quest", body=question_body())
    submitted = authoring.transition(
        actor=ALICE, content_id=draft["id"], to="in_review", expected_version=1
    )
    for to, reason in (("approved", None), ("draft", "typo")):
        with pytest.raises(Forbidden) as caught:
            authoring.transition(
                actor=ALICE,
                content_id=draft["id"],
                to=to,
                expected_version=submitted["version"],
                reason=reason,
            )
        assert caught.value.code == "own_submission"
    assert authoring.get(content_id=draft["id"])["state"] == "in_review"


def test_returning_to_draft_needs_a_non_blank_reason(authoring):
    draft = authoring.create(actor=ALICE, kind="question", game="quest", body=question_body())
    submitted = authoring.transition(
        actor=ALICE, content_id=draft["id"], to="in_review", expected_version=1
    )
    with pytest.raises(InvalidInput) as caught:
        authoring.transition(
            actor=BOB,
            content_id=draft["id"],
            to="draft",
            expected_version=submitted["version"],
            reason="   ",
        )
    assert caught.value.code == "reason_required"
    returned = authoring.transition(
        actor=BOB,
        content_id=draft["id"],
        to="draft",
        expected_version=submitted["version"],
        reason="Fix choice 3",
    )
    assert returned["state"] == "draft"
    assert authoring.audit(content_id=draft["id"])[-1]["reason"] == "Fix choice 3"


def test_a_stale_version_is_refused_and_changes_nothing(authoring):
    draft = authoring.create(actor=ALICE, kind="question", game="quest", body=question_body())
    authoring.edit(actor=ALICE, content_id=draft["id"], expected_version=1, body=question_body())
    with pytest.raises(Conflict) as caught:
        authoring.edit(
            actor=BOB,
            content_id=draft["id"],
            expected_version=1,
            body={**question_body(), "difficulty": 3},
        )
    assert caught.value.code == "stale_version"
    assert caught.value.details == {"currentVersion": 2}
    with pytest.raises(Conflict):
        authoring.transition(
            actor=ALICE, content_id=draft["id"], to="in_review", expected_version=1
        )
    current = authoring.get(content_id=draft["id"])
    assert (current["version"], current["state"], current["body"]["difficulty"]) == (2, "draft", 1)
    assert len(authoring.audit(content_id=draft["id"])) == 2


def test_only_drafts_can_be_edited(authoring):
    done = published(authoring, "question", question_body())
    with pytest.raises(Conflict) as caught:
        authoring.edit(
            actor=ALICE,
            content_id=done["id"],
            expected_version=done["version"],
            body=question_body(),
        )
    assert caught.value.code == "not_a_draft"


def test_retired_content_cannot_be_republished(authoring):
    done = published(authoring, "question", question_body())
    retired = authoring.transition(
        actor=ALICE, content_id=done["id"], to="retired", expected_version=done["version"]
    )
    for to in ("published", "approved", "draft", "in_review"):
        with pytest.raises(Conflict) as caught:
            authoring.transition(
                actor=BOB, content_id=done["id"], to=to, expected_version=retired["version"]
            )
        assert caught.value.code == "retired_is_final"


def test_steps_can_not_be_skipped(authoring):
    draft = authoring.create(actor=ALICE, kind="question", game="quest", body=question_body())
    with pytest.raises(Conflict) as caught:
        authoring.transition(actor=BOB, content_id=draft["id"], to="published", expected_version=1)
    assert caught.value.code == "transition_not_allowed"


def test_an_incomplete_question_is_refused_at_submission_with_the_reasons(authoring):
    body = {**question_body(), "explanation": " ", "choices": question_body()["choices"][:3]}
    draft = authoring.create(actor=ALICE, kind="question", game="quest", body=body)
    with pytest.raises(Conflict) as caught:
        authoring.transition(
            actor=ALICE, content_id=draft["id"], to="in_review", expected_version=1
        )
    assert caught.value.code == "not_ready"
    assert len(caught.value.details["problems"]) == 2


@pytest.mark.parametrize(
    "body",
    [
        {**question_body(), "difficulty": 0},
        {**question_body(), "difficulty": 4},
        {**question_body(), "difficulty": "2"},
        {
            **question_body(),
            "choices": [
                {"text": "a", "correct": True},
                {"text": "b", "correct": True},
                {"text": "c"},
                {"text": "d"},
            ],
        },
        {**question_body(), "choices": [{"text": str(i)} for i in range(5)]},
        {"topic": "no prompt"},
        {**question_body(), "surprise": 1},
        "not an object",
    ],
)
def test_malformed_bodies_are_refused_and_create_nothing(authoring, body):
    # Newest first: anything created would be the head of the list.
    before = authoring.list(kind="question", limit=1)["items"]
    with pytest.raises(InvalidInput):
        authoring.create(actor=ALICE, kind="question", game="quest", body=body)
    assert authoring.list(kind="question", limit=1)["items"] == before


def test_an_unknown_kind_or_game_is_refused(authoring):
    for kind, game in (("spell", "quest"), ("question", "chess"), ("question", "terrakard")):
        with pytest.raises(InvalidInput) as caught:
            authoring.create(actor=ALICE, kind=kind, game=game, body={})
        assert caught.value.code == "unknown_kind"


def test_card_names_are_unique_ignoring_case_and_spaces_even_when_retired(authoring):
    name = f"Glimmer Toad {random_suffix()}"
    first = published(authoring, "creature", creature_body(name=name))
    authoring.transition(
        actor=BOB, content_id=first["id"], to="retired", expected_version=first["version"]
    )
    for clash in (name.upper(), f"  {name.lower()}  ", name.replace(" ", "   ")):
        with pytest.raises(Conflict) as caught:
            authoring.create(
                actor=BOB, kind="creature", game="quest", body=creature_body(name=clash)
            )
        assert caught.value.code == "duplicate_name"
    with pytest.raises(Conflict):
        authoring.create(
            actor=BOB, kind="power_card", game="quest", body=power_card_body(name=name)
        )


def test_a_creature_needs_exactly_four_executable_moves_before_review(authoring):
    body = creature_body(moves=creature_body()["moves"][:2])
    draft = authoring.create(actor=ALICE, kind="creature", game="quest", body=body)
    with pytest.raises(Conflict) as caught:
        authoring.transition(
            actor=ALICE, content_id=draft["id"], to="in_review", expected_version=1
        )
    assert caught.value.code == "not_ready"


def test_effects_outside_the_engine_vocabulary_are_refused(authoring):
    move = {
        "name": "Zap",
        "type": "Basic",
        "power_cost": 1,
        "effects": [{"type": "teleport", "amount": 3}],
    }
    with pytest.raises(InvalidInput) as caught:
        authoring.create(
            actor=ALICE, kind="creature", game="quest", body=creature_body(moves=[move])
        )
    assert caught.value.code == "unknown_effect"


def test_a_move_of_another_affinity_is_refused(authoring):
    move = {
        "name": "Spark",
        "type": "Spark",
        "power_cost": 1,
        "effects": [{"type": "damage", "amount": 3}],
    }
    with pytest.raises(InvalidInput):
        authoring.create(
            actor=ALICE, kind="creature", game="quest", body=creature_body(moves=[move])
        )


def test_a_challenge_needs_five_published_questions(authoring):
    ids = [published(authoring, "question", question_body(i))["id"] for i in range(4)]
    draft_question = authoring.create(
        actor=ALICE, kind="question", game="quest", body=question_body()
    )
    challenge = authoring.create(
        actor=ALICE,
        kind="challenge",
        game="quest",
        body={"title": "T", "question_ids": [*ids, draft_question["id"]]},
    )
    with pytest.raises(Conflict) as caught:
        authoring.transition(
            actor=ALICE, content_id=challenge["id"], to="in_review", expected_version=1
        )
    assert caught.value.code == "not_ready"
    publish(authoring, draft_question)
    assert publish(authoring, challenge)["state"] == "published"


def test_an_event_needs_a_published_challenge_and_a_published_common_reward(authoring):
    challenge = published_challenge(authoring)
    rare = published(authoring, "power_card", power_card_body(rarity="Rare"))
    event = authoring.create(
        actor=ALICE, kind="event", game="quest", body=event_body(challenge["id"], rare["id"])
    )
    with pytest.raises(Conflict) as caught:
        authoring.transition(
            actor=ALICE, content_id=event["id"], to="in_review", expected_version=1
        )
    assert "Common" in caught.value.message
    common = published(authoring, "power_card", power_card_body())
    fixed = authoring.edit(
        actor=ALICE,
        content_id=event["id"],
        expected_version=1,
        body=event_body(challenge["id"], common["id"]),
    )
    assert publish(authoring, fixed)["state"] == "published"


def test_a_challenge_cannot_be_retired_while_a_published_event_uses_it(authoring):
    challenge = published_challenge(authoring)
    reward = published(authoring, "power_card", power_card_body())
    event = published(authoring, "event", event_body(challenge["id"], reward["id"]))
    with pytest.raises(Conflict) as caught:
        authoring.transition(
            actor=BOB,
            content_id=challenge["id"],
            to="retired",
            expected_version=challenge["version"],
        )
    assert caught.value.code == "challenge_in_use"
    authoring.transition(
        actor=BOB, content_id=event["id"], to="retired", expected_version=event["version"]
    )
    retired = authoring.transition(
        actor=BOB, content_id=challenge["id"], to="retired", expected_version=challenge["version"]
    )
    assert retired["state"] == "retired"


def test_an_event_radius_above_the_bound_is_refused(authoring):
    body = {**event_body(str(uuid.uuid4()), str(uuid.uuid4())), "radius_m": 501}
    with pytest.raises(InvalidInput):
        authoring.create(actor=ALICE, kind="event", game="quest", body=body)


def test_a_replacement_may_keep_the_name_of_what_it_replaces(authoring):
    name = f"Mossback {random_suffix()}"
    original = published(authoring, "creature", creature_body(name=name))
    replacement = authoring.create(
        actor=BOB,
        kind="creature",
        game="quest",
        body=creature_body(name=name, hp=70),
        replaces=original["id"],
    )
    assert replacement["replaces"] == original["id"]
    assert replacement["lineageId"] == original["lineageId"]


def test_unknown_content_is_not_found(authoring):
    with pytest.raises(NotFound):
        authoring.get(content_id=str(uuid.uuid4()))


def grit_starter():
    return creature_body(affinity="Grit", starter=True)


def test_a_starter_creature_cannot_be_retired_while_its_affinity_needs_it(authoring):
    # Starter Creatures: at least three of an offered affinity stay published. Other
    # tests may have published Grit starters too, so retire down to exactly ours.
    ours = [published(authoring, "creature", grit_starter()) for _ in range(3)]
    keep = {c["id"] for c in ours}
    for card in every(authoring, kind="creature", state="published"):
        body = card["body"]
        if body["starter"] and body["affinity"] == "Grit" and card["id"] not in keep:
            authoring.transition(
                actor=BOB, content_id=card["id"], to="retired", expected_version=card["version"]
            )
    first = ours[0]
    with pytest.raises(Conflict) as caught:
        authoring.transition(
            actor=BOB, content_id=first["id"], to="retired", expected_version=first["version"]
        )
    assert caught.value.code == "card_in_use"
    assert caught.value.details == {"dependents": ["Grit starter set"]}
    published(authoring, "creature", grit_starter())
    retired = authoring.transition(
        actor=BOB, content_id=first["id"], to="retired", expected_version=first["version"]
    )
    assert retired["state"] == "retired"


def test_the_list_goes_page_by_page_newest_first_without_repeats_or_gaps(authoring):
    ours = [
        authoring.create(actor=ALICE, kind="question", game="quest", body=question_body(n))
        for n in range(5)
    ]
    first = authoring.list(kind="question", limit=2)
    assert [c["id"] for c in first["items"]] == [ours[4]["id"], ours[3]["id"]]
    second = authoring.list(kind="question", limit=2, cursor=first["next"])
    assert [c["id"] for c in second["items"]] == [ours[2]["id"], ours[1]["id"]]
    later = authoring.create(actor=ALICE, kind="question", game="quest", body=question_body(9))
    third = authoring.list(kind="question", limit=2, cursor=second["next"])
    assert third["items"][0]["id"] == ours[0]["id"]  # a new row shifts no page
    assert later["id"] not in {c["id"] for c in third["items"]}


def test_a_cursor_the_list_never_gave_is_refused(authoring):
    for cursor in ("12-zz", "644302095255559369-" + "ab" * 16):
        with pytest.raises(InvalidInput) as refused:
            authoring.list(cursor=cursor)
        assert refused.value.code == "invalid_cursor"

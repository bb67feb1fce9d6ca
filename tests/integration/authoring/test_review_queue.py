"""Review at volume on the real authoring service: the queue a second Author reads, and
approving a batch from it, item by item, with the four-eyes rule never broken (issue 30)."""

from __future__ import annotations

import uuid

import pytest

from shared.errors import InvalidInput
from tests.integration.authoring.test_lifecycle import published, question_body
from tests.random_refs import random_sub

pytestmark = pytest.mark.integration


@pytest.fixture
def authoring(start_service, rpc):
    start_service("authoring")
    return rpc.authoring


def submitted(authoring, actor, n=0):
    """A ready question drafted and submitted by ``actor``: in review, version 2."""
    draft = authoring.create(actor=actor, kind="question", game="quest", body=question_body(n))
    return authoring.transition(
        actor=actor, content_id=draft["id"], to="in_review", expected_version=1
    )


def whole_queue(authoring, actor, limit=100):
    """Every page of ``actor``'s queue, in order."""
    found, cursor = [], None
    while True:
        page = authoring.review_queue(actor=actor, cursor=cursor, limit=limit)
        found.extend(page["items"])
        cursor = page["next"]
        if cursor is None:
            return found


def batch(*contents):
    return [{"content_id": c["id"], "expected_version": c["version"]} for c in contents]


def approvals(authoring, content_id):
    return [
        e
        for e in authoring.audit(content_id=content_id)
        if (e["from"], e["to"]) == ("in_review", "approved")
    ]


def test_the_queue_holds_what_others_submitted_oldest_first_never_your_own(authoring):
    alice, bob = random_sub("alice"), random_sub("bob")
    first = submitted(authoring, alice, 1)
    bobs = submitted(authoring, bob, 2)
    second = submitted(authoring, alice, 3)
    draft = authoring.create(actor=alice, kind="question", game="quest", body=question_body(4))

    for limit in (1, 100):  # a page at a time: nothing repeats, nothing is missed
        for_bob = [c["id"] for c in whole_queue(authoring, bob, limit)]
        assert len(for_bob) == len(set(for_bob))
        mine = [i for i in for_bob if i in {first["id"], second["id"], bobs["id"], draft["id"]}]
        assert mine == [first["id"], second["id"]]
    for_alice = {c["id"] for c in whole_queue(authoring, alice)}
    assert bobs["id"] in for_alice
    assert not for_alice & {first["id"], second["id"], draft["id"]}

    approved = authoring.transition(
        actor=bob, content_id=first["id"], to="approved", expected_version=first["version"]
    )
    assert approved["state"] == "approved"
    assert first["id"] not in {c["id"] for c in whole_queue(authoring, random_sub("carol"))}


def test_a_cursor_the_queue_never_gave_is_refused(authoring):
    with pytest.raises(InvalidInput) as refused:
        authoring.review_queue(actor=random_sub("bob"), cursor="not-a-cursor")
    assert refused.value.code == "invalid_cursor"


def test_a_batch_approves_each_item_or_refuses_it_with_its_own_code(authoring):
    alice, bob = random_sub("alice"), random_sub("bob")
    good = submitted(authoring, alice, 1)
    own = submitted(authoring, bob, 2)
    stale = submitted(authoring, alice, 3)
    draft = authoring.create(actor=alice, kind="question", game="quest", body=question_body(4))
    # A challenge submitted with five published questions, one retired since: not ready.
    questions = [published(authoring, "question", question_body(i)) for i in range(5)]
    challenge = authoring.create(
        actor=alice,
        kind="challenge",
        game="quest",
        body={"title": "Space", "question_ids": [q["id"] for q in questions]},
    )
    challenge = authoring.transition(
        actor=alice, content_id=challenge["id"], to="in_review", expected_version=1
    )
    authoring.transition(
        actor=bob,
        content_id=questions[0]["id"],
        to="retired",
        expected_version=questions[0]["version"],
    )
    missing = str(uuid.uuid4())

    items = batch(good, own, draft, challenge)
    items.insert(2, {"content_id": stale["id"], "expected_version": stale["version"] - 1})
    items.append({"content_id": missing, "expected_version": 1})
    outcomes = authoring.approve_batch(actor=bob, items=items)

    assert [o["id"] for o in outcomes] == [i["content_id"] for i in items]  # the batch's order
    by_id = {o["id"]: o for o in outcomes}
    assert by_id[good["id"]] == {
        "id": good["id"],
        "outcome": "approved",
        "state": "approved",
        "version": good["version"] + 1,
    }
    refused = {
        i: (o["problem"]["status"], o["problem"]["code"])
        for i, o in by_id.items()
        if o["outcome"] == "refused"
    }
    assert refused == {
        own["id"]: (403, "own_submission"),
        stale["id"]: (409, "stale_version"),
        draft["id"]: (409, "not_in_review"),
        challenge["id"]: (409, "not_ready"),
        missing: (404, "content_not_found"),
    }
    assert by_id[stale["id"]]["problem"]["currentVersion"] == stale["version"]
    assert by_id[draft["id"]]["problem"]["state"] == "draft"
    assert any("question" in p for p in by_id[challenge["id"]]["problem"]["problems"])

    # Only the good one moved; each refused item is as it was.
    assert authoring.get(content_id=good["id"])["state"] == "approved"
    assert [e["actor"] for e in approvals(authoring, good["id"])] == [bob]
    for content in (own, stale, challenge):
        kept = authoring.get(content_id=content["id"])
        assert (kept["state"], kept["version"]) == ("in_review", content["version"])
    assert authoring.get(content_id=draft["id"])["version"] == 1


def test_the_same_key_answers_the_first_outcome_and_changes_nothing_again(authoring):
    alice, bob = random_sub("alice"), random_sub("bob")
    items = batch(submitted(authoring, alice, 1), submitted(authoring, bob, 2))
    first = authoring.approve_batch(actor=bob, items=items, idempotency_key="review-1")
    assert [o["outcome"] for o in first] == ["approved", "refused"]
    again = authoring.approve_batch(
        actor=bob, items=list(reversed(items)), idempotency_key="review-1"
    )
    assert list(reversed(again)) == first  # the same batch in another order: the same answer
    assert len(approvals(authoring, items[0]["content_id"])) == 1

    # Without the key, the batch is judged again: approved once, now not in review.
    unkeyed = authoring.approve_batch(actor=bob, items=items[:1])
    assert unkeyed[0]["problem"]["code"] == "not_in_review"
    # The key is the Author's own: another Author's same key is another batch.
    other = authoring.approve_batch(actor=alice, items=items[1:], idempotency_key="review-1")
    assert other[0]["outcome"] == "approved"

    with pytest.raises(InvalidInput) as reused:
        authoring.approve_batch(actor=bob, items=items[1:], idempotency_key="review-1")
    assert reused.value.code == "idempotency_key_reused"


@pytest.mark.parametrize("count", [0, 101])
def test_a_batch_names_one_to_a_hundred_items(authoring, count):
    items = [{"content_id": str(uuid.uuid4()), "expected_version": 1} for _ in range(count)]
    with pytest.raises(InvalidInput) as refused:
        authoring.approve_batch(actor=random_sub("bob"), items=items)
    assert refused.value.code == "invalid_batch"


def test_a_batch_names_each_item_once(authoring):
    content = submitted(authoring, random_sub("alice"))
    with pytest.raises(InvalidInput) as refused:
        authoring.approve_batch(actor=random_sub("bob"), items=batch(content, content))
    assert refused.value.code == "invalid_batch"
    assert authoring.get(content_id=content["id"])["state"] == "in_review"


def test_concurrent_batches_over_the_same_items_approve_each_once_never_by_its_submitter(
    authoring,
):
    """Three Authors batch-approve the same items at once, each in its own order; two of
    them submitted the items. Each item is approved exactly once, by someone who did not
    submit it; everyone else is refused it (their own, or approved already)."""
    authors = [random_sub(name) for name in ("alice", "bob", "carol")]
    for round_ in range(3):
        contents = [submitted(authoring, authors[i % 2], i) for i in range(12)]
        submitter = {c["id"]: c["submittedBy"] for c in contents}
        orders = [contents, contents[::-1], contents[6:] + contents[:6]]
        replies = [
            authoring.approve_batch.call_async(
                actor=actor, items=batch(*order), idempotency_key=f"race-{round_}"
            )
            for actor, order in zip(authors, orders, strict=True)
        ]
        answers = {actor: reply.result() for actor, reply in zip(authors, replies, strict=True)}

        for content in contents:
            cid = content["id"]
            outcomes = {
                actor: next(o for o in answered if o["id"] == cid)
                for actor, answered in answers.items()
            }
            winners = [a for a, o in outcomes.items() if o["outcome"] == "approved"]
            assert len(winners) == 1, outcomes
            assert winners[0] != submitter[cid]
            own = outcomes[submitter[cid]]["problem"]["code"]
            assert own in {"own_submission", "not_in_review"}
            for actor, outcome in outcomes.items():
                if actor not in (winners[0], submitter[cid]):
                    assert outcome["problem"]["code"] == "not_in_review"
            assert [e["actor"] for e in approvals(authoring, cid)] == winners
            assert authoring.get(content_id=cid)["state"] == "approved"

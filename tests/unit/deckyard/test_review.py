"""`deckyard review approve --all` reads the queue a page at a time and approves each
page as one batch (the service's bound: 100), on a fake of the authoring RPCs."""

from __future__ import annotations

import uuid

from deckyard.review import approve, named_items


class FakeAuthoring:
    """A queue of ``count`` items; approves every item whose version matches."""

    def __init__(self, count: int) -> None:
        self.queue = [{"id": str(uuid.uuid4()), "version": 2} for _ in range(count)]
        self.batches: list[int] = []

    def review_queue(self, actor, cursor=None, limit=100):
        start = int(cursor or 0)
        page = self.queue[start : start + limit]
        more = start + limit < len(self.queue)
        return {"items": page, "next": str(start + limit) if more else None}

    def approve_batch(self, actor, items, idempotency_key=None):
        self.batches.append(len(items))
        return [
            {"id": i["content_id"], "outcome": "approved", "version": 3}
            if i["expected_version"] == 2
            else {
                "id": i["content_id"],
                "outcome": "refused",
                "problem": {"code": "stale_version", "detail": "the content is at version 2"},
            }
            for i in items
        ]


def test_all_approves_the_whole_queue_a_hundred_at_a_time():
    authoring, said = FakeAuthoring(230), []
    assert approve(authoring, "auth0|bob", [], True, None, said.append) == 0
    assert authoring.batches == [100, 100, 30]
    assert said[-1] == "230 approved, 0 refused"


def test_a_bare_id_takes_the_version_the_queue_shows_and_a_refusal_exits_1():
    authoring, said = FakeAuthoring(3), []
    first, second, _ = (c["id"] for c in authoring.queue)
    assert named_items(authoring, "auth0|bob", [first, f"{second}@1"]) == [
        {"content_id": first, "expected_version": 2},
        {"content_id": second, "expected_version": 1},
    ]
    assert approve(authoring, "auth0|bob", [first, f"{second}@1"], False, None, said.append) == 1
    assert said == [
        f"approved\t{first}\tnow v3",
        f"refused\t{second}\tstale_version: the content is at version 2",
        "1 approved, 1 refused",
    ]

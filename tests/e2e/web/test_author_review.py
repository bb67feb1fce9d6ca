"""A second Author's review queue in a real browser on the real stack, at 360 px: an
event's form refusing bad values with authoring's messages beside the fields, two of the
drafter's questions approved in one batch, and the reviewer's own submission neither in
the queue nor offered an Approve (issue 30)."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.web.author_journey import queue_prompt
from tests.e2e.web.conftest import run_journey
from tests.integration.authoring.test_lifecycle import question_body

pytestmark = [pytest.mark.e2e, pytest.mark.browser_full]


def submit_question(api, name, n):
    """``name`` (who signs in as ``dev|<name>``) submits a ready question for review."""
    token = api.token(f"dev|{name}", roles=["author"])
    body = {**question_body(n), "prompt": queue_prompt(name, n)}
    created = api.call(
        "POST", "/authoring/content", token, {"kind": "question", "game": "quest", "body": body}
    )
    assert created.status == 201, created.body
    path = f"/authoring/content/{created.body['id']}/transitions"
    moved = api.call("POST", path, token, {"to": "in_review", "expectedVersion": 1})
    assert moved.status == 200, moved.body


def test_a_second_author_approves_a_batch_from_the_queue_never_their_own(web_platform, web_api):
    drafter, reviewer = (f"web-author-{uuid.uuid4().hex[:8]}" for _ in range(2))
    submit_question(web_api, drafter, 1)
    submit_question(web_api, drafter, 2)
    submit_question(web_api, reviewer, 3)
    run_journey("author_review_queue", web_platform, drafter, reviewer)

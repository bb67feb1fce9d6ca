"""Two Authors publish a question in real browsers on the real stack: a draft refused for
review while not ready (what is missing shown in place), a save from a stale tab refused
and explained, the submitter's own approval refused, the other Author's approval and
publication, and the audit trail."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.web.conftest import run_journey

pytestmark = [pytest.mark.e2e, pytest.mark.browser_full]


def test_an_author_drafts_and_another_approves_and_publishes_with_the_audit(web_platform):
    drafter, reviewer = (f"web-author-{uuid.uuid4().hex[:8]}" for _ in range(2))
    run_journey("author_publishing", web_platform, drafter, reviewer)

"""An Author publishes a question in the browser: drafted, refused for review while it is
not ready (what is missing listed in place), edited in a second tab so that the first
tab's save is refused as stale and explained, submitted, approved by another Author (the
submitter's own approval refused), published, and the audit read."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.web.browser import new_page, shot, signed_in_at

READY_CHOICES = [
    {"text": "Mars", "correct": True},
    {"text": "Venus"},
    {"text": "Jupiter"},
    {"text": "Mercury"},
]


def body_text(prompt: str, **more: object) -> str:
    return json.dumps({"prompt": prompt, "topic": "space", **more}, indent=2)


def save_draft(page: Page, text: str) -> None:
    page.get_by_label(re.compile(r"^Body \(JSON\)")).fill(text)
    page.get_by_role("button", name=re.compile(r"^Save draft")).click()


def author_publishing(browser: Browser, url: str, names: list[str]) -> None:
    """``names``: the drafting Author and the reviewing Author (both sign in as Authors);
    the question's prompt is the drafter's name, so the test finds it afterwards."""
    drafter, reviewer = names
    prompt = f"Which planet is called the Red Planet? ({drafter})"
    page = new_page(browser)
    signed_in_at(page, url, "#/author", drafter, role="Author")
    expect(page.get_by_role("heading", name="Authoring", level=1)).to_be_visible()
    shot(page, "author-list")
    page.get_by_role("link", name="New content").click()
    expect(page.get_by_role("heading", name="New content", level=1)).to_be_visible()
    page.get_by_label("Kind").select_option("question")
    page.get_by_label("Body (JSON, camelCase)").fill(body_text(prompt))
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_role("heading", name="question · Draft", level=1)).to_be_visible()
    expect(page.get_by_text("State: Draft, version 1.")).to_be_visible()

    # Readiness: the server refuses the submission and lists what is missing, in place.
    page.get_by_role("button", name="Submit for review").click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("It is not ready for this step yet")
    missing = refusal.get_by_role("list", name="What is missing or wrong")
    expect(missing.get_by_text("a question needs four non-blank choices")).to_be_visible()
    expect(missing.get_by_text("a question needs a non-blank explanation")).to_be_visible()
    expect(page.get_by_text("State: Draft, version 1.")).to_be_visible()
    shot(page, "author-not-ready", of=refusal)

    # The same draft open in a second tab (its own sign-in): saved there first.
    content_url = page.url
    other_tab = new_page(browser)
    signed_in_at(other_tab, content_url, "", drafter, role="Author")
    expect(other_tab.get_by_text("State: Draft, version 1.")).to_be_visible()
    ready = body_text(
        prompt, difficulty=1, choices=READY_CHOICES, explanation="Iron oxide dust looks red."
    )
    save_draft(other_tab, ready)
    expect(other_tab.get_by_text("State: Draft, version 2.")).to_be_visible()

    # The first tab still shows version 1: its save is refused and explained.
    save_draft(page, body_text(prompt, difficulty=2))
    expect(page.get_by_role("alert")).to_contain_text("stale_version")
    expect(
        page.get_by_text(re.compile("^Another Author \\(or another tab\\) moved"))
    ).to_be_visible()
    shot(page, "author-stale", of=page.get_by_role("alert"))
    page.get_by_role("button", name="Load the current version").click()
    expect(page.get_by_text("State: Draft, version 2.")).to_be_visible()
    expect(page.get_by_label(re.compile(r"^Body \(JSON\)"))).to_have_value(
        re.compile("Iron oxide dust looks red")
    )
    expect(page.get_by_role("alert")).to_have_count(0)

    page.get_by_role("button", name="Submit for review").click()
    expect(page.get_by_role("heading", name="question · In review", level=1)).to_be_visible()
    page.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("alert")).to_contain_text("own_submission")

    review = new_page(browser)
    signed_in_at(review, content_url, "", reviewer, role="Author")
    expect(review.get_by_role("heading", name="question · In review", level=1)).to_be_visible()
    review.get_by_role("button", name="Approve").click()
    expect(review.get_by_role("heading", name="question · Approved", level=1)).to_be_visible()
    review.get_by_role("button", name="Publish").click()
    expect(review.get_by_role("heading", name="question · Published", level=1)).to_be_visible()
    expect(review.get_by_label(re.compile(r"^Body \(JSON\): only drafts"))).to_have_attribute(
        "readonly", ""
    )

    audit = review.get_by_role("table", name="Who did what, when")
    for step in ("Draft → In review", "In review → Approved", "Approved → Published"):
        expect(audit.get_by_role("cell", name=step, exact=True)).to_be_visible()
    expect(audit.get_by_role("row")).to_have_count(1 + 5)  # created, saved, three moves
    shot(review, "author-published", of=audit)

"""Authors in the browser.

``author_publishing``: a question drafted in its kind's form, refused for review while it
is not ready (what is missing listed in place), edited in a second tab so that the first
tab's save is refused as stale and explained, submitted (no Approve offered to its
submitter, who is told why), approved by another Author, published (the form read-only
then), and the audit read.

``author_review_queue``: an event's form refusing bad values with authoring's messages
beside the fields; a second Author's review queue (the queue's questions prepared by the
test: two of the drafter's, one of the reviewer's own, which the queue never shows),
two approved in one batch, and the reviewer's own submission with no Approve. At 360 px,
with no sideways scrolling.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.web.browser import new_page, shot, signed_in_at

PHONE_360 = {"width": 360, "height": 780}


def queue_prompt(name: str, n: int) -> str:
    """The prompt of the test's n-th prepared question of ``name`` (test_author_review)."""
    return f"Queue question {n} of {name}"


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def choice(page: Page, n: int):
    return page.get_by_role("group", name=f"Choice {n}")


def fill_ready_question(page: Page) -> None:
    """Difficulty, four choices (the first correct) and an explanation: ready for review."""
    page.get_by_label("Difficulty").select_option("1")
    add = page.get_by_role("button", name="Add a choice")
    for n, text in enumerate(("Mars", "Venus", "Jupiter", "Mercury"), start=1):
        add.click()
        choice(page, n).get_by_label("Text (required)").fill(text)
    expect(add).to_be_disabled()  # four at most, and it says so
    expect(page.get_by_text("At most 4: remove one to add another.")).to_be_visible()
    choice(page, 1).get_by_label("Correct").check()
    page.get_by_label("Explanation").fill("Iron oxide dust looks red.")


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
    page.get_by_label("Prompt (required)").fill(prompt)
    page.get_by_label("Topic").fill("space")
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_role("heading", name="question · Draft", level=1)).to_be_visible()
    expect(page.get_by_text("State: Draft, version 1.")).to_be_visible()
    expect(page.get_by_label("Prompt (required)")).to_have_value(prompt)

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
    fill_ready_question(other_tab)
    shot(other_tab, "author-form")
    other_tab.get_by_role("button", name=re.compile(r"^Save draft")).click()
    expect(other_tab.get_by_text("State: Draft, version 2.")).to_be_visible()

    # The first tab still shows version 1: its save is refused and explained.
    page.get_by_label("Difficulty").select_option("2")
    page.get_by_role("button", name=re.compile(r"^Save draft")).click()
    expect(page.get_by_role("alert")).to_contain_text("stale_version")
    expect(
        page.get_by_text(re.compile("^Another Author \\(or another tab\\) moved"))
    ).to_be_visible()
    shot(page, "author-stale", of=page.get_by_role("alert"))
    page.get_by_role("button", name="Load the current version").click()
    expect(page.get_by_text("State: Draft, version 2.")).to_be_visible()
    expect(page.get_by_label("Explanation")).to_have_value("Iron oxide dust looks red.")
    expect(choice(page, 4).get_by_label("Text (required)")).to_have_value("Mercury")
    expect(page.get_by_role("alert")).to_have_count(0)

    page.get_by_role("button", name="Submit for review").click()
    expect(page.get_by_role("heading", name="question · In review", level=1)).to_be_visible()
    # Four eyes: its submitter is offered no Approve, and told why in words.
    expect(page.get_by_text(re.compile("^You submitted this for review"))).to_be_visible()
    expect(page.get_by_role("button", name="Approve")).to_have_count(0)
    expect(page.get_by_role("button", name="Return to draft")).to_have_count(0)

    review = new_page(browser)
    signed_in_at(review, content_url, "", reviewer, role="Author")
    expect(review.get_by_role("heading", name="question · In review", level=1)).to_be_visible()
    review.get_by_role("button", name="Approve").click()
    expect(review.get_by_role("heading", name="question · Approved", level=1)).to_be_visible()
    review.get_by_role("button", name="Publish").click()
    expect(review.get_by_role("heading", name="question · Published", level=1)).to_be_visible()
    expect(
        review.get_by_role("group", name="The question: only drafts can be edited")
    ).to_be_visible()
    expect(review.get_by_label("Prompt (required)")).to_be_disabled()
    expect(review.get_by_role("button", name=re.compile(r"^Save draft"))).to_have_count(0)

    audit = review.get_by_role("table", name="Who did what, when")
    for step in ("Draft → In review", "In review → Approved", "Approved → Published"):
        expect(audit.get_by_role("cell", name=step, exact=True)).to_be_visible()
    expect(audit.get_by_role("row")).to_have_count(1 + 5)  # created, saved, three moves
    shot(review, "author-published", of=audit)


def author_review_queue(browser: Browser, url: str, names: list[str]) -> None:
    """``names``: the drafter and the reviewer; the test submitted the drafter's questions
    1 and 2 and the reviewer's question 3 (``queue_prompt``)."""
    drafter, reviewer = names
    page = new_page(browser)
    page.set_viewport_size(PHONE_360)
    signed_in_at(page, url, "#/author/new", drafter, role="Author")
    expect(page.get_by_role("heading", name="New content", level=1)).to_be_visible()

    # An event's form: its fields, bounds as hints, and authoring's refusals beside them.
    page.get_by_label("Kind").select_option("event")
    radius = page.get_by_label("Radius (metres) (required)")
    expect(radius).to_have_accessible_description("From 5 to 500.")
    page.get_by_label("Name (required)").fill(f"Evening walk ({drafter})")
    location = page.get_by_role("group", name="Location (required)")
    location.get_by_label("Latitude (required)").fill("95")
    location.get_by_label("Longitude (required)").fill("-0.1281")
    radius.fill("1000")
    page.get_by_label("Starts at (required)").fill("2027-06-01T18:00")
    page.get_by_label("Ends at (required)").fill("2027-06-01T17:00")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_role("alert")).to_contain_text("see the messages beside the fields")
    expect(radius).to_have_attribute("aria-invalid", "true")
    expect(radius).to_have_accessible_description(re.compile(r"less than or equal to 500"))
    expect(location.get_by_label("Latitude (required)")).to_have_accessible_description(
        re.compile(r"less than or equal to 90")
    )
    shot(page, "author-field-messages", of=radius)
    location.get_by_label("Latitude (required)").fill("51.508")
    radius.fill("100")
    page.get_by_role("button", name="Create draft").click()  # the times, checked once fields hold
    ends = page.get_by_label("Ends at (required)")
    expect(ends).to_have_accessible_description(re.compile("an event must end after it starts"))
    expect(radius).not_to_have_attribute("aria-invalid", "true")
    ends.fill("2027-06-01T20:00")
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_role("heading", name="event · Draft", level=1)).to_be_visible()
    expect(page.get_by_label("Radius (metres) (required)")).to_have_value("100")
    no_sideways_scroll(page)

    # The reviewer's queue: the drafter's two questions, never the reviewer's own.
    review = new_page(browser)
    review.set_viewport_size(PHONE_360)
    signed_in_at(review, url, "#/author", reviewer, role="Author")
    review.get_by_role("link", name="Review queue").click()
    expect(review.get_by_role("heading", name="Review queue", level=1)).to_be_visible()
    queue = review.get_by_role("list", name="Waiting for your review")
    first, second = (queue_prompt(drafter, n) for n in (1, 2))
    for prompt in (first, second):
        expect(queue.get_by_role("checkbox", name=prompt)).to_be_visible()
    expect(queue.get_by_text(queue_prompt(reviewer, 3))).to_have_count(0)
    approve = review.get_by_role("button", name=re.compile(r"^Approve selected"))
    expect(approve).to_be_disabled()
    expect(approve).to_have_accessible_description("Tick the items you have read to approve them.")
    queue.get_by_role("checkbox", name=first).check()
    queue.get_by_role("checkbox", name=second).check()
    expect(approve).to_have_text("Approve selected (2)")
    no_sideways_scroll(review)
    shot(review, "author-review-queue")
    approve.click()
    expect(review.get_by_role("heading", name="2 approved, 0 not approved")).to_be_visible()
    done = review.get_by_role("list", name="What happened to each item")
    expect(done.get_by_text(re.compile(r"^Approved: .*\(now version 3\)\.$"))).to_have_count(2)
    expect(queue.get_by_role("checkbox", name=first)).to_have_count(0)
    shot(review, "author-review-approved")

    # The reviewer's own submission: no Approve, and why.
    review.get_by_role("navigation", name="Main").get_by_role("link", name="Authoring").click()
    review.get_by_role("link", name=queue_prompt(reviewer, 3)).click()
    expect(review.get_by_role("heading", name="question · In review", level=1)).to_be_visible()
    expect(review.get_by_text(re.compile("^You submitted this for review"))).to_be_visible()
    expect(review.get_by_role("button", name="Approve")).to_have_count(0)
    no_sideways_scroll(review)

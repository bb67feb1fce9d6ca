"""Journeys through the web client in Debian's chromium, run in a process of their own.

The test process is eventlet-patched (nameko needs it) and Playwright's driver never stops
under eventlet (its asyncio subprocess waits forever), so each test runs one journey here,
in a plain Python: ``python -m tests.e2e.web.journeys <journey> <page url>``. It exits 0
when every expectation held; otherwise it prints what the page did not show and exits 1.

Elements are found by role and label, as a person with a screen reader finds them; every
wait is on what the page shows, never a sleep.
"""

from __future__ import annotations

import argparse
import re
import sys
import traceback
import uuid
from collections.abc import Callable

from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.web.account_journey import account_deletion, deleted_sign_in
from tests.e2e.web.author_journey import author_publishing, author_review_queue
from tests.e2e.web.browser import CHROMIUM, PAGES, new_page, shot, sign_in, signed_in_at
from tests.e2e.web.first_hour import (
    chronovore_first_hour,
    quest_first_hour,
    terrakard_first_hour,
)
from tests.e2e.web.terrakard_journey import terrakard_defense


def no_console_errors(page: Page) -> None:
    """A normal page writes no error to the browser's console (a request answered 404, a
    script error): every journey that ends here went the normal way."""
    console = next(messages for opened, messages in PAGES if opened is page)
    errors = [message for message in console if message.startswith("error:")]
    assert not errors, f"the browser's console has errors: {errors}"


def first_visit(page: Page) -> None:
    """A new player signs in, picks a starter, and finds its cards in the collection."""
    name = f"web-{uuid.uuid4().hex[:8]}"
    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    shot(page, "sign-in")
    sign_in(page, name)

    expect(page.get_by_text("Welcome! Your account was just created.")).to_be_visible()
    shot(page, "home")
    page.get_by_role("link", name="choose your starter cards").click()

    expect(page.get_by_role("heading", name="Choose your starter", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Choose an affinity")).to_be_disabled()
    page.get_by_role("radio", name=re.compile(r"^Grit")).check()
    shot(page, "starter")
    page.get_by_role("button", name="Choose Grit").click()

    expect(page.get_by_role("heading", name="Your starter", level=1)).to_be_visible()
    # Cards drawn as cards, each named by the card (its stats readable as text).
    starter_cards = page.get_by_role("list", name="Starter cards").get_by_role("article")
    expect(starter_cards).to_have_count(5)
    names = [card.get_attribute("aria-label") or "" for card in starter_cards.all()]

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Cards").click()
    expect(page.get_by_role("heading", name="Your collection", level=1)).to_be_visible()
    expect(page.get_by_text("5 cards, starter affinity Grit.")).to_be_visible()
    owned = page.get_by_role("list", name="Cards you own")
    for card in names:
        expect(owned.get_by_role("article", name=card, exact=True)).to_be_visible()
    expect(owned.get_by_role("article")).to_have_count(5)
    creature = owned.get_by_role("article").filter(has_text="Grit · Creature").first
    expect(creature).to_contain_text(re.compile(r"Cost \d.*HP \d+.*Power \d+"))
    shot(page, "collection")
    no_console_errors(page)


def quest_tour(page: Page) -> None:
    """Starter, an event challenge from a granted position, a deck, a CPU battle's first turn;
    then the reward's roll verified in the browser (Fairness)."""
    sign_in(page, f"web-{uuid.uuid4().hex[:8]}")
    page.get_by_role("link", name="choose your starter cards").click()
    page.get_by_role("radio", name=re.compile(r"^Wit")).check()
    page.get_by_role("button", name="Choose Wit").click()
    expect(page.get_by_role("heading", name="Your starter", level=1)).to_be_visible()

    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Events").click()
    page.get_by_role("button", name="Find events near me").click()
    events = page.get_by_role("list", name="Events near you")
    # The first of its kind: another test module may have seeded the demo again.
    expect(events.get_by_role("heading", name="Trafalgar Square").first).to_be_visible()
    expect(events.get_by_text("You are inside the area.").first).to_be_visible()
    shot(page, "events")
    page.get_by_role("button", name="Start the challenge at Trafalgar Square").first.click()

    expect(page.get_by_role("heading", name="Challenge", level=1)).to_be_visible()
    expect(page.get_by_text(re.compile(r"Time left: ?\d:\d\d"))).to_be_visible()
    shot(page, "attempt")
    for n in range(1, 6):
        group = page.get_by_role("group", name=re.compile(f"^Question {n} of 5"))
        radios = group.get_by_role("radio")
        if radios.count():
            radios.first.check()
        page.get_by_role("button", name=f"Lock answer {n}").click()
        expect(group.get_by_text(re.compile("Locked:"))).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"Result: \d of 5 correct"))).to_be_visible()
    expect(page.get_by_role("heading", name="Reward")).to_be_visible()
    shot(page, "attempt-result")

    nav.get_by_role("link", name="Decks").click()
    page.get_by_role("link", name="New deck").click()
    page.get_by_label("Deck name").fill("Evening walk")
    # The first copy of each: the challenge's reward may have been a second one.
    for card in ("Field Kit", "Reserve Focus"):
        page.get_by_role("button", name=f"Add {card}").first.click()
    expect(page.get_by_text("✗ Creatures: 0 of 3")).to_be_visible()
    for _ in range(3):
        page.get_by_role("list", name="Your cards").get_by_role(
            "button", name=re.compile("^Add"), disabled=False
        ).first.click()
    expect(page.get_by_text("This deck is legal.")).to_be_visible()
    shot(page, "deck-builder")
    page.get_by_role("button", name="Save deck").click()
    expect(page.get_by_role("heading", name="Deck: Evening walk", level=1)).to_be_visible()

    nav.get_by_role("link", name="Battle").click()
    page.get_by_role("button", name="Battle the computer").click()
    expect(page.get_by_text("Choose the Creature you send out first.")).to_be_visible()
    page.get_by_role("button", name=re.compile("^Send out")).first.click()
    expect(page.get_by_role("heading", name="What just happened")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Turn time left: ?1:\d\d|Waiting"))).to_be_visible()
    # A move, else a Power card or a swap: a stunned Creature has no move to use.
    page.get_by_role("button", name=re.compile("^(Use |Play |Swap in )")).first.click()
    expect(page.get_by_text(re.compile("Action log \\(\\d+\\)"))).to_be_visible()
    shot(page, "battle")

    # The challenge's reward was rolled: its seed revealed, the history verified here.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Fairness").click()
    expect(page.get_by_role("heading", name="Fairness", level=1)).to_be_visible()
    page.get_by_role("button", name="Rotate: reveal my server seed").click()
    expect(page.get_by_text(re.compile(r"^Revealed server seed "))).to_be_visible()
    page.get_by_role("button", name="Verify my whole history").click()
    expect(page.get_by_text(re.compile(r"^\d+ rolls: (\d+) verified, 0 failed"))).to_be_visible()
    shot(page, "fairness")
    no_console_errors(page)


def add_until(page: Page, cards: str, count: int) -> None:
    """Click the first enabled Add button of a card list ``count`` times."""
    for _ in range(count):
        page.get_by_role("list", name=cards).get_by_role(
            "button", name=re.compile("^Add "), disabled=False
        ).first.click()


def terrakard_tour(page: Page) -> None:
    """The starting collection, an attack deck within the budget, an active defense plan,
    the arena, and a whole attack (the tutorial's, against the training plan):
    reconnaissance, five rounds, the stars, the replay; then the arena's targets."""
    sign_in(page, f"web-{uuid.uuid4().hex[:8]}")
    page.get_by_role("navigation", name="Games").get_by_role("link", name="TerraKard").click()
    expect(page.get_by_role("heading", name="TerraKard", level=1)).to_be_visible()
    page.get_by_role("button", name="Claim your starting collection").click()
    expect(page.get_by_text(re.compile("an attack deck may cost up to 12"))).to_be_visible()
    cards = page.get_by_role("list", name="Your TerraKard cards").get_by_role("article")
    expect(cards).to_have_count(10)
    expect(cards.first).to_contain_text(re.compile(r"Cost \d.*ATK \d+.*DEF \d+"))
    shot(page, "terrakard-cards")

    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Attack decks").click()
    page.get_by_role("link", name="New attack deck").click()
    page.get_by_label("Deck name").fill("Raid")
    add_until(page, "Your cards", 7)
    expect(page.get_by_text("7 of 8 cards: add 1.")).to_be_visible()
    add_until(page, "Your cards", 1)
    expect(page.get_by_text("Ready to save: every rule holds.")).to_be_visible()
    shot(page, "terrakard-deck")
    page.get_by_role("button", name="Save deck").click()
    expect(page.get_by_role("heading", name="Attack deck: Raid", level=1)).to_be_visible()

    nav.get_by_role("link", name="Defense plans").click()
    expect(page.get_by_text("No plan yet.")).to_be_visible()
    page.get_by_role("link", name="New defense plan").click()
    page.get_by_label("Plan name").fill("Wall")
    for n in range(1, 6):
        page.get_by_label(f"Round {n} card").select_option(index=n)
    page.get_by_label("Reserve card").select_option(index=6)
    page.get_by_role("radio", name=re.compile("^The defense is below 50%")).check()
    page.get_by_role("radio", name=re.compile("^Cautious")).check()
    expect(page.get_by_text("Ready to save: every rule holds.")).to_be_visible()
    shot(page, "terrakard-plan")
    page.get_by_role("button", name="Save plan").click()
    expect(page.get_by_role("heading", name="Defense plan: Wall", level=1)).to_be_visible()
    expect(page.get_by_text(re.compile("This plan is active"))).to_be_visible()

    nav.get_by_role("link", name="Arena").click()
    expect(page.get_by_text(re.compile(r"Attack tickets: 5 of 5"))).to_be_visible()
    shot(page, "terrakard-arena")
    page.get_by_role("button", name="Play the tutorial").click()
    attacked = page.get_by_role("heading", name="Attack on Training plan", level=1)
    expect(attacked).to_be_visible()
    expect(page.get_by_role("heading", name="Reconnaissance")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Reconnaissance time left: ?0:\d\d"))).to_be_visible()
    shot(page, "terrakard-reconnaissance")
    page.get_by_role("button", name="Begin the attack").click()
    result = page.get_by_role("heading", name=re.compile("^Result:"))
    for _ in range(5):
        expect(page.get_by_text(re.compile(r"choose a card\.$")).or_(result)).to_be_visible()
        if result.is_visible():
            break
        expect(page.get_by_text(re.compile(r"Round time left: ?0:\d\d"))).to_be_visible()
        page.get_by_role("button", name=re.compile("^Play "), disabled=False).first.click()
        expect(page.get_by_role("heading", name="What just happened")).to_be_visible()
    expect(result).to_be_visible()
    expect(page.get_by_role("table", name="Rounds played").get_by_role("row")).to_have_count(1 + 5)
    page.get_by_role("button", name="Watch the attack again").click()
    expect(
        page.get_by_role("heading", name=re.compile(r"^Watch again: step 1 of \d+"))
    ).to_be_visible()
    page.get_by_role("button", name="Go to the end").click()
    last_step = page.get_by_role("list", name=re.compile(r"^Step \d+"))
    expect(last_step.get_by_text(re.compile("The attack is over"))).to_be_visible()
    shot(page, "terrakard-result")

    nav.get_by_role("link", name="Arena").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Targets \(\d+\)"))).to_be_visible()
    expect(page.get_by_role("button", name="Play the tutorial")).to_have_count(0)
    # The questions setting is stored by the server: still off after a reload.
    questions = page.get_by_role("checkbox", name=re.compile("^Knowledge questions in my attacks"))
    expect(questions).to_be_checked()
    questions.uncheck()
    expect(questions).not_to_be_checked()
    expect(questions).to_be_enabled()
    page.reload()
    expect(questions).not_to_be_checked()
    shot(page, "terrakard-targets")

    nav.get_by_role("link", name="Your attacks").click()
    attacks = page.get_by_role("list", name="Your attacks, newest first")
    expect(attacks.get_by_role("listitem")).to_have_count(1)
    expect(attacks.get_by_role("listitem").first.get_by_role("link")).to_have_text(
        "Training plan (the tutorial)"
    )

    nav.get_by_role("link", name="Reports").click()
    expect(page.get_by_text("No one has attacked you yet.")).to_be_visible()
    nav.get_by_role("link", name="Packs").click()
    expect(page.get_by_role("heading", name="TerraKard packs", level=1)).to_be_visible()
    shot(page, "terrakard-packs")
    no_console_errors(page)


def chronovore_tour(page: Page, url: str) -> None:
    """The library signed out (a keyword's definition opened by a tap); signed in: the
    starting packs opened (odds first), a legal deck of 30, and a match against the
    computer: cards placed and taken back by keyboard and by taps, then locked in."""
    page.goto(url + "#/chronovore")
    expect(page.get_by_role("heading", name="Chronovore library", level=1)).to_be_visible()
    expect(page.get_by_text(re.compile(r"^(\d+) of \1 cards\.$"))).to_be_visible()
    page.get_by_label("Class").select_option("medic")
    medic = page.get_by_text(re.compile(r"^\d+ of \d+ cards\.$"))
    expect(medic).not_to_have_text(re.compile(r"^(\d+) of \1 cards\.$"))
    shot(page, "chronovore-library")
    # "Bold words on a card are keywords. Rest on the card to read the definition."
    page.get_by_label("Class").select_option("")
    page.get_by_label("Name", exact=True).fill("Bandit Scout")
    scout = page.get_by_role("list", name="Keywords of Bandit Scout")
    initiative = scout.locator("strong", has_text="Initiative")
    definition = scout.get_by_text("This monster strikes the hero first.")
    expect(initiative).to_be_visible()
    expect(definition).to_be_hidden()
    initiative.click()  # a tap on a phone
    expect(definition).to_be_visible()
    page.get_by_role("link", name="sign in", exact=True).click()
    sign_in(page, f"web-{uuid.uuid4().hex[:8]}")

    page.get_by_role("navigation", name="Games").get_by_role("link", name="Chronovore").click()
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Packs")).to_be_visible()
    core = page.get_by_role("button", name="Open a Core Set Pack")
    for _ in range(30):  # the starting packs are granted when cards welcomes the player
        nav.get_by_role("link", name="Wallet").click()
        expect(page.get_by_role("heading", name="Chronovore wallet", level=1)).to_be_visible()
        nav.get_by_role("link", name="Packs").click()
        expect(page.get_by_role("heading", name="Core Set Pack", exact=True)).to_be_visible()
        if core.is_visible():
            break
    expect(page.get_by_text("You have 30 unopened.")).to_be_visible()
    odds = page.get_by_role("group", name="Odds of a Core Set Pack")
    expect(odds.get_by_role("row", name=re.compile(r"^Golden 99\/2000 \(4\.95%\)"))).to_be_visible()
    core.click()
    opened = page.get_by_role("list", name="Cards in the pack").first
    expect(opened.get_by_role("article")).to_have_count(5)
    expect(opened.get_by_role("article").first).to_contain_text(
        re.compile(r"(Common|Uncommon|Rare|Epic|Mythic) · (Plain|Golden|Diamond)")
    )
    shot(page, "chronovore-pack-opened")
    page.get_by_role("button", name="Open all 29").click()
    expect(page.get_by_text("Opened 29 packs; the last one first.")).to_be_visible(timeout=120_000)
    page.get_by_role("button", name="Open a Golden Core Set Pack").click()
    expect(page.get_by_role("list", name="Cards in the pack").first).to_contain_text("Golden")

    nav.get_by_role("link", name="Decks").click()
    page.get_by_role("link", name="New Chronovore deck").click()
    page.get_by_label("Deck name").fill("Night shift")
    page.get_by_role("radio", name=re.compile("^Medic")).check()
    add_until(page, "Your Medic and Neutral cards", 29)
    expect(page.get_by_text("✗ Cards: 29 of 30")).to_be_visible()
    add_until(page, "Your Medic and Neutral cards", 1)
    expect(page.get_by_text("✓ Cards: 30 of 30")).to_be_visible()
    expect(page.get_by_text("This list is legal.")).to_be_visible()
    shot(page, "chronovore-deck")
    page.get_by_role("button", name="Save deck").click()
    expect(
        page.get_by_role("heading", name="Chronovore deck: Night shift", level=1)
    ).to_be_visible()
    expect(page.get_by_text("✓ Legal: it can be played.")).to_be_visible()

    nav.get_by_role("link", name="Match").click()
    page.get_by_role("button", name="Play the computer").click()
    expect(page.get_by_role("heading", name="Chronovore match", level=1)).to_be_visible()
    expect(page.get_by_text(re.compile(r"Choosing time left: ?[12]:\d\d"))).to_be_visible()
    row = page.get_by_role("list", name="Your row")
    hand = page.get_by_role("list", name=re.compile(r"^Your hand"))
    hand.get_by_role("button").first.press("1")
    placed = row.get_by_role("button", name=re.compile("^Slot 1: "))
    expect(placed).to_be_focused()
    placed.press("Backspace")
    expect(row.get_by_role("button", name=re.compile("^Slot 1: "))).to_have_count(0)
    hand.get_by_role("button").first.press("2")
    expect(row.get_by_role("button", name=re.compile("^Slot 2: "))).to_be_visible()
    # By touch: a tap picks a card up and the screen says what to do next; a tap on a slot
    # places it; a slotted card moves to the slot tapped after it, and goes back when
    # tapped again.
    tapped = hand.get_by_role("button").first
    name = (tapped.get_attribute("aria-label") or "").split(". ", 1)[0]
    tapped.tap()
    expect(tapped).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text(f"Tap a slot to place {name}, or tap it again")).to_be_visible()
    page.get_by_role("button", name=f"Place {name} in slot 3").tap()
    third = row.get_by_role("button", name=re.compile(rf"^Slot 3: {re.escape(name)}\."))
    third.tap()
    expect(third).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text(f"Tap an empty slot to move {name} there")).to_be_visible()
    page.get_by_role("button", name=f"Move {name} in slot 4").tap()
    fourth = row.get_by_role("button", name=re.compile(rf"^Slot 4: {re.escape(name)}\."))
    expect(third).to_have_count(0)
    fourth.tap()
    expect(fourth).to_have_attribute("aria-pressed", "true")
    fourth.tap()
    expect(fourth).to_have_count(0)
    expect(page.get_by_text("Tap a card in your hand, then a slot to place it")).to_be_visible()
    shot(page, "chronovore-row")
    page.get_by_role("button", name="Lock in").click()
    expect(page.get_by_role("heading", name="Round 1 resolved")).to_be_visible()
    show_all = page.get_by_role("button", name="Show every pair now")
    if show_all.is_visible():
        show_all.click()
    expect(page.get_by_text("The heroes have passed every pair.")).to_be_visible()
    expect(page.get_by_role("list", name="Pairs").get_by_role("listitem").first).to_contain_text(
        "Pair 1:"
    )
    expect(
        page.get_by_text(re.compile(r"^Round 2 of 5\.|^The match is over")).first
    ).to_be_visible()
    expect(page.get_by_role("group", name="Your hero")).to_contain_text(
        re.compile(r"Health \d+ of 30")
    )
    shot(page, "chronovore-resolution")


def pseudonym_of(page: Page) -> str:
    """The pseudonym the Versus lobby tells its player to share."""
    shared = page.get_by_text(re.compile(r"^Your pseudonym: \S+\. Share it"))
    expect(shared).to_be_visible()
    return shared.locator("strong").inner_text()


def lock_in(page: Page, round_: int) -> None:
    """Round ``round_``'s row, as it stands, locked in (or the match over before it)."""
    # .first: a match over shows it twice (the status line and the last event).
    expect(
        page.get_by_text(
            re.compile(rf"^Round {round_} of 5\. Place up to 4|^The match is over")
        ).first
    ).to_be_visible()
    if page.get_by_role("button", name="Lock in").is_visible():
        page.get_by_role("button", name="Lock in").click()


def chronovore_pvp(browser: Browser, url: str, names: list[str]) -> None:
    """Two players, each in a browser of their own (decks prepared by the test): one joins
    the queue and stops waiting; the other invites them by the pseudonym the lobby shows,
    cancels, invites again (declined), and again (accepted). Both play the match on the
    lock-in row, a card placed from the keyboard and locked in on both sides, round 1
    resolved pair by pair on both screens; then both lock in round after round until the
    match resolves: one result each, the two agreeing."""
    invited, inviter = (new_page(browser) for _ in names)
    for page, name in zip((invited, inviter), names, strict=True):
        signed_in_at(page, url, "#/chronovore/versus", name)
        expect(page.get_by_role("heading", name="Play another player", level=1)).to_be_visible()
    invited_as, inviter_as = pseudonym_of(invited), pseudonym_of(inviter)

    invited.get_by_role("button", name="Find an opponent").click()
    expect(invited.get_by_text(re.compile(r"^Waiting for an opponent since"))).to_be_visible()
    invited.get_by_role("button", name="Stop waiting").click()
    expect(invited.get_by_text("You left the queue.")).to_be_visible()
    expect(invited.get_by_role("button", name="Find an opponent")).to_be_visible()

    def invite() -> None:
        inviter.get_by_label("Pseudonym to invite").fill(invited_as)
        inviter.get_by_role("button", name="Send invitation").click()
        expect(inviter.get_by_text(f"Invitation sent to {invited_as}.")).to_be_visible()

    invite()
    shot(inviter, "chronovore-versus")
    inviter.get_by_role("button", name=f"Cancel the invitation to {invited_as}").click()
    expect(inviter.get_by_text(f"You cancelled the invitation to {invited_as}.")).to_be_visible()
    sent = inviter.get_by_role("list", name="Invitations you sent")
    expect(sent.get_by_text(f"To {invited_as}: cancelled.")).to_be_visible()
    received = invited.get_by_role("list", name=re.compile(r"^Invitations to you"))
    expect(received.get_by_text(f"From {inviter_as}: cancelled.")).to_be_visible()  # polled

    invite()
    invited.get_by_role("button", name=f"Decline the invitation from {inviter_as}").click()
    expect(invited.get_by_text(f"You declined the invitation from {inviter_as}.")).to_be_visible()
    expect(sent.get_by_text(f"To {invited_as}: declined.")).to_be_visible()

    invite()
    expect(
        received.get_by_text(re.compile(f"^From {inviter_as}: waiting for an answer"))
    ).to_be_visible()
    shot(invited, "chronovore-invitation")
    invited.get_by_role("button", name=f"Accept the invitation from {inviter_as}").click()
    for page, them in ((invited, inviter_as), (inviter, invited_as)):
        expect(page.get_by_role("heading", name=f"Match against {them}", level=1)).to_be_visible()
        expect(page.get_by_text(re.compile(r"Choosing time left: ?[12]:\d\d"))).to_be_visible()
        expect(page.get_by_role("group", name=f"{them}'s hero")).to_be_visible()

    for page in (invited, inviter):
        row = page.get_by_role("list", name="Your row")
        page.get_by_role("list", name=re.compile(r"^Your hand")).get_by_role("button").first.press(
            "1"
        )
        placed = row.get_by_role("button", name=re.compile("^Slot 1: "))
        expect(placed).to_be_focused()
        page.get_by_role("button", name="Lock in").click()
    shot(inviter, "chronovore-pvp-row")
    for page, them in ((invited, inviter_as), (inviter, invited_as)):
        expect(page.get_by_role("heading", name="Round 1 resolved")).to_be_visible()
        show_all = page.get_by_role("button", name="Show every pair now")
        if show_all.is_visible():
            show_all.click()
        first_pair = page.get_by_role("list", name="Pairs").get_by_role("listitem").first
        expect(first_pair).to_contain_text(re.compile(f"^Pair 1: you played .+, {them} "))
    shot(invited, "chronovore-pvp-resolution")

    for round_ in range(2, 6):
        for page in (invited, inviter):
            lock_in(page, round_)
    outcome = re.compile(r"^The match is over: (you won|you lost|a draw)")
    results = []
    for page in (invited, inviter):
        status = page.get_by_text(outcome).first  # the status line (the log repeats it)
        expect(status).to_be_visible()
        said = outcome.match(status.inner_text())
        assert said, status.inner_text()
        results.append(said.group(1))
        expect(page.get_by_role("button", name="Back to the lobby")).to_be_visible()
    assert sorted(results) in (["a draw", "a draw"], ["you lost", "you won"]), results
    shot(inviter, "chronovore-pvp-result")


def quest_pvp(browser: Browser, url: str, names: list[str]) -> None:
    """Two Quest players, each in a browser of their own (starter decks prepared by the
    test): the inviter invites the other by the pseudonym their Versus lobby shows; the
    invitation reaches them (push, or the lobby's polling) and they accept it, which opens
    the match; the inviter opens it from their matches. Both choose their first Creature
    on a board that names the other player and shows the 24-hour window, never the
    computer; the player whose turn it is uses a move, and the other sees it happen."""
    invited, inviter = (new_page(browser) for _ in names)
    for page, name in zip((invited, inviter), names, strict=True):
        signed_in_at(page, url, "#/quest/versus", name)
        expect(page.get_by_role("heading", name="Play another player", level=1)).to_be_visible()
    invited_as, inviter_as = pseudonym_of(invited), pseudonym_of(inviter)

    inviter.get_by_label("Pseudonym to invite").fill(invited_as)
    inviter.get_by_role("button", name="Send invitation").click()
    expect(inviter.get_by_text(f"Invitation sent to {invited_as}.")).to_be_visible()
    sent = inviter.get_by_role("list", name="Invitations you sent")
    expect(sent.get_by_text(re.compile(f"^To {invited_as}: waiting for an answer"))).to_be_visible()
    received = invited.get_by_role("list", name=re.compile(r"^Invitations to you"))
    expect(
        received.get_by_text(re.compile(f"^From {inviter_as}: waiting for an answer"))
    ).to_be_visible()
    shot(invited, "quest-versus")
    invited.get_by_role("button", name=f"Accept the invitation from {inviter_as}").click()
    expect(
        invited.get_by_role("heading", name=f"Match against {inviter_as}", level=1)
    ).to_be_visible()

    matches = inviter.get_by_role("list", name=re.compile(r"^Your matches"))
    matches.get_by_role("link", name=re.compile(f"^Against {invited_as}: ")).click()
    expect(
        inviter.get_by_role("heading", name=f"Match against {invited_as}", level=1)
    ).to_be_visible()

    window = re.compile(r"^Your decision is due by .+ \(2[34] h")  # 24 hours from the start
    for page, them in ((invited, inviter_as), (inviter, invited_as)):
        expect(page.get_by_text("Choose the Creature you send out first.")).to_be_visible()
        expect(page.get_by_text(window)).to_be_visible()
        expect(page.get_by_text(f"{them} has 3 Creatures left", exact=False)).to_be_visible()
    shot(invited, "quest-pvp-selection")
    invited.get_by_role("button", name=re.compile("^Send out")).first.click()
    expect(invited.get_by_text(f"Waiting for {inviter_as}.")).to_be_visible()
    expect(invited.get_by_text(re.compile(f"^{inviter_as} must decide by "))).to_be_visible()
    expect(
        inviter.get_by_text(re.compile(f"^{invited_as} has chosen their first Creature"))
    ).to_be_visible()
    inviter.get_by_role("button", name=re.compile("^Send out")).first.click()

    # The inviter's answer tells who goes first; the invited player learns it through push.
    status = re.compile(rf"^(Your turn \(turn 1\)\.|Waiting for {re.escape(invited_as)}\.)$")
    said = inviter.get_by_text(status)
    expect(said).to_be_visible()
    if said.inner_text().startswith("Your turn"):
        mover, mover_as, watcher = inviter, inviter_as, invited
    else:
        mover, mover_as, watcher = invited, invited_as, inviter
    expect(mover.get_by_text("Your turn (turn 1).")).to_be_visible()
    expect(watcher.get_by_text(f"Waiting for {mover_as}.")).to_be_visible()
    expect(watcher.get_by_text(re.compile(f"^{mover_as} must decide by "))).to_be_visible()
    shot(mover, "quest-pvp-turn")

    mover.get_by_role("button", name=re.compile("^Use ")).first.click()
    expect(mover.get_by_role("heading", name="What just happened")).to_be_visible()
    seen = watcher.locator(".latest")
    expect(seen.get_by_role("heading", name="What just happened")).to_be_visible()
    expect(seen.get_by_text(re.compile(f"^{re.escape(mover_as)}'s .+ uses .+\\.$"))).to_be_visible()
    for page in (invited, inviter):
        expect(page.get_by_text(re.compile("computer", re.IGNORECASE))).to_have_count(0)
    shot(watcher, "quest-pvp-seen")


def chronovore_crafting(browser: Browser, url: str, names: list[str]) -> None:
    """A player with opened packs, a saved deck and a Diamond pack (prepared by the test):
    the prices, a loose copy shredded (the fragments it paid), a craft refused as the server
    words it (short of fragments), a Common card crafted, and the Diamond pack sold back."""
    [name] = names
    page = new_page(browser)
    signed_in_at(page, url, "#/chronovore/crafting", name)
    expect(page.get_by_role("heading", name="Shred and craft", level=1)).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Card Fragments: 0\."))).to_be_visible()
    page.get_by_text("What each rarity and finish pays and costs").click()
    prices = page.get_by_role("table", name="Card Fragments per copy")
    expect(prices.get_by_role("row", name=re.compile(r"^Rare Plain 16 80 80 2$"))).to_be_visible()
    expect(prices.get_by_role("row", name=re.compile(r"^Common Golden 4 20 20 4$"))).to_be_visible()

    shredded = re.compile(
        r"^You shredded a (Plain|Golden) .+: \+(\d+) Card Fragments\. Balance: (\d+)\.$"
    )
    balance = 0
    while balance < 5:  # loose copies shredded until a Plain Common craft is affordable
        page.get_by_role("button", name=re.compile(r"^Shred a (Plain|Golden) ")).first.click()
        said = page.get_by_text(shredded)
        expect(said).to_be_visible()
        found = shredded.match(said.inner_text())
        assert found and int(found.group(3)) == balance + int(found.group(2)), said.inner_text()
        balance = int(found.group(3))
        expect(page.get_by_text(re.compile(rf"^Card Fragments: {balance}\."))).to_be_visible()
    shot(page, "chronovore-crafting")

    page.get_by_label("Rarity").select_option("mythic")
    page.get_by_role(
        "button", name=re.compile(r"^Craft a Golden .+ for 5120 Card Fragments$"), disabled=False
    ).first.click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("insufficient_funds")
    expect(page.get_by_text(re.compile(rf"^Card Fragments: {balance}\."))).to_be_visible()

    page.get_by_label("Rarity").select_option("common")
    page.get_by_role(
        "button", name=re.compile(r"^Craft a Plain .+ for 5 Card Fragments$"), disabled=False
    ).first.click()
    crafted = page.get_by_text(
        re.compile(rf"^You crafted a Plain .+ for 5 Card Fragments\. Balance: {balance - 5}\.$")
    )
    expect(crafted).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Packs").click()
    expect(page.get_by_role("heading", name="Diamond Core Set Pack", exact=True)).to_be_visible()
    expect(
        page.get_by_text(
            "An unopened Diamond Core Set Pack sells back for its full price: 2000 Gold."
        )
    ).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Sell a Diamond Core Set Pack back").click()
    expect(
        page.get_by_text(
            re.compile(r"^You sold a Diamond Core Set Pack back: \+2000 Gold, balance \d+\.$")
        )
    ).to_be_visible()
    expect(page.get_by_role("button", name="Sell a Diamond Core Set Pack back")).to_have_count(0)
    shot(page, "chronovore-pack-sold")


JOURNEYS: dict[str, Callable[[Page], None]] = {
    "first_visit": first_visit,
    "quest_tour": quest_tour,
    "terrakard_tour": terrakard_tour,
    "quest_first_hour": quest_first_hour,
    "terrakard_first_hour": terrakard_first_hour,
    "chronovore_first_hour": chronovore_first_hour,
}
# Journeys that start somewhere else than the page's front door.
JOURNEYS_FROM_URL: dict[str, Callable[[Page, str], None]] = {"chronovore_tour": chronovore_tour}
# Journeys that open their own pages (two players), for players the test prepared by name.
JOURNEYS_OF_PLAYERS: dict[str, Callable[[Browser, str, list[str]], None]] = {
    "account_deletion": account_deletion,
    "author_publishing": author_publishing,
    "author_review_queue": author_review_queue,
    "chronovore_pvp": chronovore_pvp,
    "chronovore_crafting": chronovore_crafting,
    "deleted_sign_in": deleted_sign_in,
    "quest_pvp": quest_pvp,
    "terrakard_defense": terrakard_defense,
}


def run(journey: str, url: str, names: list[str]) -> int:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            if journey in JOURNEYS_OF_PLAYERS:
                JOURNEYS_OF_PLAYERS[journey](browser, url, names)
            elif journey in JOURNEYS_FROM_URL:
                JOURNEYS_FROM_URL[journey](new_page(browser), url)
            else:
                page = new_page(browser)
                page.goto(url)
                JOURNEYS[journey](page)
        except Exception:
            traceback.print_exc()
            for n, (opened, console) in enumerate(PAGES, start=1):
                print(f"--- page {n}: its console ---", *console, sep="\n")
                print(f"--- page {n}: its text ---", opened.inner_text("body"), sep="\n")
            return 1
        finally:
            browser.close()
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "journey", choices=sorted([*JOURNEYS, *JOURNEYS_FROM_URL, *JOURNEYS_OF_PLAYERS])
    )
    parser.add_argument("url")
    parser.add_argument("names", nargs="*", help="the players the test prepared, by name")
    args = parser.parse_args()
    sys.exit(run(args.journey, args.url, args.names))


if __name__ == "__main__":
    main()

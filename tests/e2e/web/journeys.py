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
import os
import re
import sys
import traceback
import uuid
from collections.abc import Callable

from playwright.sync_api import Page, expect, sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
expect.set_options(timeout=20_000)  # a wait on what the page shows, bounded, never a sleep


def sign_in(page: Page, name: str, role: str = "Player") -> None:
    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    page.get_by_label("Name").fill(name)
    page.get_by_role("radio", name=re.compile(f"^{role}")).check()
    page.get_by_role("button", name=f"Sign in as {name}").click()


def first_visit(page: Page) -> None:
    """A new player signs in, picks a starter, and finds its cards in the collection."""
    name = f"web-{uuid.uuid4().hex[:8]}"
    sign_in(page, name)

    expect(page.get_by_text("Welcome! Your account was just created.")).to_be_visible()
    page.get_by_role("link", name="choose your starter cards").click()

    expect(page.get_by_role("heading", name="Choose your starter", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Choose an affinity")).to_be_disabled()
    page.get_by_role("radio", name=re.compile(r"^Grit")).check()
    page.get_by_role("button", name="Choose Grit").click()

    expect(page.get_by_role("heading", name="Your starter", level=1)).to_be_visible()
    starter_cards = page.get_by_role("list", name="Starter cards").get_by_role("listitem")
    expect(starter_cards).to_have_count(5)
    names = [re.sub(r" \(.*", "", text) for text in starter_cards.all_inner_texts()]

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Cards").click()
    expect(page.get_by_role("heading", name="Your collection", level=1)).to_be_visible()
    expect(page.get_by_text("5 cards, starter affinity Grit.")).to_be_visible()
    table = page.get_by_role("table", name="Cards you own")
    for card in names:
        expect(table.get_by_role("rowheader", name=card)).to_be_visible()
    expect(table.get_by_role("row")).to_have_count(1 + 5)  # the header and the five cards


TRAFALGAR_SQUARE = {"latitude": 51.5080, "longitude": -0.1281, "accuracy": 10}  # demo content


def quest_tour(page: Page) -> None:
    """Starter, an event challenge from a granted position, a deck, a CPU battle's first turn."""
    sign_in(page, f"web-{uuid.uuid4().hex[:8]}")
    page.get_by_role("link", name="choose your starter cards").click()
    page.get_by_role("radio", name=re.compile(r"^Wit")).check()
    page.get_by_role("button", name="Choose Wit").click()
    expect(page.get_by_role("heading", name="Your starter", level=1)).to_be_visible()

    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Events").click()
    page.get_by_role("button", name="Find events near me").click()
    events = page.get_by_role("list", name="Events near you")
    expect(events.get_by_role("heading", name="Trafalgar Square")).to_be_visible()
    expect(events.get_by_text("You are inside the area.").first).to_be_visible()
    page.get_by_role("button", name="Start the challenge at Trafalgar Square").click()

    expect(page.get_by_role("heading", name="Challenge", level=1)).to_be_visible()
    expect(page.get_by_text(re.compile(r"Time left: ?\d:\d\d"))).to_be_visible()
    for n in range(1, 6):
        group = page.get_by_role("group", name=re.compile(f"^Question {n} of 5"))
        radios = group.get_by_role("radio")
        if radios.count():
            radios.first.check()
        page.get_by_role("button", name=f"Lock answer {n}").click()
        expect(group.get_by_text(re.compile("Locked:"))).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"Result: \d of 5 correct"))).to_be_visible()
    expect(page.get_by_role("heading", name="Reward")).to_be_visible()

    nav.get_by_role("link", name="Decks").click()
    page.get_by_role("link", name="New deck").click()
    page.get_by_label("Deck name").fill("Evening walk")
    for card in ("Field Kit", "Reserve Focus"):
        page.get_by_role("button", name=f"Add {card}").click()
    expect(page.get_by_text("✗ Creatures: 0 of 3")).to_be_visible()
    for _ in range(3):
        page.get_by_role("list", name="Your cards").get_by_role(
            "button", name=re.compile("^Add"), disabled=False
        ).first.click()
    expect(page.get_by_text("This deck is legal.")).to_be_visible()
    page.get_by_role("button", name="Save deck").click()
    expect(page.get_by_role("heading", name="Deck: Evening walk", level=1)).to_be_visible()

    nav.get_by_role("link", name="Battle").click()
    page.get_by_role("button", name="Battle the computer").click()
    expect(page.get_by_text("Choose the Creature you send out first.")).to_be_visible()
    page.get_by_role("button", name=re.compile("^Send out")).first.click()
    expect(page.get_by_role("heading", name="What just happened")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Turn time left: ?1:\d\d|Waiting"))).to_be_visible()
    page.get_by_role("button", name=re.compile("^Use ")).first.click()
    expect(page.get_by_text(re.compile("Action log \\(\\d+\\)"))).to_be_visible()


JOURNEYS: dict[str, Callable[[Page], None]] = {"first_visit": first_visit, "quest_tour": quest_tour}


def run(journey: str, url: str) -> int:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(
            viewport=PHONE,
            locale="en-GB",
            geolocation=TRAFALGAR_SQUARE,
            permissions=["geolocation"],
        )
        context.set_default_timeout(20_000)
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
        try:
            page.goto(url)
            JOURNEYS[journey](page)
        except Exception:
            traceback.print_exc()
            print("--- the page's console ---", *console, sep="\n")
            print("--- the page's text ---", page.inner_text("body"), sep="\n")
            return 1
        finally:
            browser.close()
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("journey", choices=sorted(JOURNEYS))
    parser.add_argument("url")
    args = parser.parse_args()
    sys.exit(run(args.journey, args.url))


if __name__ == "__main__":
    main()

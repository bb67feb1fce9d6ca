"""TerraKard's defense report and the replay of an attack, from both seats, for an attack
the test played over the API (terrakard_players.py): the defender finds it among the
attacks against them, reads the report (each round's cards and damage) and steps through
the attack; the attacker finds it among their own attacks, watches it again, and opens
the victory pack it earned (odds first)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.web.browser import new_page, shot, signed_in_at


def watch_round_by_round(page: Page) -> None:
    """The replay from step 1, a step at a time until a round's damage is told, then to
    the end, where the attack is over."""
    title = page.get_by_role("heading", name=re.compile(r"^Watch again: step \d+ of \d+$"))
    expect(title).to_have_text(re.compile(r"step 1 of \d+$"))
    steps = int(re.sub(r".* of ", "", title.inner_text()))
    step = page.get_by_role("list", name=re.compile(r"^Step \d+$"))
    for n in range(2, steps + 1):
        if step.get_by_text(re.compile(r"^Round \d: \d+ damage")).count():
            break
        page.get_by_role("button", name="Next step").click()
        expect(title).to_have_text(re.compile(f"step {n} of {steps}$"))
    expect(step.get_by_text(re.compile(r"^Round \d: \d+ damage")).first).to_be_visible()
    expect(
        page.get_by_text(re.compile(r"^Hit points now: attacker \d+, defense \d+\."))
    ).to_be_visible()
    page.get_by_role("button", name="Go to the end").click()
    expect(title).to_have_text(re.compile(f"step {steps} of {steps}$"))
    expect(step.get_by_text(re.compile("^The attack is over"))).to_be_visible()
    expect(page.get_by_role("button", name="Next step")).to_be_disabled()


def open_the_victory_pack(page: Page, pack: str) -> None:
    """From the TerraKard nav, the packs: the one unopened ``pack`` (its name), its odds
    shown before the opening, then the opening and its cards."""
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Packs").click()
    expect(page.get_by_role("heading", name="TerraKard packs", level=1)).to_be_visible()
    mine = page.get_by_role("region", name=pack, exact=True)
    expect(mine.get_by_text("You have 1 unopened.")).to_be_visible()
    odds = mine.get_by_role("group", name=f"Odds of a {pack}")
    expect(odds).to_be_visible()  # open before any opening: the player has one
    expect(odds.get_by_role("row", name=re.compile(r"^Common \d+\/\d+ \("))).to_be_visible()
    size = int(odds.get_by_text(re.compile(r"^\d+ cards a pack\.")).inner_text().split()[0])
    mine.get_by_role("button", name=f"Open a {pack}").click()
    expect(page.get_by_role("heading", name=f"You opened {size} cards")).to_be_visible()
    opened = page.get_by_role("list", name="Cards in the pack")
    expect(opened.get_by_role("article")).to_have_count(size)
    expect(opened.get_by_role("article").first).to_contain_text(
        re.compile(r"(Common|Uncommon|Rare|Epic|Legendary) · Standard")
    )
    expect(page.get_by_role("link", name="Verify it")).to_be_visible()
    expect(mine.get_by_text("You have 0 unopened.")).to_be_visible()
    shot(page, "terrakard-pack-opened")


def terrakard_defense(browser: Browser, url: str, args: list[str]) -> None:
    """``args``: the defender's name and pseudonym, the attacker's name and pseudonym,
    the name of the victory pack the attack earned."""
    defender, defender_as, attacker, attacker_as, pack = args
    page = new_page(browser)
    signed_in_at(page, url, "#/terrakard/reports", defender)
    expect(page.get_by_role("heading", name="Defense reports", level=1)).to_be_visible()
    reports = page.get_by_role("list", name="Attacks against you")
    expect(reports.get_by_role("listitem")).to_have_count(1)
    shot(page, "terrakard-reports")
    reports.get_by_role("link", name=re.compile(f"^{attacker_as}, ")).click()
    expect(
        page.get_by_role("heading", name=f"Defense report: {attacker_as}", level=1)
    ).to_be_visible()
    expect(page.get_by_text(re.compile(r"^✗ The attacker won"))).to_be_visible()
    rounds = page.get_by_role("table", name="Rounds").get_by_role("row")
    expect(rounds.nth(1)).to_contain_text(re.compile(r"^1"))
    expect(
        page.get_by_role("definition").filter(has_text="your saved plan, posture cautious")
    ).to_be_visible()
    shot(page, "terrakard-report")
    watch_round_by_round(page)
    shot(
        page,
        "terrakard-report-replay",
        of=page.get_by_role("heading", name=re.compile("^Watch again")),
    )

    seat = new_page(browser)
    signed_in_at(seat, url, "#/terrakard/attacks", attacker)
    expect(seat.get_by_role("heading", name="Your attacks", level=1)).to_be_visible()
    attacks = seat.get_by_role("list", name="Your attacks, newest first")
    expect(attacks.get_by_role("listitem")).to_have_count(2)  # this one and the tutorial
    expect(attacks.get_by_role("listitem").first.get_by_role("link")).to_have_text(defender_as)
    expect(attacks.get_by_role("listitem").first).to_contain_text(
        re.compile(r": Victory: (one|two|three) stars?, \d rounds?$")
    )
    tutorial = attacks.get_by_role("listitem").nth(1)
    expect(tutorial.get_by_role("link")).to_have_text("Training plan (the tutorial)")
    expect(tutorial).to_contain_text(": You gave up (a defeat), 0 rounds")
    shot(seat, "terrakard-attacks")
    attacks.get_by_role("link").first.click()
    expect(seat.get_by_role("heading", name=f"Attack on {defender_as}", level=1)).to_be_visible()
    expect(seat.get_by_role("heading", name=re.compile("^Result:"))).to_be_visible()
    seat.get_by_role("button", name="Watch the attack again").click()
    watch_round_by_round(seat)
    open_the_victory_pack(seat, pack)

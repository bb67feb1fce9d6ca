"""TerraKard's defense report and the replay of an attack, from both seats, for an attack
the test played over the API (terrakard_players.py): the defender finds it among the
attacks against them, reads the report (each round's cards and damage) and steps through
the attack; the attacker finds it among their own attacks and watches it again."""

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


def terrakard_defense(browser: Browser, url: str, args: list[str]) -> None:
    """``args``: the defender's name and pseudonym, the attacker's name and pseudonym."""
    defender, defender_as, attacker, attacker_as = args
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
    expect(
        page.get_by_text(re.compile(r"^(✓ Your defense held\.|✗ The attacker won)"))
    ).to_be_visible()
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
        re.compile(r": (Victory: (one|two|three) stars?|Defeat), \d rounds?$")
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

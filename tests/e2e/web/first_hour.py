"""The first hour of each game, as a new player on a phone lives it (issue 30, item 6):
signed in from the front door, the starter or starting collection, a first match or
attack played to its end, a first pack opened; on what a fresh install's own seed
publishes (``deckyard seed``, demo content included: conftest.seed_catalogue), never a
test's own cards.

Every press is a tap (the page is a touch phone's: browser.new_page); every screen passed
is checked to fit the phones and to have written no error to the browser's console, and
is pictured as ``first-hour-<game>-NN-<screen>`` when SCREENSHOTS_DIR is set
(docs/client.md, "First hour").
"""

from __future__ import annotations

import json
import re
import uuid
from itertools import combinations
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from tests.e2e.web.browser import PAGES, shot

SEED = Path(__file__).resolve().parents[3] / "services" / "authoring" / "seed"


class Album:
    """One game's first hour, screen by screen: each checked, then numbered in order."""

    def __init__(self, page: Page, game: str) -> None:
        self.page, self.game, self.taken = page, game, 0

    def screen(self, what: str, of: Locator | None = None) -> None:
        """The screen fits every phone (browser.shot) and the console has no error."""
        self.taken += 1
        shot(self.page, f"first-hour-{self.game}-{self.taken:02d}-{what}", of)
        console = next(messages for opened, messages in PAGES if opened is self.page)
        errors = [message for message in console if message.startswith("error:")]
        assert not errors, f"the {what} screen wrote errors to the console: {errors}"


def tap_sign_in(page: Page) -> None:
    """A new player on the development sign-in page, by taps."""
    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    name = f"web-{uuid.uuid4().hex[:8]}"
    page.get_by_label("Name").fill(name)
    page.get_by_role("radio", name=re.compile("^Player")).tap()
    page.get_by_role("button", name=f"Sign in as {name}").tap()
    expect(page.get_by_text("Welcome! Your account was just created.")).to_be_visible()


def tap_add(page: Page, cards: str, times: int) -> None:
    """The first card of the list ``cards`` that may still be added, ``times`` times."""
    for _ in range(times):
        page.get_by_role("list", name=cards).get_by_role(
            "button", name=re.compile("^Add "), disabled=False
        ).first.tap()


def main_link(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).tap()


def quest_first_hour(page: Page) -> None:
    """Quest: the starter, a deck of it, a battle against the computer to its end, then
    the demo event's challenge and its reward (Quest has no packs: its cards are won at
    events)."""
    album = Album(page, "quest")
    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    album.screen("sign-in")
    tap_sign_in(page)
    album.screen("home")
    page.get_by_role("link", name="choose your starter cards").tap()
    page.get_by_role("radio", name=re.compile(r"^Grit")).tap()
    page.get_by_role("button", name="Choose Grit").tap()
    expect(page.get_by_role("heading", name="Your starter", level=1)).to_be_visible()
    expect(page.get_by_role("list", name="Starter cards").get_by_role("article")).to_have_count(5)
    album.screen("starter")

    main_link(page, "Decks")
    page.get_by_role("link", name="New deck").tap()
    page.get_by_label("Deck name").fill("First deck")
    tap_add(page, "Your cards", 5)
    expect(page.get_by_text("This deck is legal.")).to_be_visible()
    album.screen("deck")
    page.get_by_role("button", name="Save deck").tap()
    expect(page.get_by_role("heading", name="Deck: First deck", level=1)).to_be_visible()

    main_link(page, "Battle")
    page.get_by_role("button", name="Battle the computer").tap()
    expect(page.get_by_text("Choose the Creature you send out first.")).to_be_visible()
    album.screen("battle-start")
    finished = page.get_by_text(re.compile(r"^Finished: you (won|lost)"))
    move = page.get_by_role(
        "button", name=re.compile("^(Send out |Use |Play |Swap in )"), disabled=False
    ).first
    log = page.get_by_text(re.compile(r"^Action log \(\d+\)$"))
    for _ in range(150):  # a Quest battle against the computer ends long before
        expect(finished.or_(move)).to_be_visible()
        if finished.is_visible():
            break
        before = log.inner_text() if log.is_visible() else ""
        move.tap()
        # The board moved on (the log grew): the next tap is on the next turn's buttons.
        expect(log).not_to_have_text(before)
    expect(finished).to_be_visible()
    album.screen("battle-over")

    main_link(page, "Events")
    page.get_by_role("button", name="Find events near me").tap()
    events = page.get_by_role("list", name="Events near you")
    expect(events.get_by_text("You are inside the area.").first).to_be_visible()
    album.screen("events")
    page.get_by_role("button", name="Start the challenge at Trafalgar Square").first.tap()
    expect(page.get_by_role("heading", name="Challenge", level=1)).to_be_visible()
    album.screen("challenge")
    answers = seeded_answers()
    for n in range(1, 6):
        group = page.get_by_role("group", name=re.compile(f"^Question {n} of 5: "))
        known = answers[group.locator("legend").inner_text().split(": ", 1)[1]]
        group.get_by_role("radio", name=known, exact=True).tap()
        page.get_by_role("button", name=f"Lock answer {n}").tap()
        expect(group.get_by_text(re.compile("Locked:"))).to_be_visible()
    expect(page.get_by_role("heading", name="Result: 5 of 5 correct")).to_be_visible()
    won = page.get_by_role("list", name="Cards won").get_by_role("listitem")
    expect(won.first).to_be_visible()  # five correct: one card, or two
    album.screen("reward", of=page.get_by_role("heading", name="Reward"))


def seeded_answers() -> dict[str, str]:
    """Each demo question's prompt and its right answer, from the seed's own file: the
    journey plays a player who knows them (five correct always win a card)."""
    content = json.loads((SEED / "quest_content.json").read_text())
    return {
        question["body"]["prompt"]: next(
            choice["text"] for choice in question["body"]["choices"] if choice["correct"]
        )
        for question in content["questions"]
        if "choices" in question["body"]  # the geography challenge's are all multiple choice
    }


def terrakard_first_hour(page: Page) -> None:
    """TerraKard: the starting collection claimed, an attack deck within the budget, the
    tutorial played to its end, then an attack on a demo defender from the arena to its
    end, and the victory pack it won opened."""
    album = Album(page, "terrakard")
    tap_sign_in(page)
    page.get_by_role("navigation", name="Games").get_by_role("link", name="TerraKard").tap()
    page.get_by_role("button", name="Claim your starting collection").tap()
    cards = page.get_by_role("list", name="Your TerraKard cards").get_by_role("article")
    expect(cards).to_have_count(10)
    budget_said = page.get_by_text(re.compile(r"an attack deck may cost up to \d+"))
    found = re.search(r"cost up to (\d+)", budget_said.inner_text())
    assert found, budget_said.inner_text()
    album.screen("collection")

    main_link(page, "Attack decks")
    page.get_by_role("link", name="New attack deck").tap()
    page.get_by_label("Deck name").fill("First raid")
    tap_strongest_deck(page, int(found.group(1)))
    expect(page.get_by_text("Ready to save: every rule holds.")).to_be_visible()
    album.screen("deck")
    page.get_by_role("button", name="Save deck").tap()
    expect(page.get_by_role("heading", name="Attack deck: First raid", level=1)).to_be_visible()

    main_link(page, "Arena")
    tutorial = page.get_by_role("button", name="Play the tutorial")
    expect(tutorial).to_be_visible()
    album.screen("arena-tutorial", of=tutorial)
    tutorial.tap()
    expect(page.get_by_role("heading", name="Attack on Training plan", level=1)).to_be_visible()
    attack_to_the_end(page)
    album.screen("tutorial-over")

    main_link(page, "Arena")
    demo = page.get_by_role("button", name=re.compile(r"^Attack .+ \(demo\)$"), disabled=False)
    expect(demo.first).to_be_visible()
    album.screen("arena-targets", of=demo.first)
    demo.first.tap()
    expect(page.get_by_role("heading", name=re.compile(r"^Attack on .+ \(demo\)$"))).to_be_visible()
    attack_to_the_end(page)
    won = re.compile(r"^Result: \S+ (One star|Two stars|Three stars)$")
    expect(page.get_by_role("heading", name=won)).to_be_visible()
    album.screen("attack-won")

    main_link(page, "Packs")
    expect(page.get_by_role("heading", name="TerraKard packs", level=1)).to_be_visible()
    opener = page.get_by_role("button", name=re.compile(r"^Open a .+ Pack$")).first
    expect(opener).to_be_visible()
    album.screen("packs", of=opener)
    opener.tap()
    opened = page.get_by_role("heading", name=re.compile(r"^You opened \d+ cards$"))
    expect(opened).to_be_visible()
    album.screen("pack-opened", of=opened)


TK_STATS = re.compile(r"Cost (\d+) .*ATK (\d+) .*DEF (\d+)")


def stats_of(card: Locator) -> tuple[int, int, int]:
    """A TerraKard card's cost, ATK and DEF, as its face shows them."""
    found = TK_STATS.search(" ".join(card.inner_text().split()))
    assert found, card.inner_text()
    cost, atk, defence = (int(number) for number in found.groups())
    return cost, atk, defence


def tap_strongest_deck(page: Page, budget: int) -> None:
    """The eight cards of most ATK + DEF the budget allows, as a player who weighs their
    cards would pick them (tests/e2e/terrakard/test_demo_defenders.py: such a deck beats
    the gentlest demo defender), each added by a tap."""
    offered = [
        (card.get_attribute("aria-label") or "", *stats_of(card))
        for card in page.get_by_role("list", name="Your cards").get_by_role("article").all()
    ]
    best = max(
        (deck for deck in combinations(offered, 8) if sum(c[1] for c in deck) <= budget),
        key=lambda deck: sum(c[2] + c[3] for c in deck),
    )
    for name, *_ in best:
        page.get_by_role("button", name=f"Add {name}", exact=True, disabled=False).first.tap()


def attack_to_the_end(page: Page) -> None:
    """An attack from its reconnaissance to its result: each round the card of most ATK
    that may be played, each knowledge question skipped (a question's answer is the
    player's knowledge, not the client's)."""
    page.get_by_role("button", name="Begin the attack").tap()
    result = page.get_by_role("heading", name=re.compile("^Result:"))
    choose = page.get_by_text(re.compile(r"choose a card\.$"))
    question = page.get_by_role("button", name="Skip the question")
    for _ in range(10):  # five rounds, each with a question at most
        expect(choose.or_(question).or_(result)).to_be_visible()
        if result.is_visible():
            break
        if question.is_visible():
            question.tap()
            expect(question).to_have_count(0)
            continue
        said = choose.inner_text()
        playable = [
            card
            for card in page.get_by_role("list", name="Your deck").get_by_role("article").all()
            if card.get_by_role("button", name=re.compile("^Play "), disabled=False).count()
        ]
        strongest = max(playable, key=lambda card: stats_of(card)[1])
        strongest.get_by_role("button", name=re.compile("^Play ")).tap()
        expect(page.get_by_text(said, exact=True)).to_have_count(0)
    expect(result).to_be_visible()


def chronovore_first_hour(page: Page) -> None:
    """Chronovore: the starting packs (the first opened on its own, its odds shown first;
    the rest at once, the Golden one kept), a class deck of 30, a whole match against the
    computer placed and locked in by taps, then the Golden pack opened."""
    album = Album(page, "chronovore")
    tap_sign_in(page)
    page.get_by_role("navigation", name="Games").get_by_role("link", name="Chronovore").tap()
    core = page.get_by_role("button", name="Open a Core Set Pack")
    for _ in range(30):  # the starting packs are granted when cards welcomes the player
        main_link(page, "Wallet")
        expect(page.get_by_role("heading", name="Chronovore wallet", level=1)).to_be_visible()
        main_link(page, "Packs")
        expect(page.get_by_role("heading", name="Core Set Pack", exact=True)).to_be_visible()
        if core.is_visible():
            break
    expect(page.get_by_text("You have 30 unopened.")).to_be_visible()
    album.screen("packs", of=page.get_by_role("group", name="Odds of a Core Set Pack"))
    core.tap()
    opened = page.get_by_role("list", name="Cards in the pack").first
    expect(opened.get_by_role("article")).to_have_count(5)
    album.screen("first-pack", of=opened)
    page.get_by_role("button", name="Open all 29").tap()
    expect(page.get_by_text("Opened 29 packs; the last one first.")).to_be_visible(timeout=90_000)

    main_link(page, "Decks")
    page.get_by_role("link", name="New Chronovore deck").tap()
    page.get_by_label("Deck name").fill("First deck")
    page.get_by_role("radio", name=re.compile("^Medic")).tap()
    tap_add(page, "Your Medic and Neutral cards", 30)
    expect(page.get_by_text("This list is legal.")).to_be_visible()
    album.screen("deck")
    page.get_by_role("button", name="Save deck").tap()
    expect(page.get_by_text("✓ Legal: it can be played.")).to_be_visible()

    main_link(page, "Match")
    page.get_by_role("button", name="Play the computer").tap()
    expect(page.get_by_role("heading", name="Chronovore match", level=1)).to_be_visible()
    over = page.get_by_text(re.compile(r"^The match is over: (you won|you lost|a draw)")).first
    for round_ in range(1, 6):
        turn = page.get_by_text(re.compile(rf"^Round {round_} of 5\. Place up to 4"))
        expect(turn.or_(over)).to_be_visible()
        if over.is_visible():
            break
        tap_a_row(page)
        if round_ == 1:
            album.screen("row", of=page.get_by_role("list", name="Your row"))
        page.get_by_role("button", name="Lock in").tap()
        expect(page.get_by_role("heading", name=f"Round {round_} resolved")).to_be_visible()
        show_all = page.get_by_role("button", name="Show every pair now")
        if show_all.is_visible():
            show_all.tap()
        if round_ == 1:
            album.screen("resolution")
    expect(over).to_be_visible()
    album.screen("match-over")

    main_link(page, "Packs")
    golden = page.get_by_role("button", name="Open a Golden Core Set Pack")
    golden.tap()
    opened = page.get_by_role("list", name="Cards in the pack").first
    expect(opened.get_by_role("article")).to_have_count(5)
    album.screen("golden-pack", of=opened)


def tap_a_row(page: Page) -> None:
    """A hand card tapped, then the first slot offered for it, while one is offered."""
    hand = page.get_by_role("list", name=re.compile(r"^Your hand"))
    place = page.get_by_role("button", name=re.compile(r"^Place .+ in slot \d$"))
    slotted = page.get_by_role("list", name="Your row").get_by_role(
        "button", name=re.compile(r"^Slot \d: ")
    )
    for _ in range(4):
        card = hand.get_by_role("button", disabled=False).first
        if card.count() == 0:
            return
        card.tap()
        if place.count() == 0:  # nowhere it may go: put it down, the row is done
            card.tap()
            return
        placed = slotted.count()
        place.first.tap()
        expect(slotted).to_have_count(placed + 1)

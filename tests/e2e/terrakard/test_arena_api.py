"""TerraKard's arena through the gateway on the real stack, the battle service on a
``FixedClock`` that only the tests move: the tutorial, tickets spent and refilled over
time, new-player protection, the shield after a heavy defeat (and lifted by attacking),
the target rules, and the rewards after an attack (a victory pack by stars, a rampart
token per defense won, exchanged for a Rampart Pack), trophies, experience and the daily
objectives (docs/terrakard.md, "The arena (ours)")."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from games.terrakard.arena import ARENA
from games.terrakard.content import Category, category_multiplier
from shared.config import SERVICE_NAMES
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.terrakard.support import next_clock
from tests.e2e.terrakard.test_attack_api import UNLIMITED, Player, authors, catalogue, commons
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

__all__ = ["authors", "catalogue"]

AFTER_PROTECTION = ARENA.new_player_protection + timedelta(hours=1)


@pytest.fixture
def clock():
    """The battle service's time: it moves only when the test moves it."""
    return next_clock()


@pytest.fixture
def platform(start_service, start_gateway, settings, clock):
    """As tests/e2e/conftest.py's, without rate limits, battle on ``clock``."""
    gateway = start_gateway(settings, MAX_BODY_BYTES=settings.max_body_bytes, **UNLIMITED)
    containers = {
        name: start_service(name, replacements={"clock": clock} if name == "battle" else None)
        for name in SERVICE_NAMES
    }
    containers["gateway"] = gateway.wait()
    return containers


class Arena(Player):
    """A TerraKard player: collection claimed, an attack deck saved."""

    def __init__(self, api, name: str, names: list[str]) -> None:
        super().__init__(api, name)
        self.id = self.ok("GET", "/me")["id"]
        self.cards = self.start(names)["cards"]
        self.deck = self.save_deck([c["id"] for c in commons(self.collection())])

    def collection(self) -> dict[str, Any]:
        return self.ok("GET", "/terrakard/collection")

    def save_deck(self, cards: list[str]) -> dict[str, Any]:
        return self.ok("POST", "/terrakard/decks", {"name": "Deck", "cards": cards})

    @property
    def pseudonym(self) -> str:
        return "Keeper-" + hashlib.sha256(self.id.encode()).hexdigest()[:6]

    def profile(self) -> dict[str, Any]:
        return self.ok("GET", "/terrakard/profile")

    def arena(self) -> dict[str, Any]:
        return self.ok("GET", "/terrakard/arena")

    def target_of(self, other: Arena) -> str | None:
        return next(
            (t["targetId"] for t in self.arena()["items"] if t["pseudonym"] == other.pseudonym),
            None,
        )

    def act(self, attack: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        body = {"expectedVersion": attack["version"], "action": action}
        return self.ok("POST", f"/terrakard/attacks/{attack['id']}/actions", body)

    def tutorial(self) -> dict[str, Any]:
        """The tutorial, given up at once: it is finished whatever the result."""
        response = self.call("POST", "/terrakard/tutorial", {"deckId": self.deck["id"]})
        assert response.status_code == 201, response.text
        started = response.json()
        assert started["mode"] == "tutorial" and started["defender"] == "Training plan"
        return self.act(started, {"kind": "give_up"})

    def attack(self, target: str, deck: dict[str, Any] | None = None):
        body = {"deckId": (deck or self.deck)["id"], "targetId": target}
        return self.call("POST", "/terrakard/attacks", body)

    def attack_and_give_up(self, target: str) -> dict[str, Any]:
        response = self.attack(target)
        assert response.status_code == 201, response.text
        return self.act(response.json(), {"kind": "give_up"})


def players(api, catalogue, count: int) -> Iterator[Arena]:
    for i in range(count):
        yield Arena(api, f"arena{i}", catalogue)


def ready(api, catalogue, clock, count: int) -> list[Arena]:
    """``count`` players past the tutorial and past new-player protection."""
    found = list(players(api, catalogue, count))
    for player in found:
        assert player.tutorial()["status"] == "finished"
    clock.advance(AFTER_PROTECTION.total_seconds())
    return found


def test_the_tutorial_and_new_player_protection_decide_who_may_be_attacked(
    api, catalogue, clock, rpc
):
    newcomer, veteran, fresh = players(api, catalogue, 3)
    start = clock.now()
    first = newcomer.profile()
    assert first["tickets"] == ARENA.max_tickets and first["nextTicketAt"] is None
    assert not first["tutorialFinished"] and first["level"] == 1 and first["trophies"] == 0
    assert first["protectedUntil"] == (start + ARENA.new_player_protection).isoformat()
    # No attack before the tutorial; the tutorial costs no ticket and is played once.
    assert veteran.profile()["tickets"] == ARENA.max_tickets
    assert veteran.arena()["items"] == []
    assert veteran.tutorial()["outcome"] == "forfeit"
    assert_problem(
        veteran.call("POST", "/terrakard/tutorial", {"deckId": veteran.deck["id"]}),
        409,
        "tutorial_finished",
    )
    after = veteran.profile()
    assert after["tutorialFinished"] and after["tickets"] == ARENA.max_tickets
    assert after["experience"] == ARENA.tutorial_experience
    newcomer.tutorial()
    # Both finished the tutorial, both are still new: protected, not offered.
    assert veteran.target_of(newcomer) is None
    clock.advance(AFTER_PROTECTION.total_seconds())
    target = veteran.target_of(newcomer)
    assert target is not None
    # A player who has not finished the tutorial is never offered, nor attackable.
    assert veteran.target_of(fresh) is None
    fresh.profile()
    assert_problem(veteran.attack(target_id_of(rpc, fresh)), 409, "target_not_allowed")
    assert_problem(fresh.attack(target), 409, "tutorial_not_finished")
    assert fresh.profile()["tickets"] == ARENA.max_tickets  # a refusal spends nothing


def target_id_of(rpc, player: Arena) -> str:
    """A player's arena id as cards keeps it (the arena never offers this one)."""
    return str(rpc.cards.terrakard_targets_of(player_ids=[player.id])[0]["target_id"])


def test_tickets_are_spent_one_per_attack_and_refill_over_time(api, catalogue, clock):
    attacker, *defenders = ready(api, catalogue, clock, ARENA.max_tickets + 2)
    targets = [attacker.target_of(d) for d in defenders]
    assert all(targets)
    start = clock.now()
    for target in targets[: ARENA.max_tickets]:
        assert attacker.attack_and_give_up(target)["outcome"] == "forfeit"
    empty = attacker.profile()
    assert empty["tickets"] == 0
    assert empty["nextTicketAt"] == (start + ARENA.ticket_refill).isoformat()
    refused = attacker.attack(targets[-1])
    assert_problem(refused, 409, "no_ticket")
    assert refused.json()["nextTicketAt"] == empty["nextTicketAt"]
    clock.advance((ARENA.ticket_refill - timedelta(microseconds=1)).total_seconds())
    assert_problem(attacker.attack(targets[-1]), 409, "no_ticket")
    clock.advance(microseconds=1)
    assert attacker.profile()["tickets"] == 1
    assert attacker.attack_and_give_up(targets[-1])["outcome"] == "forfeit"
    clock.advance((ARENA.ticket_refill * (ARENA.max_tickets + 3)).total_seconds())
    assert attacker.profile()["tickets"] == ARENA.max_tickets  # never beyond the maximum

    # Every defense won earned its defender a rampart token (delivered to cards).
    def tokens(player: Arena) -> int:
        wallet = player.ok("GET", "/terrakard/wallet")["balances"]
        return next(b["balance"] for b in wallet if b["currency"] == "rampart_tokens")

    assert wait_for(lambda: tokens(defenders[0]) == 1)
    assert defenders[0].profile()["trophies"] == ARENA.defense_trophies[0]
    assert attacker.profile()["trophies"] == 0  # never below 0
    objectives = {o["key"]: o for o in attacker.profile()["objectives"]}
    assert objectives["attack_three_times"]["done"]  # six attacks today
    assert objectives["attack_three_times"]["progress"] == 3
    assert wait_for(lambda: tokens(defenders[-1]) == 1)
    # Not enough tokens for a Rampart Pack: nothing happens.
    assert_problem(
        defenders[0].call(
            "POST", "/terrakard/shop/packs", {"kind": "rampart", "quantity": 1},
            {"Idempotency-Key": "rampart-1"},
        ),
        409,
        "insufficient_funds",
    )  # fmt: skip


def test_the_same_opponent_cannot_attack_over_and_over_and_tokens_buy_a_rampart_pack(
    api, catalogue, clock
):
    attacker, defender = ready(api, catalogue, clock, 2)
    target = attacker.target_of(defender)
    price = 5
    for _ in range(price):
        attacker.attack_and_give_up(target)
        assert attacker.target_of(defender) is None  # not offered again for a while
        assert_problem(attacker.attack(target), 409, "target_recently_attacked")
        clock.advance(hours=12, minutes=1)
    wallet = defender.ok("GET", "/terrakard/wallet")
    assert wait_for(
        lambda: (
            defender.ok("GET", "/terrakard/wallet")["balances"]
            == [{"currency": "rampart_tokens", "balance": price}]
        )
    ), wallet
    bought = defender.call(
        "POST", "/terrakard/shop/packs", {"kind": "rampart", "quantity": 1},
        {"Idempotency-Key": "rampart-1"},
    )  # fmt: skip
    assert bought.status_code == 201, bought.text
    assert bought.json()["payment"]["amount"] == price
    inventory = defender.ok("GET", "/terrakard/packs")
    assert inventory["counts"] == [{"kind": "rampart", "count": 1}]
    objectives = {o["key"]: o for o in defender.profile()["objectives"]}
    assert objectives["defend_once"]["done"]


def _strong_deck(attacker: Arena) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The attacker's two Uncommon cards first, then six Commons (cost 10 of 12)."""
    cards = attacker.collection()["cards"]
    strong = [c for c in cards if c["rarity"] == "Uncommon"][:2]
    deck = attacker.save_deck([c["id"] for c in strong + commons({"cards": cards})[:6]])
    assert deck["legal"], deck
    return deck, strong


def _weak_plan(defender: Arena, strong: list[dict[str, Any]]) -> dict[str, Any]:
    """Six Commons, Offensive: rounds 1 and 2 are cards the attacker's Uncommons beat."""
    mine = commons(defender.collection())

    def beaten_by(card: dict[str, Any]) -> dict[str, Any]:
        attacking = Category(card["category"])
        return next(c for c in mine if category_multiplier(attacking, Category(c["category"])) > 1)

    first = beaten_by(strong[0])
    second = next(
        c
        for c in mine
        if c is not first
        and category_multiplier(Category(strong[1]["category"]), Category(c["category"])) > 1
    )
    rest = [c for c in mine if c not in (first, second)]
    plan = defender.ok(
        "POST",
        "/terrakard/plans",
        {
            "name": "Thin",
            "rounds": [c["id"] for c in [first, second, *rest[:3]]],
            "reserve": rest[3]["id"],
            "condition": {"trigger": "low_hp"},
            "posture": "offensive",
            "activate": True,
        },
    )
    assert plan["legal"] and plan["active"], plan
    return plan


def test_a_heavy_defeat_shields_the_defender_for_a_while_and_attacking_lifts_it(
    api, catalogue, clock
):
    attacker, defender, other = ready(api, catalogue, clock, 3)
    deck, strong = _strong_deck(attacker)
    _weak_plan(defender, strong)
    target = attacker.target_of(defender)
    response = attacker.attack(target, deck)
    assert response.status_code == 201, response.text
    view = response.json()
    assert view["reconnaissance"]["pseudonym"] == defender.pseudonym
    view = attacker.act(view, {"kind": "begin"})
    for card in range(8):
        if view["status"] == "finished":
            break
        if any(a["kind"] == "skip" for a in view["legalActions"]):
            view = attacker.act(view, {"kind": "skip"})
        if view["status"] == "finished":
            break
        view = attacker.act(view, {"kind": "play", "card": card})
        if any(a["kind"] == "skip" for a in view["legalActions"]):
            view = attacker.act(view, {"kind": "skip"})
    assert view["status"] == "finished"
    assert view["outcome"] in ("two_stars", "three_stars"), view["result"]
    stars = 3 if view["outcome"] == "three_stars" else 2

    # The defender lost heavily: shielded, neither offered nor attackable for a while.
    shielded = defender.profile()
    assert shielded["shieldUntil"] == (clock.now() + ARENA.shield).isoformat()
    assert other.target_of(defender) is None
    refused = other.attack(target)
    assert_problem(refused, 409, "target_protected")
    assert refused.json()["until"] == shielded["shieldUntil"]
    assert other.profile()["tickets"] == ARENA.max_tickets  # refused: no ticket spent

    # The attacker's rewards: the victory pack of its stars, trophies, experience.
    pack = ARENA.victory_packs[stars]
    assert wait_for(
        lambda: attacker.ok("GET", "/terrakard/packs")["counts"] == [{"kind": pack, "count": 1}]
    )
    profile = attacker.profile()
    assert profile["trophies"] == ARENA.attack_trophies[stars]
    experience = ARENA.attack_experience + ARENA.experience_per_star * stars
    objective = {o["key"]: o for o in profile["objectives"]}
    assert objective["attack_three_times"]["progress"] == 1
    bonus = 0
    if stars == 3:
        assert objective["win_three_stars"]["done"]
        bonus = objective["win_three_stars"]["experience"]
    assert profile["experience"] == ARENA.tutorial_experience + experience + bonus
    assert profile["victoryPacksToday"] == 1
    assert defender.profile()["trophies"] == 0  # never below 0

    # Attacking lifts the attacker's own shield.
    back = defender.target_of(other)
    assert back is not None
    defender.attack_and_give_up(back)
    assert defender.profile()["shieldUntil"] is None
    assert other.target_of(defender) is not None


def test_targets_are_close_in_trophies_and_not_inactive_nor_under_attack(api, catalogue, clock):
    me, near, busy, idle, rival = ready(api, catalogue, clock, 5)
    # ``rival`` gains trophies by defenses won (each attacker gives up).
    for player in (near, busy, idle):
        player.attack_and_give_up(player.target_of(rival))
    assert rival.profile()["trophies"] == 3 * ARENA.defense_trophies[0]
    order = [t["pseudonym"] for t in me.arena()["items"]]
    assert order.index(rival.pseudonym) == len(order) - 1  # the furthest in trophies last
    # A target defending a live attack is not offered; once it ends it is again.
    busy_target = near.target_of(busy)
    assert busy_target is not None
    live = near.attack(busy_target)
    assert live.status_code == 201, live.text
    assert me.target_of(busy) is None
    assert_problem(me.attack(busy_target), 409, "target_under_attack")
    assert me.profile()["tickets"] == ARENA.max_tickets  # refused: no ticket spent
    near.act(live.json(), {"kind": "give_up"})
    assert me.target_of(busy) is not None
    # Inactive players are no longer offered: not seen for more than a week.
    clock.advance((ARENA.inactive_after + timedelta(hours=1)).total_seconds())
    for player in (me, near, busy, rival):
        player.profile()  # seen
    offered = {t["pseudonym"] for t in me.arena()["items"]}
    assert {near.pseudonym, busy.pseudonym, rival.pseudonym} <= offered
    assert idle.pseudonym not in offered

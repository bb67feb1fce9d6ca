"""games/kit/packs.py: pack kinds as data, exact public odds, and openings that follow
them (statistically, over 100,000 openings per kind, on fair draws)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from games.kit.fair import Roller
from games.kit.packs import card_rarity_odds, open_pack, pack_kind, public_odds
from services.cards.economy import load_economy

SEED = bytes(range(32, 64))
OPENINGS = 100_000
CRITICAL = {1: 23.93, 2: 27.63, 3: 30.66, 4: 33.38}  # chi-square at 1 - 1e-6
ECONOMY = load_economy()
CORE = ECONOMY.pack("chronovore", "core")
GOLDEN = ECONOMY.pack("chronovore", "golden")
POOL = {rarity: [f"{rarity}-card"] for rarity in CORE.rarities}


def assert_fits(observed: Counter, expected: dict) -> None:
    total = sum(observed.values())
    assert set(observed) <= set(expected), "an outcome outside the table happened"
    kept = {k: p for k, p in expected.items() if p > 0}
    statistic = sum(
        (observed.get(k, 0) - float(p) * total) ** 2 / (float(p) * total) for k, p in kept.items()
    )
    assert statistic < CRITICAL[len(kept) - 1], (statistic, observed)


def openings(kind, count=OPENINGS):
    pool = {rarity: [f"{rarity}-card"] for rarity in kind.rarities}
    for nonce in range(count):
        yield open_pack(kind, pool, Roller(SEED, "tests", nonce, kind.purpose))


def test_the_core_set_climb_is_the_rulebook_s_as_exact_weights():
    odds = card_rarity_odds(pack_kind({**_core_data(), "floor": None}), 0)
    assert odds == {
        "common": Fraction(2, 3),
        "uncommon": Fraction(1, 3) * Fraction(2, 3),
        "rare": Fraction(1, 9) * Fraction(3, 4),
        "epic": Fraction(1, 36) * Fraction(3, 4),
        "mythic": Fraction(1, 144),
    }


def test_the_floor_s_odds_lift_one_card_of_an_all_common_pack():
    odds = card_rarity_odds(CORE, 0)
    all_common = Fraction(2, 3) ** 5
    assert sum(odds.values()) == 1
    assert odds["common"] == Fraction(2, 3) - all_common / 5
    assert odds["uncommon"] == Fraction(2, 9) + all_common / 5


def test_core_pack_rarities_follow_the_public_odds_over_100000_openings():
    by_slot = [Counter() for _ in range(CORE.cards)]
    finishes = Counter()
    for cards in openings(CORE):
        assert len(cards) == 5
        assert any(card.rarity != "common" for card in cards)  # never five Commons
        for slot, card in enumerate(cards):
            by_slot[slot][card.rarity] += 1
            finishes[card.finish] += 1
            assert card.definition == f"{card.rarity}-card"
    for slot in (0, 4):
        assert_fits(by_slot[slot], card_rarity_odds(CORE, slot))
    assert_fits(
        finishes,
        {"plain": Fraction(1900, 2000), "golden": Fraction(99, 2000), "diamond": Fraction(1, 2000)},
    )


def test_golden_pack_cards_are_golden_and_diamond_one_in_500_over_100000_openings():
    finishes = Counter(card.finish for cards in openings(GOLDEN, OPENINGS // 5) for card in cards)
    assert sum(finishes.values()) == OPENINGS
    assert_fits(finishes, {"golden": Fraction(499, 500), "diamond": Fraction(1, 500)})


def test_a_guaranteed_slot_draws_on_its_own_weights():
    kind = pack_kind(
        {
            **_core_data(),
            "floor": None,
            "slots": [{"index": 2, "rarity_weights": {"rare": 3, "epic": 1}}],
        }
    )
    seen = Counter(cards[2].rarity for cards in openings(kind, 20_000))
    assert_fits(seen, {"rare": Fraction(3, 4), "epic": Fraction(1, 4)})
    assert public_odds(kind)["slot_rarity_odds"][2] == {"rare": "3/4", "epic": "1/4"}


def test_every_draw_of_an_opening_is_keyed_in_the_documented_order():
    roller = Roller(SEED, "tests", 0, CORE.purpose)
    open_pack(CORE, POOL, roller)
    keys = [d.key for d in roller.draws]
    rarity_keys = [f"rarity.{i}" for i in range(5)]
    rest = [k for i in range(5) for k in (f"card.{i}", f"finish.{i}")]
    assert keys in (rarity_keys + rest, [*rarity_keys, "floor", *rest])


def test_an_opening_with_a_rarity_missing_from_the_pool_is_refused():
    with pytest.raises(ValueError, match="mythic"):
        open_pack(
            CORE,
            {r: ["x"] for r in CORE.rarities if r != "mythic"},
            Roller(SEED, "t", 0, CORE.purpose),
        )


@pytest.mark.parametrize(
    "change",
    [
        {"cards": 0},
        {"rarity_weights": {"Shiny": 1}},
        {"floor": "Shiny"},
        {"finish_weights": {"plain": 0}},
        {"slots": [{"index": 5, "rarity_weights": {"rare": 1}}]},
    ],
)
def test_a_wrong_pack_kind_is_refused_when_loaded(change):
    with pytest.raises(ValueError):
        pack_kind({**_core_data(), **change})


def _core_data():
    return {
        "game": "chronovore",
        "kind": "core",
        "name": "Core Set Pack",
        "cards": 5,
        "rarities": list(CORE.rarities),
        "rarity_weights": dict(CORE.rarity_weights),
        "finish_weights": dict(CORE.finish_weights),
        "floor": "uncommon",
    }


def test_chronovore_pack_rarities_are_the_rarities_its_definitions_carry():
    # The pool is keyed by the definitions' own rarity values (games/chronovore/content.py):
    # a pack kind naming a rarity no definition can carry would never open.
    from games.chronovore.content import Finish, Rarity

    for kind in ECONOMY.packs_of("chronovore"):
        assert kind.needed_rarities() <= set(Rarity), kind.kind
        assert set(kind.rarities) == set(Rarity), kind.kind
        assert set(kind.finish_weights) <= set(Finish), kind.kind


# TerraKard's kinds have their own, stricter test below (100,000 openings, slot by slot).
POOLED_KINDS = sorted(
    (k for k in ECONOMY.packs.values() if k not in ECONOMY.packs_of("terrakard")),
    key=lambda k: k.purpose,
)


@pytest.mark.parametrize("kind", POOLED_KINDS, ids=lambda k: k.purpose)
def test_every_pack_kind_s_card_rarities_follow_its_public_odds_over_100000_cards(kind):
    """Each published pack kind of every game (issue 22: >= 100,000 derived rolls per
    table): its cards' rarities, pooled over the slots, against the exact odds."""
    count = -(-OPENINGS // kind.cards)  # openings enough for 100,000 cards
    rarities = Counter(card.rarity for cards in openings(kind, count) for card in cards)
    assert sum(rarities.values()) >= OPENINGS
    expected = {
        rarity: sum(card_rarity_odds(kind, slot).get(rarity, 0) for slot in range(kind.cards))
        / kind.cards
        for rarity in kind.rarities
    }
    assert_fits(rarities, expected)


# -- TerraKard (docs/terrakard.md, "Rewards and packs (ours)") ---------------------------

TERRAKARD_KINDS = ("gold", "silver", "bronze", "copper", "rampart")
TERRAKARD_POOL = {r: [f"{r}-card"] for r in ECONOMY.pack("terrakard", "gold").rarities}


@pytest.mark.parametrize("kind_name", TERRAKARD_KINDS)
def test_terrakard_pack_rarities_follow_the_public_odds_over_100000_openings(kind_name):
    kind = ECONOMY.pack("terrakard", kind_name)
    per_slot = [Counter() for _ in range(kind.cards)]
    for nonce in range(OPENINGS):
        cards = open_pack(kind, TERRAKARD_POOL, Roller(SEED, "tests", nonce, kind.purpose))
        assert len(cards) == kind.cards
        if kind.floor is not None:
            floor = kind.rarities.index(kind.floor)
            assert any(kind.rarities.index(c.rarity) >= floor for c in cards)
        for slot, card in enumerate(cards):
            per_slot[slot][card.rarity] += 1
            assert card.finish == "standard"
    for slot in (0, kind.cards - 1):
        assert_fits(per_slot[slot], card_rarity_odds(kind, slot))


def test_terrakard_packs_are_the_rulebook_s_and_only_the_rampart_pack_has_a_price():
    from games.terrakard.content import Rarity

    kinds = {k.kind: k for k in ECONOMY.packs_of("terrakard")}
    assert set(kinds) == set(TERRAKARD_KINDS)
    for kind in kinds.values():
        assert set(kind.rarities) == set(Rarity) and kind.needed_rarities() <= set(Rarity)
    assert kinds["rampart"].extra["price"] == {"currency": "rampart_tokens", "amount": 5}
    assert all("price" not in kinds[k].extra for k in ("gold", "silver", "bronze", "copper"))

    # Richer with the stars: more cards, and better odds of a Rare or more in a slot.
    def rare_or_better(kind):
        odds = card_rarity_odds(kind, 0)
        return sum(p for r, p in odds.items() if r not in ("Common", "Uncommon"))

    ladder = [kinds[k] for k in ("gold", "silver", "bronze", "copper")]
    assert [k.cards for k in ladder] == sorted((k.cards for k in ladder), reverse=True)
    chances = [rare_or_better(k) for k in ladder]
    assert chances == sorted(chances, reverse=True)

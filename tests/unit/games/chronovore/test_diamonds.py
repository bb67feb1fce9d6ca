"""Diamond caps and their overflow (rules/chronovore.txt, "Diamond copies"), pure:
never more Diamond copies of a card than a deck holds; on ordinary and Golden packs the
extra becomes Golden and the next Golden card upgrades; on a Diamond pack the extra is
another Diamond card; the shop's room."""

from __future__ import annotations

import uuid

from games.chronovore.diamonds import DIAMOND_CAPS
from games.kit.fair import Roller
from games.kit.packs import PackCard, pack_kind

RARITY_WEIGHTS = {"common": 96, "uncommon": 32, "rare": 12, "epic": 3, "mythic": 1}


def kind(finishes):
    return pack_kind(
        {"game": "chronovore", "kind": "t", "name": "T", "cards": 5,
         "rarities": list(RARITY_WEIGHTS), "rarity_weights": RARITY_WEIGHTS,
         "finish_weights": finishes}
    )  # fmt: skip


CORE = kind({"plain": 1900, "golden": 99, "diamond": 1})
GOLDEN = kind({"golden": 499, "diamond": 1})
DIAMOND = kind({"diamond": 1})


def card(rarity):
    return {"id": uuid.uuid4(), "lineage_id": uuid.uuid4(), "rarity": rarity}


def draws():
    return Roller(bytes(32), "client", 0, "chronovore.pack.t")


POOL = {r: [card(r), card(r)] for r in RARITY_WEIGHTS}
EPIC, OTHER_EPIC = POOL["epic"]
COMMON, OTHER_COMMON = POOL["common"]


def lineage(definition):
    return definition["lineage_id"]


def test_room_is_each_cards_limit_less_its_diamonds():
    assert DIAMOND_CAPS.room(POOL, {}) == 2 * (4 + 3 + 2 + 1 + 1)
    held = {lineage(COMMON): 4, lineage(EPIC): 1, lineage(OTHER_EPIC): 7}
    assert DIAMOND_CAPS.room(POOL, held) == 22 - 4 - 1 - 1


def test_a_diamond_with_room_stays_and_counts_toward_the_cap():
    cards = [PackCard(COMMON, "common", "diamond")] * 2
    settled, owed = DIAMOND_CAPS.settle(CORE, cards, POOL, {lineage(COMMON): 2}, 0, draws())
    assert [c.finish for c in settled] == ["diamond", "diamond"] and owed == 0
    # the 5th Diamond of a Common (limit 4) in the same pack overflows
    cards = [PackCard(COMMON, "common", "diamond")] * 3
    settled, owed = DIAMOND_CAPS.settle(CORE, cards, POOL, {lineage(COMMON): 2}, 0, draws())
    assert [c.finish for c in settled] == ["diamond", "diamond", "golden"] and owed == 1


def test_an_extra_becomes_golden_and_the_next_golden_card_upgrades():
    cards = [
        PackCard(EPIC, "epic", "diamond"),  # the Epic's one Diamond is held: extra
        PackCard(COMMON, "common", "plain"),  # not Golden: no upgrade
        PackCard(EPIC, "epic", "golden"),  # Golden, but its card is full: waits
        PackCard(OTHER_EPIC, "epic", "golden"),  # the next Golden card with room
        PackCard(OTHER_COMMON, "common", "golden"),  # nothing owed any more
    ]
    settled, owed = DIAMOND_CAPS.settle(CORE, cards, POOL, {lineage(EPIC): 1}, 0, draws())
    assert [c.finish for c in settled] == ["golden", "plain", "golden", "diamond", "golden"]
    assert [c.definition for c in settled] == [c.definition for c in cards]
    assert owed == 0


def test_an_upgrade_owed_by_an_earlier_pack_is_paid_by_a_later_golden_card():
    cards = [PackCard(COMMON, "common", "golden")] * 5
    settled, owed = DIAMOND_CAPS.settle(GOLDEN, cards, POOL, {lineage(COMMON): 2}, 3, draws())
    # two upgrades fill the Common's limit of 4; one stays owed
    assert [c.finish for c in settled] == ["diamond", "diamond", "golden", "golden", "golden"]
    assert owed == 1


def test_on_a_diamond_pack_the_extra_is_another_diamond_card_of_the_same_rarity():
    held = {lineage(EPIC): 1}
    cards = [PackCard(EPIC, "epic", "diamond")]
    roller = draws()
    settled, owed = DIAMOND_CAPS.settle(DIAMOND, cards, POOL, held, 0, roller)
    assert settled == [PackCard(OTHER_EPIC, "epic", "diamond")] and owed == 0
    assert [d.key for d in roller.draws] == ["extra_card.0"]


def test_a_diamond_packs_extra_of_a_full_rarity_comes_from_a_rarity_with_room():
    held = {lineage(d): 1 for d in POOL["mythic"]}
    cards = [PackCard(POOL["mythic"][0], "mythic", "diamond")] * 2
    roller = draws()
    settled, owed = DIAMOND_CAPS.settle(DIAMOND, cards, POOL, held, 0, roller)
    assert owed == 0 and all(c.finish == "diamond" for c in settled)
    assert all(c.rarity != "mythic" and c.definition in POOL[c.rarity] for c in settled)
    assert [d.key for d in roller.draws] == [
        "extra_rarity.0", "extra_card.0", "extra_rarity.1", "extra_card.1"
    ]  # fmt: skip


def test_a_diamond_pack_never_exceeds_a_cap_across_its_own_cards():
    pool = {"epic": [EPIC, OTHER_EPIC]}
    only_epic = kind({"diamond": 1})
    cards = [PackCard(EPIC, "epic", "diamond")] * 3
    settled, owed = DIAMOND_CAPS.settle(only_epic, cards, pool, {}, 0, draws())
    # EPIC once, then OTHER_EPIC, then nothing has room: Golden, owed
    assert [(c.definition, c.finish) for c in settled] == [
        (EPIC, "diamond"), (OTHER_EPIC, "diamond"), (EPIC, "golden")
    ]  # fmt: skip
    assert owed == 1

"""Chronovore's Gold and Card Fragments (rules/chronovore.txt, "Gold", "Shredding and
crafting"): every number of the rulebook, both sides of each boundary."""

from __future__ import annotations

import pytest

from games.chronovore.economy import (
    CHRONOVORE_CRAFTING,
    CHRONOVORE_GOLD,
    craft_cost,
    gold_for,
    shred_value,
)
from games.kit.refusal import Refusal

RARITIES = ["common", "uncommon", "rare", "epic", "mythic"]


@pytest.mark.parametrize(
    ("rarity", "shred", "craft"),
    [("common", 1, 5), ("uncommon", 4, 20), ("rare", 16, 80), ("epic", 64, 320),
     ("mythic", 256, 1280)],
)  # fmt: skip
def test_plain_and_golden_shred_and_craft_by_rarity(rarity, shred, craft):
    assert shred_value(rarity, "plain", weakened=False) == shred
    assert craft_cost(rarity, "plain") == craft
    assert shred_value(rarity, "golden", weakened=False) == 4 * shred
    assert craft_cost(rarity, "golden") == 4 * craft


@pytest.mark.parametrize("rarity", RARITIES)
def test_a_weakened_card_shreds_for_its_finishs_full_crafting_cost(rarity):
    for finish in ("plain", "golden"):
        assert shred_value(rarity, finish, weakened=True) == craft_cost(rarity, finish)


@pytest.mark.parametrize("finish", ["diamond", "standard"])
def test_diamond_copies_are_neither_shredded_nor_crafted(finish):
    for refused in (
        lambda: shred_value("common", finish, weakened=False),
        lambda: shred_value("common", finish, weakened=True),
        lambda: craft_cost("mythic", finish),
    ):
        with pytest.raises(Refusal) as caught:
            refused()
        assert caught.value.code == "finish_not_craftable"


def test_copy_limits_and_the_seven_days():
    limits = [CHRONOVORE_CRAFTING.copy_limit(r) for r in RARITIES]
    assert limits == [4, 3, 2, 1, 1]
    assert CHRONOVORE_CRAFTING.weakened_refund.days == 7
    assert CHRONOVORE_CRAFTING.currency == "fragments"


def test_gold_against_a_player_with_the_daily_bonus_of_the_first_five():
    assert [gold_for("win", True, n) for n in range(1, 8)] == [8, 7, 6, 5, 4, 3, 3]
    assert [gold_for("draw", True, n) for n in range(1, 8)] == [7, 6, 5, 4, 3, 2, 2]
    assert [gold_for("loss", True, n) for n in range(1, 8)] == [6, 5, 4, 3, 2, 1, 1]


def test_gold_against_the_computer_and_for_leaving():
    for result in ("win", "draw", "loss"):
        assert gold_for(result, False, 0) == 1
        assert CHRONOVORE_GOLD.completed(result)
    for result in ("left", "forfeit", None):
        assert gold_for(result, False, 0) == 0
        assert gold_for(result, True, 1) == 0  # the leaver of a match against a player
        assert not CHRONOVORE_GOLD.completed(result)

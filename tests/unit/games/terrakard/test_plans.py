"""Attack decks, defense plans, level budgets, and the automatic plan."""

from fractions import Fraction

import pytest

from games.kit.refusal import Refusal
from games.terrakard import config
from games.terrakard.automatic import automatic_budget, automatic_plan
from games.terrakard.content import Category, Rarity
from games.terrakard.plans import (
    POSTURE_FACTORS,
    Posture,
    ReserveCondition,
    Trigger,
    assess_deck,
    assess_plan,
    far_below_budget,
)
from tests.unit.games.terrakard.support import card, plan


def cards_costing(*rarities):
    return [card(f"C{i}", rarity=r) for i, r in enumerate(rarities)]


def codes(assessment):
    return [p.code for p in assessment.problems]


def test_level_budgets_are_a_table_and_levels_above_it_keep_the_last_row():
    assert config.budget_for(1).attack == 12
    assert config.budget_for(15).attack == 40
    assert config.budget_for(99) == config.budget_for(15)
    levels = [row.level for row in config.LEVEL_BUDGETS]
    assert levels == sorted(levels) and levels[0] == 1
    with pytest.raises(ValueError):
        config.budget_for(0)


def test_a_deck_at_exactly_its_budget_is_legal_and_one_point_more_is_not():
    at_budget = cards_costing(*[Rarity.COMMON] * 4, *[Rarity.UNCOMMON] * 4)  # 4 + 8 = 12
    assessment = assess_deck(at_budget, level=1)
    assert assessment.legal and assessment.cost == 12
    over = cards_costing(*[Rarity.COMMON] * 3, *[Rarity.UNCOMMON] * 5)  # 13
    assert codes(assess_deck(over, level=1)) == ["over_budget"]
    assert assess_deck(over, level=2).legal  # level 2 allows 14


@pytest.mark.parametrize("size", [7, 9])
def test_a_deck_has_exactly_eight_cards(size):
    assert codes(assess_deck(cards_costing(*[Rarity.COMMON] * size), level=5)) == ["deck_size"]


def test_a_deck_holds_each_copy_and_each_card_once_and_only_owned_copies():
    cards = cards_costing(*[Rarity.COMMON] * 8)
    same_copy = [*cards[:7], cards[0]]
    assert "duplicate_copy" in codes(assess_deck(same_copy, level=5))
    same_card = [*cards[:7], card("C0", card_id="another copy")]
    assert codes(assess_deck(same_card, level=5)) == ["duplicate_card"]
    owned = frozenset(c.card_id for c in cards[:7])
    assert codes(assess_deck(cards, level=5, owned=owned)) == ["card_not_owned"]


def test_a_plan_has_five_round_cards_and_a_different_reserve_within_the_defense_budget():
    good = plan()  # six Commons: 6
    assert assess_plan(good, level=1).legal and assess_plan(good, level=1).cost == 6
    short = plan(rounds=tuple(card(f"D{i}") for i in range(4)))
    assert codes(assess_plan(short, level=1)) == ["plan_size"]
    same = plan(reserve=card("D0"))
    assert codes(assess_plan(same, level=1)) == ["duplicate_copy", "duplicate_card"]
    rich = plan(reserve=card("R", rarity=Rarity.LEGENDARY))  # 5 + 5 = 10 > 9
    assert codes(assess_plan(rich, level=1)) == ["over_budget"]
    assert assess_plan(rich, level=2).legal  # 10


def test_postures_are_the_rulebooks():
    assert POSTURE_FACTORS[Posture.CAUTIOUS] == (Fraction("0.9"), Fraction("1.1"))
    assert POSTURE_FACTORS[Posture.BALANCED] == (1, 1)
    assert POSTURE_FACTORS[Posture.OFFENSIVE] == (Fraction("1.1"), Fraction("0.9"))


def test_a_reserve_condition_names_a_category_only_for_the_category_trigger():
    chosen = ReserveCondition.from_dict({"trigger": "category", "category": "History"})
    assert chosen == ReserveCondition(Trigger.CATEGORY, Category.HISTORY)
    for bad in (
        {"trigger": "category"},
        {"trigger": "low_hp", "category": "History"},
        {"trigger": "whenever"},
    ):
        with pytest.raises(Refusal):
            ReserveCondition.from_dict(bad)


def test_far_below_the_budget_is_under_sixty_percent_of_the_defense_budget():
    assert config.budget_for(10).defense == 22
    assert far_below_budget(13, 10)  # 13 < 13.2
    assert not far_below_budget(14, 10)


def test_the_automatic_plan_takes_the_strongest_cards_that_fit_the_budget():
    strong = [card(f"L{i}", rarity=Rarity.LEGENDARY, atk=80, def_=80) for i in range(3)]
    weak = [card(f"W{i}", atk=10 + i, def_=10) for i in range(6)]
    # Level 4's automatic budget is 10 (of 13): one Legendary (5) and five Commons, not two.
    built = automatic_plan([*weak, *strong], level=4)
    assert built is not None
    names = [c.name for c in built.cards]
    assert assess_plan(built, level=4).legal and built.cost == 10
    only_commons = automatic_plan([*weak, *strong], level=1)  # 7: no Legendary fits
    assert only_commons is not None and only_commons.reserve.name == "W5"
    assert built.reserve.name == "L0"  # the strongest chosen card is the reserve
    assert names.count("L1") == 0 and len(set(names)) == 6
    assert [c.name for c in built.rounds] == ["W5", "W4", "W3", "W2", "W1"]
    assert built.posture is Posture.BALANCED and built.condition.trigger is Trigger.LOW_HP


def test_an_automatic_plan_spends_at_most_four_fifths_of_the_defense_budget():
    # A training target, below what a player who plans fields (docs/balance/terrakard.md).
    assert [automatic_budget(level) for level in (1, 2, 3, 4)] == [7, 8, 9, 10]
    commons = [card(f"C{i}", atk=10 + i, def_=10) for i in range(8)]
    uncommons = [card(f"U{i}", rarity=Rarity.UNCOMMON, atk=40, def_=40) for i in range(4)]
    plan = automatic_plan([*commons, *uncommons], level=1)
    assert plan is not None and plan.cost <= 7 < config.budget_for(1).defense


def test_the_automatic_plan_is_deterministic_whatever_the_collection_order():
    collection = [card(f"K{i}", atk=10 * i, def_=5) for i in range(10)]
    assert automatic_plan(collection, 3) == automatic_plan(list(reversed(collection)), 3)


def test_no_automatic_plan_from_too_few_different_cards():
    copies = [card("Same", card_id=f"copy-{i}") for i in range(6)]
    assert automatic_plan(copies, 1) is None
    assert automatic_plan([card(f"E{i}", rarity=Rarity.EPIC) for i in range(6)], 1) is None

"""TerraKard outside a match: the level from points, the starting collection, and a deck
judged through the kit (at level 1's budget)."""

import uuid

import pytest

from games.kit.collection import CardCopy
from games.kit.refusal import Refusal
from games.terrakard import config
from games.terrakard.collection import TERRAKARD_COLLECTION, starting_cards
from games.terrakard.content import CYCLE
from games.terrakard.progression import level_for


def test_the_level_starts_at_1_and_rises_at_each_threshold():
    assert level_for(0) == 1
    first = config.LEVEL_POINTS[0]
    assert level_for(first - 1) == 1
    assert level_for(first) == 2
    assert level_for(10**9) == len(config.LEVEL_POINTS) + 1
    assert config.budget_for(level_for(10**9)).attack == 40


def _definition(name, rarity, category):
    return {"id": uuid.uuid4(), "name": name, "rarity": rarity,
            "attributes": {"category": str(category)}}  # fmt: skip


def test_the_starting_collection_takes_the_categories_in_turn_and_fits_level_1():
    catalogue = [_definition(f"C{i:02}", "Common", CYCLE[i % 6]) for i in range(18)]
    catalogue += [_definition(f"U{i}", "Uncommon", CYCLE[0]) for i in range(3)]
    catalogue += [_definition("R", "Rare", CYCLE[1])]
    chosen = starting_cards(catalogue)
    rarities = [d["rarity"] for d in chosen]
    assert rarities == ["Common"] * 8 + ["Uncommon"] * 2
    assert {d["attributes"]["category"] for d in chosen[:6]} == {str(c) for c in CYCLE}
    assert starting_cards(list(reversed(catalogue))) == chosen  # no order, no chance
    budget = config.budget_for(1)
    assert budget.attack >= 8 and budget.defense >= 6  # eight Commons; six for a plan


def test_too_few_published_cards_is_a_passing_unavailability():
    with pytest.raises(Refusal) as refused:
        starting_cards([_definition("C", "Common", CYCLE[0])])
    assert refused.value.code == "starter_cards_unavailable"


def _copy(rarity, index):
    attributes = {"category": "History", "atk": 20, "def": 20, "name": f"Card {index}"}
    return CardCopy(uuid.uuid4(), "card", rarity, attributes=attributes)


def test_through_the_kit_a_deck_is_judged_at_level_1s_budget():
    commons = [_copy("Common", i) for i in range(8)]
    owned = {c.copy_id: c for c in commons}
    assert TERRAKARD_COLLECTION.assess_deck([c.copy_id for c in commons], owned).legal
    epics = [_copy("Epic", 10 + i) for i in range(2)]  # 6 + 8 = 14 > 12
    owned.update({c.copy_id: c for c in epics})
    deck = [c.copy_id for c in commons[:6] + epics]
    assessment = TERRAKARD_COLLECTION.assess_deck(deck, owned)
    assert [p.code for p in assessment.problems] == ["over_budget"]
    missing = TERRAKARD_COLLECTION.assess_deck([*deck[:7], uuid.uuid4()], owned)
    assert "card_not_owned" in [p.code for p in missing.problems]

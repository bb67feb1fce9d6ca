"""The browser journey's certain victory (tests/e2e/web/terrakard_victory.py): chosen from
starting collections like the e2e tests' (ATK 30, DEF 30, the categories in turn), it wins
on every terrain through the pure engine; the same plan without the category advantage
does not, and a collection with no advantage to take has no certain victory."""

from __future__ import annotations

import pytest

from games.terrakard.content import CYCLE, Category, beats
from games.terrakard.terrains import STARTING_TERRAINS
from tests.e2e.web.terrakard_victory import certain_victory, stars_on_each_terrain


def collection(owner: str, categories=None) -> list[dict[str, object]]:
    """A starting collection as the API shows it: 8 Common and 2 Uncommon."""
    rarities = ["Common"] * 8 + ["Uncommon"] * 2
    return [
        {"id": f"{owner}{i}", "name": f"{owner} {i}", "rarity": rarity,
         "cost": 1 if rarity == "Common" else 2, "atk": 30, "def": 30,
         "category": str(categories[i] if categories else CYCLE[i % len(CYCLE)])}
        for i, rarity in enumerate(rarities)
    ]  # fmt: skip


def test_the_chosen_deck_beats_the_chosen_plan_on_every_terrain_round_by_round():
    attacker, defender = collection("a"), collection("d")
    victory = certain_victory(attacker, defender, attack_budget=12)
    assert set(victory.stars) == {t.name for t in STARTING_TERRAINS}
    assert min(victory.stars.values()) >= 1
    cards = {c["id"]: c for c in attacker + defender}
    for played, planned in zip(victory.deck, victory.rounds, strict=False):
        assert beats(Category(cards[played]["category"])) == cards[planned]["category"]
    assert len(victory.deck) == 8 and sum(cards[c]["cost"] for c in victory.deck) <= 12


def test_without_the_category_advantage_the_same_plan_holds():
    defender = collection("d")
    rounds, reserve = defender[:5], defender[5]
    # Each round the same card as the defense's: neutral, and the rampart and the
    # cautious posture's DEF make it a tie at best (the defense's).
    stars = stars_on_each_terrain([*rounds, *defender[5:8]], rounds, reserve)
    assert min(stars.values()) == 0


def test_a_collection_with_no_advantage_to_take_has_no_certain_victory():
    one_category = [CYCLE[0]] * 10
    with pytest.raises(AssertionError, match="no plan"):
        certain_victory(collection("a", one_category), collection("d", one_category), 12)

"""The demo defenders' definition (games/terrakard/demo_defenders.py): marked as demo,
stable ids, and a legal plan at each one's level from the shipped sample catalogue."""

from __future__ import annotations

import uuid
from pathlib import Path

from games.terrakard import demo_defenders as demo
from games.terrakard.articles import parse_line
from games.terrakard.content import Card, Rarity
from games.terrakard.formula import stats
from games.terrakard.plans import assess_plan

SAMPLE = Path(__file__).parents[4] / "services/authoring/seed/terrakard_articles.sample.jsonl"
NEW_PLAYER_LEVEL = 1  # after the tutorial: 25 experience of level 2's 50
LEVEL_GAP = 2  # battle's (services/battle/games/terrakard.py)


def sample_catalogue() -> list[Card]:
    with SAMPLE.open(encoding="utf-8") as lines:
        articles = [a for a in map(parse_line, lines) if a is not None]
    return [
        Card(f"def-{i}", a.title, a.category, stats(a).rarity, stats(a).atk, stats(a).def_, None)
        for i, a in enumerate(articles)
    ]


def test_every_defender_is_named_as_a_demo_and_has_ids_of_its_own() -> None:
    ids = [d.player_id for d in demo.DEMO_DEFENDERS] + [d.target_id for d in demo.DEMO_DEFENDERS]
    assert len(set(ids)) == len(ids)
    assert all(d.display_name.endswith("(demo)") for d in demo.DEMO_DEFENDERS)
    assert len({d.key for d in demo.DEMO_DEFENDERS}) == len(demo.DEMO_DEFENDERS)


def test_the_ids_never_change_across_releases() -> None:
    quill = demo.by_key("quill")
    assert quill is not None
    assert quill.player_id == uuid.uuid5(demo.NAMESPACE, "player:quill")
    assert demo.by_player(quill.player_id) is quill
    assert demo.by_target(quill.target_id) is quill
    assert demo.by_player(quill.target_id) is None
    assert demo.by_player(None) is None


def test_a_new_player_has_several_defenders_within_reach() -> None:
    near = [d for d in demo.DEMO_DEFENDERS if d.level - NEW_PLAYER_LEVEL <= LEVEL_GAP]
    assert len(near) >= 3
    assert len({d.level for d in demo.DEMO_DEFENDERS}) >= 3
    assert len({d.trophies for d in demo.DEMO_DEFENDERS}) == len(demo.DEMO_DEFENDERS)


def test_each_plan_from_the_sample_is_legal_at_the_defenders_level() -> None:
    catalogue = sample_catalogue()
    for defender in demo.DEMO_DEFENDERS:
        plan = demo.demo_plan(defender, catalogue)
        assert plan is not None, defender.key
        assert assess_plan(plan, defender.level).legal, defender.key
        assert plan.posture is defender.posture and plan.condition == defender.condition


def test_the_gentlest_plan_is_weaker_than_the_strongest() -> None:
    catalogue = sample_catalogue()
    plans = [demo.demo_plan(d, catalogue) for d in demo.DEMO_DEFENDERS]
    strength = [sum(c.atk + c.def_ for c in (*p.rounds, p.reserve)) for p in plans if p]
    assert strength[0] < strength[-1]


def test_the_plan_does_not_depend_on_the_catalogues_order() -> None:
    catalogue = sample_catalogue()
    defender = demo.DEMO_DEFENDERS[1]
    assert demo.demo_plan(defender, catalogue) == demo.demo_plan(defender, catalogue[::-1])


def test_a_catalogue_too_small_makes_no_plan() -> None:
    five = [Card(f"c{i}", f"Card {i}", sample_catalogue()[0].category, Rarity.COMMON, 30, 30, None)
            for i in range(5)]  # fmt: skip
    assert demo.demo_plan(demo.DEMO_DEFENDERS[0], five) is None

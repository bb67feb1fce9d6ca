"""TerraKard in the cards service over RPC on real PostgreSQL: the starting collection,
attack decks and defense plans judged at the player's level, the plan (or automatic
plan) an attack gets, the arena's candidates, and the purge of TerraKard's tables."""

import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from games.terrakard.collection import TERRAKARD_COLLECTION
from games.terrakard.content import CYCLE
from services.cards import orm
from services.cards.purge import purge_player
from shared.errors import Conflict, InvalidInput, NotFound
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def cards_engine(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


def _definition(rarity, category, atk=40, def_=30):
    snapshot = {
        "name": f"TK {rarity} {random_suffix()}",
        "wikidata": "Q1",
        "category": str(category),
        "rarity": rarity,
        "atk": atk,
        "def": def_,
    }
    return {
        "id": uuid.uuid4(),
        "lineage_id": uuid.uuid4(),
        "game": "terrakard",
        "kind": "card",
        "name": snapshot["name"],
        "rarity": rarity,
        "attributes": TERRAKARD_COLLECTION.card_attributes("card", snapshot),
        "version": 1,
        "snapshot": snapshot,
        "published_at": NOW,
    }


@pytest.fixture(scope="module")
def catalogue(cards_engine):
    rows = [_definition("Common", c) for c in CYCLE for _ in range(2)]
    rows += [_definition("Uncommon", c) for c in CYCLE[:3]]
    rows += [_definition("Rare", c) for c in CYCLE]
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions), rows)
    return rows


@pytest.fixture
def cards(start_service, rpc, catalogue):
    start_service("cards")
    return rpc.cards


def give(cards_engine, player_id, definitions):
    copies = [
        {
            "id": uuid.uuid4(),
            "player_id": player_id,
            "definition_id": d["id"],
            "source_type": "pack",
            "source_id": uuid.uuid4(),
            "finish": "standard",
            "acquired_at": NOW,
        }
        for d in definitions
    ]
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.owned_cards), copies)
    return [str(c["id"]) for c in copies]


def started(cards, level=1):
    player = str(uuid.uuid4())
    collection = cards.terrakard_start(player_id=player, level=level)
    return player, collection


def commons(collection):
    return [c["id"] for c in collection["cards"] if c["rarity"] == "Common"]


def test_the_starting_collection_is_granted_once_and_builds_a_legal_deck_and_plan(cards):
    player, collection = started(cards)
    assert collection["started"] is True
    rarities = sorted(c["rarity"] for c in collection["cards"])
    assert rarities == ["Common"] * 8 + ["Uncommon"] * 2
    again = cards.terrakard_start(player_id=player, level=1)
    assert sorted(c["id"] for c in again["cards"]) == sorted(c["id"] for c in collection["cards"])

    deck = cards.terrakard_save_deck(
        player_id=player, level=1, name="First", cards=commons(collection)
    )
    assert deck["legal"] is True and deck["cost"] == 8 and deck["budget"] == 12
    ids = commons(collection)
    plan = cards.terrakard_save_plan(
        player_id=player, level=1, name="Wall", rounds=ids[:5], reserve=ids[5],
        condition={"trigger": "low_hp"}, posture="cautious", activate=True,
    )  # fmt: skip
    assert plan["legal"] is True and plan["active"] is True and plan["budget"] == 9


def test_a_deck_over_the_level_budget_is_refused_and_fits_a_higher_level(
    cards, cards_engine, catalogue
):
    player, collection = started(cards)
    rares = give(
        cards_engine, uuid.UUID(player), [d for d in catalogue if d["rarity"] == "Rare"][:2]
    )
    deck = commons(collection)[:6] + rares  # 6 + 6 = 12: level 1's budget exactly
    assert cards.terrakard_save_deck(player_id=player, level=1, name="Edge", cards=deck)["legal"]
    uncommon = next(c["id"] for c in collection["cards"] if c["rarity"] == "Uncommon")
    over = commons(collection)[:5] + rares + [uncommon]  # 5 + 6 + 2 = 13
    with pytest.raises(InvalidInput) as refused:
        cards.terrakard_save_deck(player_id=player, level=1, name="Over", cards=over)
    assert refused.value.code == "over_budget"
    assert cards.terrakard_save_deck(player_id=player, level=2, name="Over", cards=over)["legal"]


def test_another_players_copy_is_not_owned(cards):
    player, collection = started(cards)
    _, other = started(cards)
    deck = commons(collection)[:7] + commons(other)[:1]
    with pytest.raises(InvalidInput) as refused:
        cards.terrakard_save_deck(player_id=player, level=1, name="Theft", cards=deck)
    assert refused.value.code == "card_not_owned"


def test_decks_and_plans_need_the_starting_collection(cards):
    with pytest.raises(Conflict) as refused:
        cards.terrakard_save_deck(player_id=str(uuid.uuid4()), level=1, name="X", cards=[])
    assert refused.value.code == "terrakard_not_started"


def test_an_attack_gets_the_active_plan_then_the_automatic_plan_when_there_is_none(cards):
    player, collection = started(cards)
    automatic = cards.terrakard_defense_for_attack(player_id=player, level=1)
    assert automatic["automatic"] is True and automatic["plan_id"] is None
    assert len(automatic["plan"]["rounds"]) == 5
    ids = commons(collection)
    plan = cards.terrakard_save_plan(
        player_id=player, level=1, name="Wall", rounds=ids[:5], reserve=ids[5],
        condition={"trigger": "category", "category": "History"}, posture="offensive",
    )  # fmt: skip
    assert plan["active"] is False
    cards.terrakard_activate_plan(player_id=player, plan_id=plan["id"], level=1)
    defense = cards.terrakard_defense_for_attack(player_id=player, level=1)
    assert defense["automatic"] is False and defense["plan_id"] == plan["id"]
    assert [c["id"] for c in defense["plan"]["rounds"]] == ids[:5]
    assert defense["plan"]["reserve"]["id"] == ids[5]
    assert set(defense["lineages"]) == set(ids[:6])
    # A changed plan is a new version; a stale edit is refused.
    edited = cards.terrakard_save_plan(
        player_id=player, level=1, name="Wall", rounds=list(reversed(ids[:5])), reserve=ids[5],
        condition={"trigger": "low_hp"}, posture="balanced", plan_id=plan["id"],
        expected_version=1,
    )  # fmt: skip
    assert edited["version"] == 2 and edited["active"] is True
    with pytest.raises(Conflict):
        cards.terrakard_save_plan(
            player_id=player, level=1, name="Wall", rounds=ids[:5], reserve=ids[5],
            condition={"trigger": "low_hp"}, posture="balanced", plan_id=plan["id"],
            expected_version=1,
        )  # fmt: skip
    cards.terrakard_delete_plan(player_id=player, ref_id=plan["id"], expected_version=2)
    assert cards.terrakard_defense_for_attack(player_id=player, level=1)["automatic"] is True


def test_an_illegal_plan_is_refused(cards):
    player, collection = started(cards)
    ids = commons(collection)
    with pytest.raises(InvalidInput) as refused:
        cards.terrakard_save_plan(
            player_id=player, level=1, name="Short", rounds=ids[:4], reserve=ids[5],
            condition={"trigger": "low_hp"}, posture="balanced",
        )  # fmt: skip
    assert refused.value.code == "plan_size"
    with pytest.raises(InvalidInput) as refused:
        cards.terrakard_save_plan(
            player_id=player, level=1, name="Odd", rounds=ids[:5], reserve=ids[5],
            condition={"trigger": "category"}, posture="balanced",
        )  # fmt: skip
    assert refused.value.code == "invalid_reserve_condition"


def test_a_player_without_cards_has_no_defense(cards):
    with pytest.raises(NotFound):
        cards.terrakard_defense_for_attack(player_id=str(uuid.uuid4()), level=1)


def test_the_arena_candidates_are_by_level_and_exclude_who_is_asked(cards):
    player, _ = started(cards, level=7)
    other, _ = started(cards, level=7)
    found = cards.terrakard_defenders(low=7, high=7, exclude=[player], limit=200)
    ids = {f["player_id"] for f in found}
    assert other in ids and player not in ids
    assert all(f["level"] == 7 for f in found)
    target = next(f["target_id"] for f in found if f["player_id"] == other)
    assert cards.terrakard_target(target_id=target)["player_id"] == other
    with pytest.raises(NotFound):
        cards.terrakard_target(target_id=str(uuid.uuid4()))


def test_the_arena_s_targets_are_named_by_their_target_ids_and_say_who_has_a_plan(cards):
    with_plan, _ = started(cards)
    without, _ = started(cards)
    stranger = str(uuid.uuid4())  # no starting collection: left out
    ids = commons(cards.terrakard_collection(player_id=with_plan, level=1))
    cards.terrakard_save_plan(
        player_id=with_plan, level=1, name="Wall", rounds=ids[:5], reserve=ids[5],
        condition={"trigger": "low_hp"}, posture="balanced", activate=True,
    )  # fmt: skip
    found = {
        f["player_id"]: f
        for f in cards.terrakard_targets_of(player_ids=[with_plan, without, stranger])
    }
    assert set(found) == {with_plan, without}
    assert found[with_plan]["has_plan"] and not found[without]["has_plan"]
    for player, target in found.items():
        assert cards.terrakard_target(target_id=target["target_id"])["player_id"] == player


def test_the_training_plan_is_the_automatic_plan_of_the_starting_cards_no_one_owns(cards):
    plan = cards.terrakard_training_plan()["plan"]
    every = [*plan["rounds"], plan["reserve"]]
    assert len(every) == 6 and len({c["name"] for c in every}) == 6
    assert all(c["id"].startswith("training-") for c in every)
    assert sum(c["cost"] for c in every) <= 9  # level 1's defense budget
    assert plan["posture"] == "balanced" and plan["condition"]["trigger"] == "low_hp"


def test_the_purge_forgets_plans_and_the_terrakard_player(cards, cards_engine):
    player, collection = started(cards)
    ids = commons(collection)
    cards.terrakard_save_plan(
        player_id=player, level=1, name="Wall", rounds=ids[:5], reserve=ids[5],
        condition={"trigger": "low_hp"}, posture="balanced", activate=True,
    )  # fmt: skip
    with Session(cards_engine) as session, session.begin():
        purge_player(session, uuid.UUID(player), NOW)
    with cards_engine.connect() as conn:
        for table in (orm.terrakard_plans, orm.terrakard_players, orm.owned_cards):
            left = conn.execute(
                sa.select(sa.func.count()).select_from(table).where(table.c.player_id == player)
            ).scalar_one()
            assert left == 0, table.name

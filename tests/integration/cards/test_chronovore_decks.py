"""Chronovore deck lists judged by the cards service over RPC on real PostgreSQL: the
Core Set's definitions as the service reads them, lists saved either way, the legal
mark and every problem, and only a legal deck handed to a match."""

import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from games.chronovore.collection import CHRONOVORE_COLLECTION
from services.cards import orm
from shared.errors import InvalidInput, NotFound
from tests.unit.games.chronovore.support import core_set_entries

pytestmark = pytest.mark.integration

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def cards_engine(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def core_set(cards_engine):
    """The Core Set's definitions as the service keeps them, by name."""
    rows = {}
    for entry in core_set_entries():
        body = entry["body"]
        rows[body["name"]] = {
            "id": uuid.uuid4(),
            "lineage_id": uuid.uuid4(),
            "game": "chronovore",
            "kind": entry["kind"],
            "name": body["name"],
            "rarity": body["rarity"],
            "attributes": CHRONOVORE_COLLECTION.card_attributes(entry["kind"], body),
            "version": 1,
            "snapshot": body,
            "published_at": NOW,
        }
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions), list(rows.values()))
    return rows


@pytest.fixture
def cards(start_service, rpc, core_set):
    start_service("cards")
    return rpc.cards


def give(cards_engine, core_set, player_id, names, finish="plain"):
    copies = [
        {
            "id": uuid.uuid4(),
            "player_id": player_id,
            "definition_id": core_set[name]["id"],
            "source_type": "pack",
            "source_id": uuid.uuid4(),
            "finish": finish,
            "acquired_at": NOW,
        }
        for name in names
    ]
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.owned_cards), copies)
    return [str(c["id"]) for c in copies]


MEDIC_30 = (
    ["Bandage Sprite"] * 4
    + ["Triage Orderly"] * 3
    + ["Ward Nurse"] * 3
    + ["Lazarus Kit"] * 2
    + ["Saint of Sutures", "Eternal Physician"]
    + ["Cave Rat"] * 4
    + ["Goblin Cutpurse"] * 4
    + ["Moss Troll"] * 4
    + ["Healing Spring"] * 4
)


@pytest.fixture
def player(cards_engine, core_set):
    player_id = uuid.uuid4()
    return player_id, give(cards_engine, core_set, player_id, MEDIC_30)


def codes(deck):
    return [p["code"] for p in deck["problems"]]


def test_thirty_cards_of_one_class_and_neutral_are_a_legal_deck(cards, player):
    player_id, copies = player
    assert len(copies) == 30
    deck = cards.create_deck(player_id=str(player_id), name="Ward", cards=copies, game="chronovore")
    assert deck["legal"] is True and deck["problems"] == [] and len(deck["cards"]) == 30
    match = cards.deck_for_match(player_id=str(player_id), deck_id=deck["id"])
    assert len(match["cards"]) == 30 and match["cards"][0]["definition"]["card_class"]
    assert [d["name"] for d in cards.list_decks(player_id=str(player_id), game="chronovore")] == [
        "Ward"
    ]
    assert cards.list_decks(player_id=str(player_id)) == []  # Quest's decks are another list


def test_a_work_in_progress_is_saved_with_every_problem_and_cannot_be_played(
    cards, player, cards_engine, core_set
):
    player_id, copies = player
    extra = give(
        cards_engine, core_set, player_id, ["Boarding Hook", "Bandage Sprite", "Ouroboros Clock"]
    )
    listed = copies + extra  # 33 cards: a Captain card, a fifth Bandage Sprite, a second Mythic
    deck = cards.create_deck(
        player_id=str(player_id), name="Draft", cards=listed, game="chronovore"
    )
    assert deck["legal"] is False and deck["version"] == 1
    assert codes(deck) == ["deck_size", "deck_class_mixed", "deck_copy_limit", "deck_mythic_limit"]
    with pytest.raises(InvalidInput) as refused:
        cards.deck_for_match(player_id=str(player_id), deck_id=deck["id"])
    assert refused.value.code == "deck_size"
    fixed = cards.edit_deck(
        player_id=str(player_id), deck_id=deck["id"], expected_version=1, cards=copies
    )
    assert fixed["legal"] is True and fixed["version"] == 2
    broken = cards.edit_deck(
        player_id=str(player_id), deck_id=deck["id"], expected_version=2, cards=copies[:29]
    )
    assert broken["legal"] is False and codes(broken) == ["deck_size"]  # the mark is cleared


def test_every_finish_of_a_card_counts_together(cards, player, cards_engine, core_set):
    player_id, copies = player
    rats = [c for c, name in zip(copies, MEDIC_30, strict=True) if name == "Cave Rat"]
    springs = [c for c, name in zip(copies, MEDIC_30, strict=True) if name == "Healing Spring"]
    diamond = give(cards_engine, core_set, player_id, ["Cave Rat"], finish="diamond")
    four = [c for c in copies if c != rats[0]] + diamond  # three plain and one diamond
    deck = cards.create_deck(player_id=str(player_id), name="Four", cards=four, game="chronovore")
    assert deck["legal"] is True
    five = [c for c in copies if c != springs[0]] + diamond  # four plain and one diamond
    deck = cards.create_deck(player_id=str(player_id), name="Five", cards=five, game="chronovore")
    assert codes(deck) == ["deck_copy_limit"] and "Cave Rat" in deck["problems"][0]["message"]


def test_another_players_copy_is_refused_and_nothing_is_saved(
    cards, player, cards_engine, core_set
):
    player_id, copies = player
    stranger = give(cards_engine, core_set, uuid.uuid4(), ["Cave Rat"])
    with pytest.raises(InvalidInput) as refused:
        cards.create_deck(
            player_id=str(player_id), name="Theft", cards=copies[:-1] + stranger, game="chronovore"
        )
    assert refused.value.code == "deck_copy_not_owned"
    assert cards.list_decks(player_id=str(player_id), game="chronovore") == []


def test_an_empty_list_is_saved_as_a_work_in_progress_and_filled_later(cards, player):
    player_id, copies = player
    deck = cards.create_deck(player_id=str(player_id), name="Blank", cards=[], game="chronovore")
    assert (deck["legal"], codes(deck), deck["cards"]) == (False, ["deck_size"], [])
    filled = cards.edit_deck(
        player_id=str(player_id), deck_id=deck["id"], expected_version=1, cards=copies
    )
    assert filled["legal"] is True
    emptied = cards.edit_deck(
        player_id=str(player_id), deck_id=deck["id"], expected_version=2, cards=[]
    )
    assert emptied["cards"] == [] and codes(emptied) == ["deck_size"]


def test_a_route_of_one_game_does_not_find_a_deck_of_another(cards, player):
    player_id, copies = player
    deck = cards.create_deck(player_id=str(player_id), name="Ward", cards=copies, game="chronovore")
    ref = {"player_id": str(player_id), "deck_id": deck["id"]}
    assert cards.get_deck(**ref, game="chronovore")["id"] == deck["id"]
    assert cards.deck_for_match(**ref, game="chronovore")["game"] == "chronovore"
    for asked in (
        lambda: cards.get_deck(**ref, game="quest"),
        lambda: cards.deck_for_match(**ref, game="quest"),
        lambda: cards.edit_deck(**ref, game="quest", expected_version=1, name="Mine"),
        lambda: cards.delete_deck(**ref, game="quest", expected_version=1),
    ):
        with pytest.raises(NotFound) as missing:
            asked()
        assert missing.value.code == "deck_not_found"
    assert cards.get_deck(**ref)["version"] == 1  # untouched

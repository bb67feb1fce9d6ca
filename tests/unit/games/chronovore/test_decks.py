"""Deck legality (rulebook, "Decks"): one class plus Neutral, exactly 30, copy limits
per card with every finish counted together, one Mythic card."""

import uuid

import pytest

from games.chronovore.collection import CHRONOVORE_COLLECTION
from games.chronovore.decks import MAX_LIST_CARDS, WORK_IN_PROGRESS, assess, card_problems
from games.kit.collection import CardCopy

from .support import deck, monster


def copies(card_class="medic", rarity="common", count=1, finish="plain", card=None, name=None):
    card = card or uuid.uuid4()
    name = name or f"card {card}"
    return [
        CardCopy(
            uuid.uuid4(),
            "monster",
            rarity,
            finish,
            {"card_class": card_class, "name": name},
            card=card,
        )
        for _ in range(count)
    ]


def neutral_fill(n):
    return [c for _ in range(n) for c in copies("neutral")]


def judge(cards):
    ids = [c.copy_id for c in cards]
    return assess(ids, {c.copy_id: c for c in cards})


def codes(cards):
    return [p.code for p in judge(cards).problems]


def test_thirty_cards_of_one_class_and_neutral_are_legal():
    result = judge(copies("medic", count=4) + neutral_fill(26))
    assert result.legal and result.problems == ()


@pytest.mark.parametrize("size", [29, 31, 0, 45])
def test_only_exactly_30_cards_are_legal(size):
    assert codes(neutral_fill(size)) == ["deck_size"]


def test_a_list_longer_than_30_is_a_work_in_progress_that_may_be_saved():
    assert set(codes(neutral_fill(31))) <= WORK_IN_PROGRESS
    assert CHRONOVORE_COLLECTION.work_in_progress == WORK_IN_PROGRESS


def test_a_list_past_the_editing_bound_is_refused_outright():
    result = codes(neutral_fill(MAX_LIST_CARDS + 1))
    assert "deck_list_too_long" in result and "deck_list_too_long" not in WORK_IN_PROGRESS


def test_a_card_of_another_class_makes_the_deck_illegal():
    assert codes(copies("medic") + copies("priest") + neutral_fill(28)) == ["deck_class_mixed"]


def test_a_deck_of_neutral_cards_only_is_legal():
    assert judge(neutral_fill(30)).legal


@pytest.mark.parametrize(
    ("rarity", "limit"), [("common", 4), ("uncommon", 3), ("rare", 2), ("epic", 1)]
)
def test_copy_limits_per_card_at_the_limit_and_one_past_it(rarity, limit):
    card = uuid.uuid4()
    at_limit = copies(rarity=rarity, count=limit, card=card)
    assert judge(at_limit + neutral_fill(30 - limit)).legal
    past = copies(rarity=rarity, count=limit + 1, card=card)
    assert codes(past + neutral_fill(29 - limit)) == ["deck_copy_limit"]


def test_every_finish_of_a_card_counts_together():
    card = uuid.uuid4()
    mixed = (
        copies(rarity="rare", card=card, finish="plain")
        + copies(rarity="rare", card=card, finish="golden")
        + copies(rarity="rare", card=card, finish="diamond")
    )
    assert codes(mixed + neutral_fill(27)) == ["deck_copy_limit"]


def test_one_mythic_card_in_the_whole_deck():
    one = copies(rarity="mythic")
    assert judge(one + neutral_fill(29)).legal
    two = copies(rarity="mythic") + copies(rarity="mythic", card_class="neutral")
    assert codes(two + neutral_fill(28)) == ["deck_mythic_limit"]


def test_copies_not_owned_or_listed_twice_are_refused_and_not_work_in_progress():
    cards = neutral_fill(30)
    ids = [c.copy_id for c in cards]
    owned = {c.copy_id: c for c in cards[1:]}
    result = assess([*ids[1:], ids[1]], owned)
    assert [p.code for p in result.problems][:1] == ["deck_copy_repeated"]
    assert "deck_copy_not_owned" in [p.code for p in assess(ids, owned).problems]
    assert not {"deck_copy_repeated", "deck_copy_not_owned"} & WORK_IN_PROGRESS


def test_every_reason_a_list_is_not_legal_is_given_at_once():
    card = uuid.uuid4()
    cards = copies("medic", count=5, card=card) + copies("captain") + copies(rarity="mythic") * 1
    cards += copies(rarity="mythic", card_class="neutral")
    assert codes(cards) == ["deck_size", "deck_class_mixed", "deck_copy_limit", "deck_mythic_limit"]


def test_a_matchs_decks_are_checked_by_the_same_rules():
    assert card_problems(deck()) == []
    too_many = [monster(name="Same")] * 5
    assert [p.code for p in card_problems(deck(*too_many))] == ["deck_copy_limit"]


def test_deck_names_are_cleaned():
    assert CHRONOVORE_COLLECTION.clean_deck_name("  Tide  ") == "Tide"

"""The Core Set as card data (services/authoring/seed/chronovore_core_set.json)."""

import json
from collections import Counter
from pathlib import Path

from games.chronovore.cards import card_from_definition
from games.chronovore.content import CardClass, Keyword, Rarity

from .support import core_set_entries

QUEST_CARDS = Path(__file__).parents[4] / "services/authoring/seed/quest_cards.json"
SIGNATURE = {
    CardClass.MEDIC: {"health", "armor"},
    CardClass.CAPTAIN: {"weapon", "strike"},
    CardClass.CHAPLAIN: {"next_enemy"},
    CardClass.ENGINEER: {"weapon", "upgrade"},
    CardClass.PRIEST: {"copy_opposing"},
}


def cards():
    return [card_from_definition(e["kind"], e["body"]) for e in core_set_entries()]


def test_at_least_120_cards_every_one_valid():
    assert len(cards()) >= 120


def test_every_class_neutral_rarity_kind_and_keyword_is_there():
    found = cards()
    assert {c.card_class for c in found} == set(CardClass)
    assert {c.rarity for c in found} == set(Rarity)
    assert {k for c in found for k in c.keywords} == set(Keyword)
    assert {c.kind.value for c in found} == {"monster", "event_card"}
    assert any(c.initiative for c in found)
    for card_class in CardClass:
        assert {c.rarity for c in found if c.card_class is card_class} == set(Rarity)


def test_each_class_plays_the_style_the_rulebook_gives_it():
    for card_class, signature in SIGNATURE.items():
        own = [c for c in cards() if c.card_class is card_class]
        styled = [c for c in own if signature & {r.type.value for r in c.rewards}]
        assert len(styled) / len(own) >= 0.6, card_class


def test_names_are_unique_and_none_is_a_quest_cards_name():
    names = Counter(c.name.casefold() for c in cards())
    assert max(names.values()) == 1
    quest = {c["body"]["name"].casefold() for c in json.loads(QUEST_CARDS.read_text("utf-8"))}
    assert not quest & set(names)


def test_the_file_is_what_the_generator_writes():
    from scripts.chronovore_core_set import core_set

    assert core_set() == core_set_entries()

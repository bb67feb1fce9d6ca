"""The engine's counted shortcuts against the step-by-step rules they stand for.

A fight and the duel are counted on integers, a draw takes its cards at once, a deck is
judged plainly legal without its entries, and the CPU weighs a card on integers: each
must give exactly what the step-by-step version gives (hero.py's strike and damage,
``receive`` card by card, ``entry_problems``, ``outcome`` and ``worth``), over grids
that cover every branch (weapons that break, Armor that runs out, Initiative, a monster
at 0 Health, a full hand, an empty deck, every Core Set card).
"""

from __future__ import annotations

import itertools

from games.chronovore.balance import cards_from_entries
from games.chronovore.cpu import gain_of, outcome, worth
from games.chronovore.decks import Entry, card_problems, entry_problems
from games.chronovore.resolve import (
    _exchange_blow_by_blow,
    _exchange_strikes,
    _fight_blow_by_blow,
    draw,
    fight,
    receive,
)
from games.chronovore.state import Hero, InPlay, Interference, SeatState, Settings, Weapon

from .support import core_set_entries, monster

WEAPONS = (None, (1, 1), (2, 3), (5, 1), (1, 7))


def heroes(lives=(1, 2, 5, 13, 30), armors=(0, 1, 4, 9), strengths=(1, 2, 3)):
    for life, armor, strength, weapon in itertools.product(lives, armors, strengths, WEAPONS):
        yield Hero(life, armor, 3, strength, None if weapon is None else Weapon(*weapon))


def test_a_counted_fight_is_the_fight_blow_by_blow():
    for hero in heroes():
        for attack, health, initiative in itertools.product(
            (-1, 0, 1, 2, 3, 7, 30), (-2, 0, 1, 2, 9, 17, 60), (False, True)
        ):
            assert fight(hero, attack, health, initiative) == _fight_blow_by_blow(
                hero, attack, health, initiative
            ), (hero, attack, health, initiative)


def test_a_hero_holding_an_unusable_weapon_fights_blow_by_blow():
    # The engine never hands one out (a weapon with 0 attack or durability is no weapon);
    # a stored state could hold one, and it still fights by the rules.
    hero = Hero(10, 0, 0, 1, Weapon(0, 2))
    assert fight(hero, 2, 3, False) == _fight_blow_by_blow(hero, 2, 3, False)


def test_a_counted_duel_is_the_duel_exchange_by_exchange():
    lives, armors, strengths = (-1, 1, 4, 30), (0, 3, 11), (1, 2, 4)
    duelists = [
        Hero(life, armor, 0, strength, None if w is None else Weapon(*w))
        for life, armor, strength, w in itertools.product(
            lives, armors, strengths, (None, (1, 1), (3, 4), (0, 2), (2, 0))
        )
    ]
    for first, second in itertools.product(duelists, repeat=2):
        assert _exchange_strikes(first, second) == _exchange_blow_by_blow(first, second)


def test_a_draw_at_once_is_receive_card_by_card():
    card = monster(1, 1)

    def one_by_one(side, count, settings):
        events = []
        for _ in range(count):
            if not side.deck:
                events.append({"type": "deck_empty", "seat": "a"})
                break
            top = side.deck[0]
            side = side.replace(deck=side.deck[1:])
            side, event = receive(side, top, "a", settings, "drawn")
            events.append(event)
        return side, events

    for decked, held, count, limit in itertools.product(
        range(5), range(7), range(-1, 6), (0, 3, 5, 12)
    ):
        side = SeatState(
            Hero(30),
            tuple(InPlay(n, card) for n in range(decked)),
            tuple(InPlay(100 + n, card) for n in range(held)),
        )
        settings = Settings(hand_limit=limit)
        assert draw(side, count, "a", settings) == one_by_one(side, count, settings)
        assert (
            draw(side, count, "a", settings, quiet=True)[0] == one_by_one(side, count, settings)[0]
        )


def test_a_deck_judged_plainly_legal_has_no_problem_entry_by_entry():
    cards = cards_from_entries(core_set_entries())
    by_class: dict[str, list] = {}
    for card in cards:
        by_class.setdefault(card.card_class.value, []).append(card)
    neutral = by_class.pop("neutral")
    decks = []
    for members in by_class.values():
        decks.append(members[:18] + neutral[:12])  # one copy each
        decks.append(members[:1] * 5 + members[1:26])  # five copies of one card
        decks.append(members[:30] + neutral[:1])  # 31 cards
    classes = list(by_class.values())
    decks.append(classes[0][:15] + classes[1][:15])  # two classes
    mythic = [c for c in cards if c.rarity.value == "mythic"]
    decks.append(mythic[:2] + neutral[:28])  # two Mythic cards
    for deck in decks:
        entries = [
            Entry(c.name.casefold(), c.name, c.card_class.value, c.rarity.value) for c in deck
        ]
        assert card_problems(deck) == entry_problems(entries)


def test_the_cpus_counted_gain_is_worth_after_its_outcome():
    cards = cards_from_entries(core_set_entries())
    waitings = (
        Interference(),
        Interference(monster_attack=2, monster_health=3, monster_initiative=True),
        Interference(event_cost=2),
    )
    settings = Settings()
    for hero in heroes(lives=(1, 4, 30), armors=(0, 5), strengths=(1, 3)):
        before = worth(hero)
        for card, waiting in itertools.product(cards, waitings):
            result = outcome(hero, card, waiting, settings)
            expected = None if result is None else worth(result[0]) - before + result[2]
            assert gain_of(hero, card, waiting, settings, before) == expected, (hero, card)

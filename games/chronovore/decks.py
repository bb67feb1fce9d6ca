"""Deck legality (rulebook, "Decks"): pure rules, every reason a list is not legal.

A deck belongs to one class and may hold Neutral cards and cards of that class; a card
of another class makes it illegal. A legal deck has exactly 30 cards; while edited a
list may hold more (or fewer) and is a work in progress. Rarity limits the copies of one
card, every finish counted together (Common 4, Uncommon 3, Rare 2, Epic 1), and a deck
holds one Mythic card at most. ``assess`` gives the legal mark and every problem; the
same core rules check a match's decks (``card_problems``).
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from games.chronovore.cards import Card
from games.chronovore.content import COPY_LIMIT, DECK_SIZE, MAX_MYTHIC_CARDS, CardClass, Rarity
from games.kit import collection
from games.kit.collection import Assessment, CardCopy, Problem
from games.kit.frozen import plain

# Ours (docs/chronovore.md): the longest list a player may store while editing, and
# how many deck lists a player keeps.
MAX_LIST_CARDS = 100  # the cards service takes lists of at most 100 ids
MAX_DECKS_PER_PLAYER = 30
MAX_DECK_NAME_LENGTH = 40
# The problems of a work in progress: a list with them is stored, just not legal. The
# others (a copy not owned, one copy twice, a list too long) are refused outright.
WORK_IN_PROGRESS = frozenset(
    {"deck_size", "deck_class_mixed", "deck_copy_limit", "deck_mythic_limit"}
)


@plain
@dataclass(frozen=True)
class Entry:
    """One card of a list as the rules see it: which card, its class and rarity."""

    card: Hashable  # what makes two copies the same card (all finishes alike)
    name: str
    card_class: str
    rarity: str


def deck_class(entries: Sequence[Entry]) -> str | None:
    """The list's class: its one non-Neutral class, Neutral for Neutral cards only, None
    when it mixes classes."""
    classes = {e.card_class for e in entries} - {CardClass.NEUTRAL.value}
    if len(classes) > 1:
        return None
    return classes.pop() if classes else CardClass.NEUTRAL.value


def entry_problems(entries: Sequence[Entry], size: int | None = None) -> list[Problem]:
    """Every deck rule the cards break, in a fixed order (``size``: the list's length)."""
    size = len(entries) if size is None else size
    problems: list[Problem] = []
    if size != DECK_SIZE:
        problems.append(
            Problem("deck_size", f"a legal deck has exactly {DECK_SIZE} cards, not {size}")
        )
    classes = sorted({e.card_class for e in entries} - {CardClass.NEUTRAL.value})
    if len(classes) > 1:
        problems.append(
            Problem(
                "deck_class_mixed",
                f"a deck belongs to one class plus Neutral; this list has {', '.join(classes)}",
            )
        )
    counts = Counter(e.card for e in entries)
    first = {e.card: e for e in reversed(entries)}
    for card, count in counts.items():
        entry = first[card]
        limit = COPY_LIMIT[Rarity(entry.rarity)]
        if count > limit:
            problems.append(
                Problem(
                    "deck_copy_limit",
                    f"{entry.name} is {entry.rarity}: at most {limit} per deck, not {count}",
                )
            )
    mythic = sum(1 for e in entries if e.rarity == Rarity.MYTHIC)
    if mythic > MAX_MYTHIC_CARDS:
        problems.append(
            Problem(
                "deck_mythic_limit",
                f"a deck holds {MAX_MYTHIC_CARDS} Mythic card at most, not {mythic}",
            )
        )
    return problems


def _entry(copy: CardCopy) -> Entry:
    attrs = copy.attributes
    name = str(attrs.get("name", ""))
    return Entry(
        card=copy.card if copy.card is not None else name.casefold(),
        name=name,
        card_class=str(attrs.get("card_class")),
        rarity=copy.rarity,
    )


def assess(copy_ids: Sequence[uuid.UUID], owned: Mapping[uuid.UUID, CardCopy]) -> Assessment:
    """The legal mark and every reason a list is not legal; ``owned`` is the caller's own
    copies (a copy's ``attributes`` hold its card, name and class: ``collection.py``)."""
    problems: list[Problem] = []
    if len(copy_ids) > MAX_LIST_CARDS:
        problems.append(
            Problem("deck_list_too_long", f"a list holds at most {MAX_LIST_CARDS} cards")
        )
    problems += collection.ownership_problems(copy_ids, owned)
    entries = [_entry(owned[c]) for c in dict.fromkeys(copy_ids) if c in owned]
    problems += entry_problems(entries, size=len(copy_ids))
    return Assessment(not problems, 0, tuple(problems))


def card_problems(cards: Sequence[Card]) -> list[Problem]:
    """The deck rules over a match's cards (one card: one name)."""
    if _plainly_legal(cards):
        return []
    entries = [Entry(c.name.casefold(), c.name, c.card_class.value, c.rarity.value) for c in cards]
    return entry_problems(entries)


def _plainly_legal(cards: Sequence[Card]) -> bool:
    """True when the cards break none of ``entry_problems``'s rules, judged without
    building its entries (a match starts with this check on both decks). False may
    also mean "not plainly": ``entry_problems`` then names every problem. Copies of one
    name with different rarities are never plainly legal."""
    if len(cards) != DECK_SIZE:
        return False
    classes, mythics = set(), 0
    counts: dict[str, int] = {}
    limits: dict[str, int] = {}
    for card in cards:
        found = _FACTS.get(id(card))
        facts = found[1] if found is not None and found[0] is card else _deck_facts(card)
        name, card_class, limit, mythic = facts
        if card_class is not None:
            classes.add(card_class)
        mythics += mythic
        counts[name] = counts.get(name, 0) + 1
        if limits.setdefault(name, limit) != limit:
            return False
    if len(classes) > 1 or mythics > MAX_MYTHIC_CARDS:
        return False
    return all(count <= limits[name] for name, count in counts.items())


# What the deck rules need of a card (its name's casefold, its class unless Neutral,
# its copy limit, whether it is Mythic), by the card's id; each entry holds its card, so
# no other object takes that id while the entry lives. Bounded: emptied when full.
_FACTS: dict[int, tuple[Card, tuple[str, str | None, int, bool]]] = {}
_FACTS_KEPT = 4096


def _deck_facts(card: Card) -> tuple[str, str | None, int, bool]:
    found = _FACTS.get(id(card))
    if found is None or found[0] is not card:
        rarity = Rarity(card.rarity)
        card_class = str(card.card_class)
        facts = (
            card.name.casefold(),
            None if card_class == CardClass.NEUTRAL.value else card_class,
            COPY_LIMIT[rarity],
            rarity is Rarity.MYTHIC,
        )
        if len(_FACTS) >= _FACTS_KEPT:
            _FACTS.clear()
        found = _FACTS[id(card)] = (card, facts)
    return found[1]


def require_legal(copy_ids: Sequence[uuid.UUID], owned: Mapping[uuid.UUID, CardCopy]) -> Assessment:
    return collection.require_legal(assess(copy_ids, owned))


def clean_name(name: str) -> str:
    """A deck name: trimmed, 1-40 characters, no control characters."""
    return collection.clean_deck_name(name, MAX_DECK_NAME_LENGTH)

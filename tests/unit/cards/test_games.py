"""The cards service is generic over games: a fake second game, registered here only,
gets its definitions read, its rewards rolled and its decks judged by its own rules."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from games.kit.collection import Assessment, CardCopy, CardPool, CollectionRules, Problem
from games.kit.fair import Draws
from games.kit.refusal import Refusal
from games.quest.collection import QUEST_COLLECTION
from services.cards.fairness_store import Seed
from services.cards.games import CardGames, new_copies
from services.cards.handlers import record_published_definition
from services.cards.ownership_store import OwnedCopy, RewardGrant
from services.cards.repository import CardsUnitOfWork
from services.cards.reward_handlers import grant_reward
from services.cards.schemas import DefinitionSchema
from services.cards.views import deck_cards
from shared.clock import FixedClock
from shared.errors import InvalidInput
from shared.events import (
    ATTEMPT_COMPLETED,
    CONTENT_PUBLISHED,
    REWARD_GRANTED,
    Event,
    UnprocessableMessage,
    new_event,
    read_event,
)
from shared.randomness import SeededRandomSource
from shared.testing import FakePlayerGate

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FAKE = "duelkit"


def _fake_attributes(kind: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(snapshot.get("atk"), int):
        raise Refusal("invalid_atk", "a duelkit card has an integer atk")
    return {"atk": snapshot["atk"], "category": snapshot.get("category", "none")}


def _fake_assess(copy_ids: Sequence[uuid.UUID], owned: Mapping[uuid.UUID, CardCopy]) -> Assessment:
    cards = [owned[c] for c in copy_ids if c in owned]
    cost = sum(card.attributes["atk"] for card in cards)
    problems = [] if len(cards) == len(copy_ids) == 1 else [Problem("one_card", "one card")]
    return Assessment(not problems, cost, tuple(problems))


def _fake_roll(correct: int, eligible: Mapping[str, Sequence[Any]], draws: Draws) -> list[Any]:
    return [draws.choice("card.0", eligible["Bronze"], lambda d: str(d["id"]))] if correct else []


FAKE_RULES = CollectionRules(
    game=FAKE,
    card_kinds=frozenset({"unit"}),
    finishes=frozenset({"foil", "standard"}),
    sources=frozenset({"reward", "pack"}),
    card_attributes=_fake_attributes,
    assess_deck=_fake_assess,
    clean_deck_name=str.strip,
    max_decks_per_player=1,
    reward_pool=CardPool(frozenset({"unit"}), {"category": "beast"}),
    roll_reward=_fake_roll,
    default_finish="foil",
)
GAMES = CardGames([QUEST_COLLECTION, FAKE_RULES])


class FakeInbox:
    def first_delivery(self, message_id: uuid.UUID, consumer: str) -> bool:
        return True


class FakeDefinitions:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add_published(self, definition: dict[str, Any]) -> bool:
        self.rows.append(definition)
        return True

    def pool(self, game: str, pool: CardPool) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        for row in self.rows:
            matches = all(row["attributes"].get(k) == v for k, v in pool.attributes.items())
            if row["game"] == game and row["kind"] in pool.kinds and matches:
                found.setdefault(row["rarity"], []).append(row)
        return found


class FakeOwned:
    def __init__(self) -> None:
        self.copies: list[OwnedCopy] = []

    def add_all(self, copies: Sequence[OwnedCopy]) -> None:
        self.copies += copies


class FakeRewards:
    def __init__(self) -> None:
        self.grants: list[RewardGrant] = []

    def exists(self, attempt_id: uuid.UUID) -> bool:
        return any(g.attempt_id == attempt_id for g in self.grants)

    def add_if_new(self, grant: RewardGrant) -> bool:
        self.grants.append(grant)
        return True


class FakeFairness:
    """services.cards.fairness_store.SqlFairness in memory."""

    def __init__(self) -> None:
        self.seeds: dict[uuid.UUID, Seed] = {}
        self.rolls: list[dict[str, Any]] = []

    def active(self, player_id: uuid.UUID) -> Seed | None:
        return self.seeds.get(player_id)

    def add_active(self, seed: Seed) -> None:
        self.seeds[seed.player_id] = seed

    def take_nonce(self, seed_id: uuid.UUID) -> int:
        [seed] = [s for s in self.seeds.values() if s.id == seed_id]
        self.seeds[seed.player_id] = replace(seed, next_nonce=seed.next_nonce + 1)
        return seed.next_nonce

    def add_roll(self, roll: dict[str, Any]) -> None:
        self.rolls.append(roll)


class FakeEvents:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def add_event(self, event: Event) -> None:
        self.events.append(event)


def uow() -> CardsUnitOfWork:
    return CardsUnitOfWork(
        collections=None,  # type: ignore[arg-type]
        inbox=FakeInbox(),
        definitions=FakeDefinitions(),  # type: ignore[arg-type]
        events=FakeEvents(),
        owned=FakeOwned(),  # type: ignore[arg-type]
        rewards=FakeRewards(),  # type: ignore[arg-type]
        starters=None,  # type: ignore[arg-type]
        decks=None,  # type: ignore[arg-type]
        players=FakePlayerGate(),
        fairness=FakeFairness(),  # type: ignore[arg-type]
        ledger=None,  # type: ignore[arg-type]
        packs=None,  # type: ignore[arg-type]
        terrakard=None,  # type: ignore[arg-type]
        crafting=None,  # type: ignore[arg-type]
    )


def published(kind: str, snapshot: dict[str, Any], game: str = FAKE) -> Event:
    content_id = uuid.uuid4()
    return new_event(
        CONTENT_PUBLISHED,
        {
            "content_id": content_id,
            "lineage_id": content_id,
            "kind": kind,
            "game": game,
            "version": 1,
            "published_at": NOW,
            "snapshot": {"name": "Wolf", "rarity": "Bronze", **snapshot},
        },
        NOW,
    )


def test_a_published_card_of_another_game_keeps_the_attributes_its_game_reads():
    work = uow()
    assert record_published_definition(
        published("unit", {"atk": 3, "category": "beast", "lore": "x"}), work, GAMES
    )
    [row] = work.definitions.rows  # type: ignore[attr-defined]
    assert (row["game"], row["kind"], row["rarity"]) == (FAKE, "unit", "Bronze")
    assert row["attributes"] == {"atk": 3, "category": "beast"}


def test_content_that_is_not_a_card_of_a_kept_game_is_not_kept():
    work = uow()
    assert not record_published_definition(published("creature", {"atk": 1}), work, GAMES)
    assert not record_published_definition(
        published("unit", {"atk": 1}, game="elsewhere"), work, GAMES
    )
    assert work.definitions.rows == []  # type: ignore[attr-defined]


def test_a_definition_its_game_refuses_is_parked_not_retried():
    with pytest.raises(UnprocessableMessage):
        record_published_definition(published("unit", {"atk": "high"}), uow(), GAMES)


def test_a_reward_is_rolled_by_the_rules_of_the_attempt_s_game():
    work = uow()
    for category in ("beast", "machine"):
        record_published_definition(
            published("unit", {"atk": 2, "category": category}), work, GAMES
        )
    attempt_id, player_id = uuid.uuid4(), uuid.uuid4()
    completed = new_event(
        ATTEMPT_COMPLETED,
        {
            "attempt_id": attempt_id,
            "player_id": player_id,
            "game": FAKE,
            "event_id": uuid.uuid4(),
            "correct_count": 1,
            "completed_at": NOW,
        },
        NOW,
    )
    assert grant_reward(completed, work, SeededRandomSource(1), FixedClock(NOW), GAMES)
    [copy] = work.owned.copies  # type: ignore[attr-defined]
    assert (copy.source_type, copy.source_id, copy.finish) == ("reward", attempt_id, "foil")
    # the roll is the player's first fair roll, stored with the draw that chose the card
    [roll] = work.fairness.rolls  # type: ignore[attr-defined]
    assert (roll["purpose"], roll["nonce"], roll["source_id"]) == (
        "duelkit.reward",
        0,
        str(attempt_id),
    )
    assert [d["outcome"] for d in roll["draws"]] == [str(copy.definition_id)]
    [event] = work.events.events  # type: ignore[attr-defined]
    granted = read_event(REWARD_GRANTED, event.to_message()).data
    assert granted["game"] == FAKE
    assert [(c["finish"], c["attributes"]) for c in granted["cards"]] == [
        ("foil", {"atk": 2, "category": "beast"})
    ]


def test_copies_are_granted_only_by_their_game_s_sources_and_finishes():
    player = uuid.uuid4()
    [pack] = new_copies(FAKE_RULES, player, [uuid.uuid4()], ("pack", player), NOW, "standard")
    assert (pack.source_type, pack.finish) == ("pack", "standard")
    with pytest.raises(ValueError, match="pack"):
        new_copies(QUEST_COLLECTION, player, [uuid.uuid4()], ("pack", player), NOW)
    with pytest.raises(ValueError, match="foil"):
        new_copies(QUEST_COLLECTION, player, [uuid.uuid4()], ("reward", player), NOW, "foil")


def test_a_deck_holds_only_copies_of_its_own_game():
    ours, theirs = uuid.uuid4(), uuid.uuid4()
    owned = {
        ours: {"id": ours, "game": FAKE, "kind": "unit", "rarity": "Bronze", "finish": "foil",
               "attributes": {"atk": 4}},
        theirs: {"id": theirs, "game": "quest", "kind": "creature", "rarity": "Common",
                 "finish": "standard", "attributes": {"affinity": "Wit"}},
    }  # fmt: skip
    cards = deck_cards(FAKE, owned)
    assert list(cards) == [ours]
    assert FAKE_RULES.assess_deck([ours], cards) == Assessment(True, 4, ())
    assert not FAKE_RULES.assess_deck([theirs], cards).legal


def test_an_unknown_game_is_invalid_input():
    with pytest.raises(InvalidInput) as refused:
        GAMES.rules("nope")
    assert refused.value.code == "unknown_game"


def test_the_catalogue_shows_quest_s_attributes_where_it_showed_them_before():
    row = {
        "id": uuid.uuid4(),
        "kind": "creature",
        "game": "quest",
        "name": "Quillip",
        "rarity": "Common",
        "attributes": {"affinity": "Wit", "reward_eligible": True, "evolved": False},
        "snapshot": {"hp": 60},
    }
    dumped = DefinitionSchema().dump(row)
    assert (dumped["affinity"], dumped["reward_eligible"], dumped["evolved"]) == (
        "Wit",
        True,
        False,
    )
    assert "attributes" not in dumped and dumped["definition"] == {"hp": 60}

"""Accounts and cards use cases over in-memory fakes (no database, no broker)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.accounts.domain import Player, PlayerStatus
from services.accounts.handlers import GetOrRegisterPlayer, get_or_register_player
from services.accounts.repository import AccountsUnitOfWork
from services.cards.handlers import (
    PLAYER_REGISTERED_CONSUMER,
    GetCollection,
    create_collection,
    get_collection,
)
from services.cards.repository import CardsUnitOfWork, Collection
from shared.clock import FixedClock
from shared.errors import InvalidInput, NotFound
from shared.events import PLAYER_REGISTERED, Event, new_event, read_event
from shared.testing import FakePlayerGate

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
SUB = "auth0|64f1c0ffee"


# -- fakes ---------------------------------------------------------------------------


class FakePlayerRepository:
    def __init__(self, players: list[Player] | None = None) -> None:
        self.by_sub: dict[str, Player] = {p.auth0_sub: p for p in players or []}
        self.concurrent_winner: Player | None = None  # inserted "by someone else" at add time

    def by_subject(self, sub: str) -> Player | None:
        return self.by_sub.get(sub)

    def add_if_new(self, player: Player) -> bool:
        if self.concurrent_winner is not None:
            self.by_sub.setdefault(self.concurrent_winner.auth0_sub, self.concurrent_winner)
        if player.auth0_sub in self.by_sub:
            return False
        self.by_sub[player.auth0_sub] = player
        return True


class FakeEventSink:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def add_event(self, event: Event) -> None:
        self.events.append(event)


def accounts_uow(players: FakePlayerRepository | None = None) -> AccountsUnitOfWork:
    return AccountsUnitOfWork(players=players or FakePlayerRepository(), events=FakeEventSink())


def sequential_ids():
    counter = iter(range(1, 10_000))
    return lambda: uuid.UUID(int=next(counter))


class FakeCollectionRepository:
    def __init__(self) -> None:
        self.by_player: dict[uuid.UUID, Collection] = {}

    def get(self, player_id: uuid.UUID) -> Collection | None:
        return self.by_player.get(player_id)

    def create_if_missing(self, collection: Collection) -> bool:
        if collection.player_id in self.by_player:
            return False
        self.by_player[collection.player_id] = collection
        return True


class FakeInbox:
    def __init__(self) -> None:
        self.seen: set[tuple[uuid.UUID, str]] = set()

    def first_delivery(self, message_id: uuid.UUID, consumer: str) -> bool:
        if (message_id, consumer) in self.seen:
            return False
        self.seen.add((message_id, consumer))
        return True


class FakeDefinitions:
    def __init__(self) -> None:
        self.rows: dict[uuid.UUID, dict] = {}

    def add_published(self, definition: dict) -> bool:
        return self.rows.setdefault(definition["id"], definition) is definition

    def retire(self, definition_id: uuid.UUID, at: datetime) -> bool:
        row = self.rows.get(definition_id)
        if row is None or row.get("retired_at"):
            return False
        row["retired_at"] = at
        return True

    def active(self, game: str) -> list[dict]:
        return [r for r in self.rows.values() if r["game"] == game and not r.get("retired_at")]


def cards_uow() -> CardsUnitOfWork:
    # These handlers touch only collections, the inbox and definitions; the other
    # repositories are absent so that any use of them fails loudly.
    return CardsUnitOfWork(
        collections=FakeCollectionRepository(),
        inbox=FakeInbox(),
        definitions=FakeDefinitions(),
        events=None,  # type: ignore[arg-type]
        owned=None,  # type: ignore[arg-type]
        rewards=None,  # type: ignore[arg-type]
        starters=None,  # type: ignore[arg-type]
        decks=None,  # type: ignore[arg-type]
        players=FakePlayerGate(),
        fairness=None,  # type: ignore[arg-type]
        ledger=None,  # type: ignore[arg-type]
        packs=None,  # type: ignore[arg-type]
        terrakard=None,  # type: ignore[arg-type]
        crafting=None,  # type: ignore[arg-type]
    )


def player_registered(player_id: uuid.UUID, at: datetime = START) -> Event:
    return new_event(PLAYER_REGISTERED, {"player_id": player_id, "registered_at": at}, at)


# -- accounts: get_or_register_player ---------------------------------------------------


def test_first_call_registers_an_active_player_and_emits_one_event():
    uow = accounts_uow()
    player_id = uuid.UUID(int=42)

    player, registered = get_or_register_player(
        GetOrRegisterPlayer(SUB), uow, FixedClock(START), new_id=lambda: player_id
    )

    assert registered is True
    assert player == Player(player_id, SUB, PlayerStatus.ACTIVE, START)
    assert uow.players.by_subject(SUB) == player
    (event,) = uow.events.events
    assert event.type == "PlayerRegistered"
    assert event.data == {"player_id": player_id, "registered_at": START}
    assert event.occurred_at == START


def test_the_registration_event_is_a_valid_player_registered_message():
    uow = accounts_uow()

    player, _ = get_or_register_player(GetOrRegisterPlayer(SUB), uow, FixedClock(START))

    received = read_event(PLAYER_REGISTERED, uow.events.events[0].to_message())
    assert received.data["player_id"] == player.id


def test_second_call_returns_the_same_player_and_emits_nothing():
    uow = accounts_uow()
    clock = FixedClock(START)
    first, _ = get_or_register_player(GetOrRegisterPlayer(SUB), uow, clock, sequential_ids())
    clock.advance(days=3)

    again, registered = get_or_register_player(
        GetOrRegisterPlayer(SUB), uow, clock, sequential_ids()
    )

    assert registered is False
    assert again == first
    assert again.registered_at == START
    assert len(uow.events.events) == 1


def test_different_subjects_get_different_players():
    uow = accounts_uow()
    new_id = sequential_ids()
    clock = FixedClock(START)

    alice, _ = get_or_register_player(GetOrRegisterPlayer("auth0|alice"), uow, clock, new_id)
    bob, _ = get_or_register_player(GetOrRegisterPlayer("auth0|bob"), uow, clock, new_id)

    assert alice.id != bob.id
    assert len(uow.events.events) == 2


def test_losing_the_registration_race_returns_the_winner_and_emits_nothing():
    repository = FakePlayerRepository()
    winner = Player(uuid.UUID(int=7), SUB, PlayerStatus.ACTIVE, START - timedelta(seconds=1))
    repository.concurrent_winner = winner
    uow = accounts_uow(repository)

    player, registered = get_or_register_player(
        GetOrRegisterPlayer(SUB), uow, FixedClock(START), new_id=lambda: uuid.UUID(int=8)
    )

    assert registered is False
    assert player == winner
    assert uow.events.events == []


def test_a_locked_player_is_returned_as_is_not_re_registered():
    locked = Player(uuid.UUID(int=9), SUB, PlayerStatus.LOCKED, START)
    uow = accounts_uow(FakePlayerRepository([locked]))

    player, registered = get_or_register_player(GetOrRegisterPlayer(SUB), uow, FixedClock(START))

    assert (player, registered) == (locked, False)
    assert player.is_active is False
    assert uow.events.events == []


@pytest.mark.parametrize("sub", ["", "   ", "\t\n", "x" * 256])
def test_unusable_subject_is_invalid_input_and_changes_nothing(sub):
    uow = accounts_uow()

    with pytest.raises(InvalidInput) as caught:
        get_or_register_player(GetOrRegisterPlayer(sub), uow, FixedClock(START))

    assert caught.value.code == "invalid_subject"
    assert uow.players.by_sub == {}
    assert uow.events.events == []


@given(subs=st.lists(st.sampled_from(["auth0|a", "auth0|b", "google-oauth2|c"]), max_size=20))
def test_each_subject_is_registered_exactly_once_whatever_the_call_order(subs):
    uow = accounts_uow()
    new_id = sequential_ids()

    for sub in subs:
        get_or_register_player(GetOrRegisterPlayer(sub), uow, FixedClock(START), new_id)

    assert sorted(e.data["player_id"] for e in uow.events.events) == sorted(
        p.id for p in uow.players.by_sub.values()
    )
    assert set(uow.players.by_sub) == set(subs)


# -- cards: create_collection / get_collection -------------------------------------------


def test_first_delivery_creates_an_empty_collection():
    uow = cards_uow()
    player_id = uuid.UUID(int=11)

    applied = create_collection(player_registered(player_id), uow)

    assert applied is True
    assert uow.collections.get(player_id) == Collection(player_id, START)


def test_redelivery_of_the_same_event_changes_nothing_and_returns_false():
    uow = cards_uow()
    player_id = uuid.UUID(int=12)
    event = player_registered(player_id)
    create_collection(event, uow)
    before = dict(uow.collections.by_player)

    applied = create_collection(event, uow)

    assert applied is False
    assert uow.collections.by_player == before


def test_redelivery_seen_by_the_inbox_does_not_touch_collections():
    class ExplodingCollections(FakeCollectionRepository):
        def create_if_missing(self, collection: Collection) -> bool:
            raise AssertionError("a redelivered event must not reach the repository")

    event = player_registered(uuid.UUID(int=13))
    inbox = FakeInbox()
    inbox.seen.add((event.event_id, PLAYER_REGISTERED_CONSUMER))
    uow = cards_uow()
    uow.collections = ExplodingCollections()
    uow.inbox = inbox

    assert create_collection(event, uow) is False


def test_event_read_from_the_wire_creates_the_collection():
    uow = cards_uow()
    player_id = uuid.UUID(int=14)
    received = read_event(PLAYER_REGISTERED, player_registered(player_id).to_message())

    create_collection(received, uow)

    assert get_collection(GetCollection(player_id), uow) == Collection(player_id, START)


def test_get_collection_of_a_player_without_one_is_not_found():
    with pytest.raises(NotFound) as caught:
        get_collection(GetCollection(uuid.UUID(int=99)), cards_uow())

    assert caught.value.code == "collection_not_found"
    assert caught.value.status == 404


# -- the hot path: me -------------------------------------------------------------------


class Opened:
    """Counts how often a context (reader or unit of work) was opened."""

    def __init__(self, value) -> None:
        self.value = value
        self.count = 0

    def __call__(self):
        from contextlib import nullcontext

        self.count += 1
        return nullcontext(self.value)


def test_me_reads_a_known_player_without_opening_a_unit_of_work():
    from services.accounts.handlers import me

    players = FakePlayerRepository()
    uow = accounts_uow(players)
    get_or_register_player(GetOrRegisterPlayer("auth0|known"), uow, FixedClock(START))
    reader, unit_of_work = Opened(players), Opened(accounts_uow(players))

    player, registered = me(
        GetOrRegisterPlayer("auth0|known"), reader, unit_of_work, FixedClock(START)
    )

    assert (player.auth0_sub, registered) == ("auth0|known", False)
    assert (reader.count, unit_of_work.count) == (1, 0)


def test_me_registers_a_new_player_in_a_unit_of_work_with_its_event():
    from services.accounts.handlers import me

    players = FakePlayerRepository()
    uow = accounts_uow(players)
    reader, unit_of_work = Opened(players), Opened(uow)

    _, registered = me(GetOrRegisterPlayer("auth0|new"), reader, unit_of_work, FixedClock(START))

    assert registered is True
    assert unit_of_work.count == 1
    assert [e.type for e in uow.events.events] == ["PlayerRegistered"]


def test_a_registration_arriving_after_the_purge_creates_no_collection():
    uow = cards_uow()
    player_id = uuid.UUID(int=12)
    uow.players.purged.add(player_id)  # type: ignore[attr-defined]

    assert create_collection(player_registered(player_id), uow) is False
    assert uow.collections.get(player_id) is None

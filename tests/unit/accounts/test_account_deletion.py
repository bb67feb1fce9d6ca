"""Account deletion rules and use cases, on fakes: confirmation, recent login, the saga's
steps and retries, what is kept and for how long."""

from __future__ import annotations

import uuid
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from services.accounts import deletion
from services.accounts.deletion import (
    CONFIRMATION_PHRASE,
    DIGEST_RETENTION,
    RECEIPT_RETENTION,
    DeletionStatus,
    identity_digest,
    retry_delay,
)
from services.accounts.deletion_handlers import (
    DeletionPolicy,
    RequestDeletion,
    complete_deletion,
    deletion_status,
    record_answer,
    request_deletion,
    sweep,
)
from services.accounts.deletion_store import DeletionUnitOfWork
from services.accounts.domain import Player, PlayerStatus
from services.accounts.identity import IdentityProviderError
from services.authoring.purge import DELETED_AUTHOR, display_actor, historical_actor
from shared.clock import FixedClock
from shared.errors import Forbidden, InvalidInput, NotFound
from shared.events import (
    ACCOUNT_DELETION_REQUESTED,
    DELETION_ANSWERERS,
    personal_data_purged,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
SUB = "auth0|delete-me"
WINDOW = 300
KEY = b"test-digest-key"
POLICY = DeletionPolicy(reauth_seconds=WINDOW, digest=lambda sub: identity_digest(KEY, sub))


class FakeStore:
    def __init__(self, *players: Player) -> None:
        self.players = {p.auth0_sub: p for p in players}
        self.sagas: dict[uuid.UUID, deletion.DeletionSaga] = {}
        self.receipts: dict[uuid.UUID, deletion.Receipt] = {}
        self.digests: dict[str, deletion.DeletedIdentity] = {}

    def player(self, sub, for_update=False):
        return self.players.get(sub)

    def saga_of_player(self, player_id):
        return next((s for s in self.sagas.values() if s.player_id == player_id), None)

    def saga(self, deletion_id, for_update=False):
        return self.sagas.get(deletion_id)

    def due(self, now, limit):
        return [s for s in self.sagas.values() if s.is_due(now)][:limit]

    def start(self, saga):
        player = next(p for p in self.players.values() if p.id == saga.player_id)
        self.players[player.auth0_sub] = replace(player, status=PlayerStatus.LOCKED)
        self.sagas[saga.id] = saga

    def save(self, saga):
        self.sagas[saga.id] = saga

    def finish(self, saga, receipt, deleted):
        del self.sagas[saga.id]
        self.players = {s: p for s, p in self.players.items() if p.id != saga.player_id}
        self.receipts[receipt.id] = receipt
        self.digests[deleted.digest] = deleted

    def live_receipt(self, digest, now):
        found = self.digests.get(digest)
        return self.receipts.get(found.receipt_id) if found and found.expires_at > now else None

    def purge_expired(self, now):
        digests = [d for d, row in self.digests.items() if row.expires_at <= now]
        receipts = [r for r, row in self.receipts.items() if row.expires_at <= now]
        for d in digests:
            del self.digests[d]
        for r in receipts:
            del self.receipts[r]
        return len(receipts), len(digests)


class FakeEvents:
    def __init__(self) -> None:
        self.events = []

    def add_event(self, event):
        self.events.append(event)


class FakeInbox:
    def __init__(self) -> None:
        self.seen = set()

    def first_delivery(self, message_id, consumer):
        if (consumer, message_id) in self.seen:
            return False
        self.seen.add((consumer, message_id))
        return True


class FakeIdentities:
    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.calls: list[str] = []
        self.deleted: list[str] = []

    def delete_user(self, sub):
        self.calls.append(sub)
        if self.failures:
            self.failures -= 1
            raise IdentityProviderError("Auth0 answered 503")
        self.deleted.append(sub)


class World:
    """One accounts database in memory, and the unit of work over it."""

    def __init__(self, *players: Player) -> None:
        self.store = FakeStore(*players)
        self.events = FakeEvents()
        self.inbox = FakeInbox()
        self.clock = FixedClock(NOW)
        self.identities = FakeIdentities()

    @contextmanager
    def uow(self):
        yield DeletionUnitOfWork(self.store, self.events, self.inbox)

    def request(self, sub=SUB, auth_time=None, confirm=CONFIRMATION_PHRASE):
        if auth_time is None:
            auth_time = int(self.clock.now().timestamp())
        with self.uow() as uow:
            return request_deletion(
                RequestDeletion(sub, auth_time, confirm), uow, self.clock, POLICY
            )

    def answer_all(self, deletion_id, services=DELETION_ANSWERERS):
        ready = None
        for service in services:
            event = personal_data_purged(service, deletion_id, self.clock.now())
            with self.uow() as uow:
                ready = record_answer(event, uow, self.clock) or ready
        return ready

    def complete(self, deletion_id):
        return complete_deletion(deletion_id, self.uow, self.identities, self.clock, POLICY)

    def sweep(self):
        return sweep(self.uow, self.identities, self.clock, POLICY)


def player(sub=SUB):
    return Player(uuid.uuid4(), sub, PlayerStatus.ACTIVE, NOW - timedelta(days=3), 40)


@pytest.fixture
def world():
    return World(player(), player("auth0|someone-else"))


# -- asking ------------------------------------------------------------------------------


@pytest.mark.parametrize("confirm", [None, "", "delete my account", "DELETE MY ACCOUNT ", "yes"])
def test_without_the_exact_confirmation_nothing_happens(world, confirm):
    with pytest.raises(InvalidInput) as refused:
        world.request(confirm=confirm)
    assert refused.value.code == "confirmation_required"
    assert world.store.sagas == {} and world.events.events == []
    assert world.store.players[SUB].status is PlayerStatus.ACTIVE


def test_a_login_exactly_at_the_window_is_recent_enough(world):
    view, created = world.request(auth_time=int(NOW.timestamp()) - WINDOW)
    assert created and view.status is DeletionStatus.PURGING_DATA


@pytest.mark.parametrize(
    "auth_time",
    [
        int(NOW.timestamp()) - WINDOW - 1,  # a second too old
        int(NOW.timestamp()) - 86400,
        int(NOW.timestamp()) + 3600,  # from the future, beyond clock skew
    ],
)
def test_a_stale_or_odd_login_is_refused_and_changes_nothing(world, auth_time):
    with pytest.raises(Forbidden) as refused:
        world.request(auth_time=auth_time)
    assert refused.value.code == "reauthentication_required"
    assert refused.value.details == {"max_age": WINDOW}
    assert world.store.sagas == {} and world.events.events == []


def test_a_token_without_auth_time_is_refused():
    with pytest.raises(Forbidden) as refused:
        deletion.check_recent_authentication(None, NOW, WINDOW)
    assert refused.value.code == "reauthentication_required"


def test_the_request_locks_the_account_and_asks_every_service(world):
    view, created = world.request()

    assert created
    assert world.store.players[SUB].status is PlayerStatus.LOCKED
    (saga,) = world.store.sagas.values()
    assert saga.id == view.id and saga.auth0_sub == SUB
    assert set(saga.awaiting) == set(DELETION_ANSWERERS) == set(view.services)
    assert set(view.services.values()) == {"pending"} and view.identity == "pending"
    (event,) = world.events.events
    assert event.contract is ACCOUNT_DELETION_REQUESTED
    assert event.data["deletion_id"] == saga.id
    assert event.data["player_id"] == world.store.players[SUB].id
    assert event.data["auth0_sub"] == SUB
    other = world.store.players["auth0|someone-else"]
    assert other.status is PlayerStatus.ACTIVE


def test_the_same_request_twice_is_one_deletion(world):
    first, created = world.request()
    again, created_again = world.request()

    assert created and not created_again
    assert again.id == first.id
    assert len(world.store.sagas) == 1 and len(world.events.events) == 1


def test_an_unknown_login_has_nothing_to_delete(world):
    with pytest.raises(NotFound) as refused:
        world.request(sub="auth0|never-seen")
    assert refused.value.code == "player_not_found"


# -- answers, then Auth0, then the player ------------------------------------------------------


def test_the_identity_goes_only_after_every_service_answered(world):
    view, _ = world.request()
    last, *others = DELETION_ANSWERERS

    assert world.answer_all(view.id, others) is None
    assert world.complete(view.id) is False
    assert world.identities.calls == []

    assert world.answer_all(view.id, [last]) == view.id
    assert world.complete(view.id) is True
    assert world.identities.deleted == [SUB]
    assert SUB not in world.store.players and world.store.sagas == {}


def test_a_repeated_or_late_answer_changes_nothing(world):
    view, _ = world.request()
    service = DELETION_ANSWERERS[0]
    event = personal_data_purged(service, view.id, NOW)
    with world.uow() as uow:
        record_answer(event, uow, world.clock)
    saga = world.store.sagas[view.id]
    with world.uow() as uow:
        assert record_answer(event, uow, world.clock) is None  # the same message
    with world.uow() as uow:
        again = personal_data_purged(service, view.id, NOW)  # another message, same answer
        assert record_answer(again, uow, world.clock) is None
    assert world.store.sagas[view.id] == saga
    with world.uow() as uow:
        late = personal_data_purged(service, uuid.uuid4(), NOW)  # no such deletion
        assert record_answer(late, uow, world.clock) is None


def test_auth0_failures_are_retried_with_backoff_until_done(world):
    world.identities.failures = 2
    view, _ = world.request()
    world.answer_all(view.id)

    assert world.complete(view.id) is False
    saga = world.store.sagas[view.id]
    assert (saga.attempts, saga.next_attempt_at) == (1, NOW + timedelta(seconds=30))
    assert saga.last_error == "Auth0 answered 503"
    assert world.store.players[SUB].status is PlayerStatus.LOCKED

    world.clock.advance(seconds=29)
    assert world.sweep().completed == 0  # not due yet: Auth0 is not asked
    assert len(world.identities.calls) == 1

    world.clock.advance(seconds=1)
    assert world.sweep().completed == 0
    saga = world.store.sagas[view.id]
    assert saga.attempts == 2
    assert saga.next_attempt_at == world.clock.now() + timedelta(seconds=60)

    world.clock.advance(seconds=60)
    assert world.sweep().completed == 1
    assert world.identities.calls == [SUB, SUB, SUB] and world.identities.deleted == [SUB]
    assert world.store.sagas == {}


def test_a_worker_holding_the_step_keeps_others_off_it(world):
    view, _ = world.request()
    world.answer_all(view.id)
    with world.uow() as uow:  # another worker claimed it and is calling Auth0
        uow.store.save(deletion.claimed(uow.store.saga(view.id), world.clock.now()))

    assert world.complete(view.id) is False
    assert world.identities.calls == []


def test_once_auth0_is_done_a_retry_only_finishes_locally(world):
    view, _ = world.request()
    world.answer_all(view.id)
    with world.uow() as uow:  # Auth0 was done, then the service stopped
        uow.store.save(deletion.identity_deleted(uow.store.saga(view.id), NOW))

    assert world.sweep().completed == 1
    assert world.identities.calls == []


def test_a_silent_service_is_asked_again_with_backoff(world):
    view, _ = world.request()
    world.answer_all(view.id, DELETION_ANSWERERS[1:])

    world.clock.advance(seconds=29)
    assert world.sweep().asked_again == 0
    world.clock.advance(seconds=1)
    assert world.sweep().asked_again == 1
    world.clock.advance(seconds=59)
    assert world.sweep().asked_again == 0
    world.clock.advance(seconds=1)
    assert world.sweep().asked_again == 1

    requests = [e for e in world.events.events if e.contract is ACCOUNT_DELETION_REQUESTED]
    assert len(requests) == 3 and len({e.event_id for e in requests}) == 3
    assert {e.data["deletion_id"] for e in requests} == {view.id}
    assert world.store.sagas[view.id].attempts == 2


# -- what remains ------------------------------------------------------------------------


def test_what_remains_is_a_receipt_and_a_digest_for_their_windows(world):
    view, _ = world.request()
    world.answer_all(view.id)
    world.complete(view.id)

    (receipt,) = world.store.receipts.values()
    (kept,) = world.store.digests.values()
    assert receipt.id == view.id and receipt.expires_at == NOW + RECEIPT_RETENTION
    assert kept.digest == identity_digest(KEY, SUB) and SUB not in kept.digest
    assert kept.expires_at == NOW + DIGEST_RETENTION
    with world.uow() as uow:
        status = deletion_status(SUB, uow, world.clock, POLICY)
    assert status.status is DeletionStatus.COMPLETED and status.id == view.id
    assert world.request()[0].status is DeletionStatus.COMPLETED  # asking again: the receipt

    world.clock.set(NOW + DIGEST_RETENTION)
    assert world.sweep().digests_purged == 1
    assert world.store.receipts and not world.store.digests
    with world.uow() as uow, pytest.raises(NotFound):
        deletion_status(SUB, uow, world.clock, POLICY)

    world.clock.set(NOW + RECEIPT_RETENTION - timedelta(seconds=1))
    assert world.sweep().receipts_purged == 0
    world.clock.set(NOW + RECEIPT_RETENTION)
    assert world.sweep().receipts_purged == 1


def test_the_digest_needs_the_key_and_does_not_show_the_subject():
    digest = identity_digest(KEY, SUB)
    assert digest == identity_digest(KEY, SUB)
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert digest != identity_digest(b"another key", SUB)
    assert digest != identity_digest(KEY, SUB + "x")
    assert "delete-me" not in digest


def test_the_backoff_doubles_from_thirty_seconds_up_to_an_hour():
    delays = [retry_delay(n).total_seconds() for n in range(1, 10)]
    assert delays == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]
    assert retry_delay(10_000) == timedelta(hours=1)


def test_deleted_authors_are_fresh_ids_shown_as_deleted_author():
    first, second = historical_actor(), historical_actor()
    assert first != second
    assert display_actor(first) == DELETED_AUTHOR == "Deleted author"
    assert display_actor("auth0|someone") == "auth0|someone"


def test_the_api_documents_deleting_your_own_account_and_takes_no_player_id():
    from gateway.app import Gateway
    from gateway.openapi import build_spec

    spec = build_spec(Gateway)
    delete = spec["paths"]["/me"]["delete"]

    assert {"200", "202", "401", "403", "422"} <= set(delete["responses"])
    assert delete["security"] == [{"bearerAuth": []}]
    body = delete["requestBody"]["content"]["application/json"]["schema"]
    ref = body["$ref"].rsplit("/", 1)[-1]
    assert set(spec["components"]["schemas"][ref]["properties"]) == {"confirm"}
    assert "get" in spec["paths"]["/me/deletion"]
    assert not [p for p in spec["paths"] if p.startswith("/me/{")]

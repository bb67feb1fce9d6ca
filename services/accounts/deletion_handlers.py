"""Account deletion use cases: plain functions over the deletion unit of work.

The saga's state lives in the database, and every step is a transaction that
reads it, moves it and commits; the one outside call (Auth0) happens between two
transactions, under a lease. A worker or a whole service may stop anywhere: the
next sweep finds the saga where the last commit left it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from services.accounts import deletion, domain
from services.accounts.deletion import DeletionView
from services.accounts.deletion_store import DeletionUnitOfWork
from services.accounts.identity import IdentityProvider, IdentityProviderError
from shared.clock import Clock
from shared.db import run_unit_of_work
from shared.errors import NotFound
from shared.events import Event, EventContract, read_event_or_park

log = logging.getLogger(__name__)

# The name under which the inbox records each applied answer (processed_messages).
ANSWER_CONSUMER = "accounts.deletion_answers"
SWEEP_BATCH = 100  # ours: sagas looked at per sweep

UnitOfWorkFactory = Callable[[], AbstractContextManager[DeletionUnitOfWork]]


@dataclass(frozen=True)
class DeletionPolicy:
    reauth_seconds: float  # how recent the login must be (DELETION_REAUTH_SECONDS)
    digest: Callable[[str], str]  # the keyed digest of a subject (DELETION_DIGEST_SECRET)


@dataclass(frozen=True)
class RequestDeletion:
    sub: str
    auth_time: int | None
    confirm: str | None


def request_deletion(
    cmd: RequestDeletion,
    uow: DeletionUnitOfWork,
    clock: Clock,
    policy: DeletionPolicy,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> tuple[DeletionView, bool]:
    """Lock the caller's account and start its deletion; the same request again
    returns the deletion already under way (False: nothing new started)."""
    now = clock.now()
    deletion.check_confirmation(cmd.confirm)
    deletion.check_recent_authentication(cmd.auth_time, now, policy.reauth_seconds)
    sub = domain.validate_subject(cmd.sub)
    player = uow.store.player(sub, for_update=True)
    if player is None:
        receipt = uow.store.live_receipt(policy.digest(sub), now)
        if receipt is not None:
            return deletion.view_of_receipt(receipt), False
        raise NotFound("player_not_found", "there is no account for this login")
    existing = uow.store.saga_of_player(player.id)
    if existing is not None:
        return deletion.view_of_saga(existing), False
    saga, event = deletion.start(player, new_id(), now)
    uow.store.start(saga)
    uow.events.add_event(event)
    log.info("account deletion %s started", saga.id)
    return deletion.view_of_saga(saga), True


def deletion_status(
    sub: str, uow: DeletionUnitOfWork, clock: Clock, policy: DeletionPolicy
) -> DeletionView:
    player = uow.store.player(domain.validate_subject(sub))
    saga = uow.store.saga_of_player(player.id) if player is not None else None
    if saga is not None:
        return deletion.view_of_saga(saga)
    # Also when the player was just read: the deletion may have completed between the
    # two reads (each statement sees what was committed when it started).
    receipt = uow.store.live_receipt(policy.digest(sub), clock.now())
    if receipt is not None:
        return deletion.view_of_receipt(receipt)
    raise NotFound("deletion_not_found", "this account has no deletion under way")


# -- answers ---------------------------------------------------------------------------------


def record_answer(event: Event, uow: DeletionUnitOfWork, clock: Clock) -> uuid.UUID | None:
    """Note a service's PersonalDataPurged; the deletion's id once nobody is awaited."""
    if not uow.inbox.first_delivery(event.event_id, ANSWER_CONSUMER):
        return None
    service = event.contract.source
    saga = uow.store.saga(event.data["deletion_id"], for_update=True)
    if saga is None:  # already completed (a late duplicate answer) or never ours
        log.info("answer from %s for no deletion in progress %s", service, event.data)
        return None
    moved = deletion.answer(saga, service, clock.now())
    if moved is saga:
        return None
    uow.store.save(moved)
    return None if moved.awaiting else moved.id


def apply_answer(
    contract: EventContract, message: Any, unit_of_work: UnitOfWorkFactory, clock: Clock
) -> uuid.UUID | None:
    """``shared.consumers.consume`` for an answer, returning what ``record_answer`` does."""
    event = read_event_or_park(contract, message)
    return run_unit_of_work(unit_of_work, lambda uow: record_answer(event, uow, clock))


# -- the last steps: the Auth0 user, then the local player -----------------------------------


def complete_deletion(
    deletion_id: uuid.UUID,
    unit_of_work: UnitOfWorkFactory,
    identities: IdentityProvider,
    clock: Clock,
    policy: DeletionPolicy,
) -> bool:
    """Delete the Auth0 user, then the player; True when the deletion completed now.

    Does nothing while a service is still awaited, or before the step is due
    (a backoff after a failure, or another worker's lease).
    """

    def claim(uow: DeletionUnitOfWork) -> deletion.DeletionSaga | None:
        saga = uow.store.saga(deletion_id, for_update=True)
        if saga is None or saga.awaiting or not saga.is_due(clock.now()):
            return None
        if saga.identity_deleted_at is None:
            uow.store.save(deletion.claimed(saga, clock.now()))
        return saga

    def finish(uow: DeletionUnitOfWork) -> bool:
        current = uow.store.saga(deletion_id, for_update=True)
        if current is None:
            return False  # another worker finished it
        receipt, deleted = deletion.remains(current, policy.digest(current.auth0_sub), clock.now())
        uow.store.finish(current, receipt, deleted)
        return True

    saga = run_unit_of_work(unit_of_work, claim)
    if saga is None:
        return False
    if saga.identity_deleted_at is None and not _delete_identity(
        saga, unit_of_work, identities, clock
    ):
        return False
    if not run_unit_of_work(unit_of_work, finish):
        return False
    log.info("account deletion %s completed", deletion_id)
    return True


def _delete_identity(
    saga: deletion.DeletionSaga,
    unit_of_work: UnitOfWorkFactory,
    identities: IdentityProvider,
    clock: Clock,
) -> bool:
    """The Auth0 user, outside any transaction; the outcome is persisted either way."""
    try:
        identities.delete_user(saga.auth0_sub)
    except IdentityProviderError as exc:
        error = str(exc)
        log.warning("account deletion %s: the Auth0 user stays for now: %s", saga.id, error)
    else:
        error = ""

    def record(uow: DeletionUnitOfWork) -> bool:
        current = uow.store.saga(saga.id, for_update=True)
        if current is None:
            return False
        now = clock.now()
        if error:
            uow.store.save(deletion.failed(current, error, now))
        else:
            uow.store.save(deletion.identity_deleted(current, now))
        return not error

    return run_unit_of_work(unit_of_work, record)


# -- the sweeper -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepReport:
    asked_again: int  # deletions whose request went out again to silent services
    completed: int
    receipts_purged: int
    digests_purged: int


def sweep(
    unit_of_work: UnitOfWorkFactory,
    identities: IdentityProvider,
    clock: Clock,
    policy: DeletionPolicy,
    batch: int = SWEEP_BATCH,
) -> SweepReport:
    """Retry what stalled (a service silent, Auth0 failing) and purge what expired."""
    now = clock.now()

    def look(uow: DeletionUnitOfWork) -> tuple[int, list[uuid.UUID], int, int]:
        asked_again = 0  # counted in here: a retried attempt counts afresh
        ready: list[uuid.UUID] = []
        for saga in uow.store.due(now, batch):
            if saga.awaiting:
                uow.events.add_event(deletion.request_event(saga, now))
                uow.store.save(deletion.asked_again(saga, now))
                asked_again += 1
            else:
                ready.append(saga.id)
        receipts, digests = uow.store.purge_expired(now)
        return asked_again, ready, receipts, digests

    asked_again, ready, receipts, digests = run_unit_of_work(unit_of_work, look)
    completed = sum(
        complete_deletion(deletion_id, unit_of_work, identities, clock, policy)
        for deletion_id in ready
    )
    return SweepReport(asked_again, completed, receipts, digests)

"""Account deletion: the pure rules of the saga that accounts orchestrates.

rules/quest.txt, "Account deletion and re-registration": deletion requires recent
authentication and explicit confirmation; the account locks at once; failures leave it
locked and are retried; a minimal receipt is kept for 12 months and a private salted
digest of the identity for 30 days. Every other number here is ours (docs/account-deletion.md).
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from services.accounts.domain import Player
from shared.errors import Forbidden, InvalidInput
from shared.events import ACCOUNT_DELETION_REQUESTED, DELETION_ANSWERERS, Event, new_event

CONFIRMATION_PHRASE = "DELETE MY ACCOUNT"  # ours: typed by the player, so never sent by accident
AUTH_TIME_LEEWAY_SECONDS = 30  # the clock skew the gateway tolerates on token times (assumed)

RECEIPT_RETENTION = timedelta(days=365)  # rulebook: 12 months (counted as 365 days: ours)
DIGEST_RETENTION = timedelta(days=30)  # rulebook: 30 days

RETRY_BASE = timedelta(seconds=30)  # ours: first retry of a stalled step
RETRY_MAX = timedelta(hours=1)  # ours: the backoff stops doubling here
STEP_LEASE = timedelta(seconds=60)  # ours: a worker calling Auth0 owns the saga this long

# The services that hold personal data and must answer: the request's consumers.
ANSWERING_SERVICES: tuple[str, ...] = DELETION_ANSWERERS


class DeletionStatus(StrEnum):
    PURGING_DATA = "purging_data"  # waiting for services to answer PersonalDataPurged
    DELETING_IDENTITY = "deleting_identity"  # all answered; the Auth0 user goes next
    COMPLETED = "completed"  # the player is gone; only the receipt (and digest) remain


@dataclass(frozen=True)
class DeletionSaga:
    """One account's deletion in progress: what is done, what is owed, when to retry."""

    id: uuid.UUID
    player_id: uuid.UUID
    auth0_sub: str
    requested_at: datetime
    answered: Mapping[str, datetime | None]  # service -> when it answered (None: not yet)
    identity_deleted_at: datetime | None = None
    attempts: int = 0  # retries of the current step
    next_attempt_at: datetime | None = None
    last_error: str | None = None

    @property
    def awaiting(self) -> tuple[str, ...]:
        return tuple(sorted(s for s, at in self.answered.items() if at is None))

    @property
    def status(self) -> DeletionStatus:
        return DeletionStatus.PURGING_DATA if self.awaiting else DeletionStatus.DELETING_IDENTITY

    def is_due(self, now: datetime) -> bool:
        return self.next_attempt_at is None or self.next_attempt_at <= now


@dataclass(frozen=True)
class Receipt:
    """What is kept for 12 months: that a deletion was asked for and done. Nothing personal."""

    id: uuid.UUID  # the deletion's id, as the player was told
    requested_at: datetime
    completed_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class DeletedIdentity:
    """What is kept for 30 days: a keyed digest of the Auth0 subject, never the subject."""

    digest: str
    receipt_id: uuid.UUID
    deleted_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class DeletionView:
    """A deletion as its player sees it."""

    id: uuid.UUID
    status: DeletionStatus
    requested_at: datetime
    completed_at: datetime | None
    services: Mapping[str, str]  # service -> "purged" | "pending"
    identity: str  # "deleted" | "pending"


# -- the request ---------------------------------------------------------------------------


def check_confirmation(confirm: object) -> None:
    if confirm != CONFIRMATION_PHRASE:
        raise InvalidInput(
            "confirmation_required",
            f'to delete your account send {{"confirm": "{CONFIRMATION_PHRASE}"}}',
            {"confirm": CONFIRMATION_PHRASE},
        )


def check_recent_authentication(
    auth_time: int | None, now: datetime, window_seconds: float
) -> None:
    """The login behind the token (``auth_time``, seconds since the epoch) must be recent.

    Refused with 403, not 401: the token is valid, only not fresh enough for this
    (a 401 would tell clients to throw the token away or refresh it, and a
    refreshed token keeps its old ``auth_time``).
    """
    details = {"max_age": int(window_seconds)}
    if auth_time is None or isinstance(auth_time, bool):
        raise Forbidden(
            "reauthentication_required",
            "the access token does not say when you logged in: log in again, then retry",
            details,
        )
    age = now.timestamp() - auth_time
    if age > window_seconds or age < -AUTH_TIME_LEEWAY_SECONDS:
        raise Forbidden(
            "reauthentication_required",
            f"deleting the account needs a login from the last {int(window_seconds)} seconds: "
            "log in again, then retry",
            details,
        )


def start(player: Player, deletion_id: uuid.UUID, now: datetime) -> tuple[DeletionSaga, Event]:
    """A new saga for a player, and the request every answering service must act on."""
    saga = DeletionSaga(
        id=deletion_id,
        player_id=player.id,
        auth0_sub=player.auth0_sub,
        requested_at=now,
        answered=dict.fromkeys(ANSWERING_SERVICES),
        next_attempt_at=now + RETRY_BASE,  # when a silent service is asked again
    )
    return saga, request_event(saga, now)


def request_event(saga: DeletionSaga, now: datetime) -> Event:
    """AccountDeletionRequested for a saga (a fresh event id each time it is sent)."""
    return new_event(
        ACCOUNT_DELETION_REQUESTED,
        {
            "deletion_id": saga.id,
            "player_id": saga.player_id,
            "auth0_sub": saga.auth0_sub,
            "requested_at": saga.requested_at,
        },
        occurred_at=now,
    )


# -- answers and retries -------------------------------------------------------------------


def retry_delay(attempts: int) -> timedelta:
    """30 s after the first failure, then doubling, at most an hour."""
    if attempts < 1:
        return timedelta(0)
    return min(RETRY_BASE * (1 << min(attempts - 1, 20)), RETRY_MAX)


def answer(saga: DeletionSaga, service: str, now: datetime) -> DeletionSaga:
    """Record a service's answer; once nobody is awaited the identity step is due at once."""
    if service not in saga.answered or saga.answered[service] is not None:
        return saga
    answered = {**saga.answered, service: now}
    moved = replace(saga, answered=answered)
    if not moved.awaiting:
        return replace(moved, attempts=0, next_attempt_at=now, last_error=None)
    return moved


def asked_again(saga: DeletionSaga, now: datetime) -> DeletionSaga:
    """The request went out again to the services still awaited.

    The first wait (from the request) was RETRY_BASE; each one after doubles.
    """
    attempts = saga.attempts + 1
    return replace(saga, attempts=attempts, next_attempt_at=now + retry_delay(attempts + 1))


def claimed(saga: DeletionSaga, now: datetime) -> DeletionSaga:
    """A worker takes the identity step; nobody else does until the lease ends."""
    return replace(saga, next_attempt_at=now + STEP_LEASE)


def failed(saga: DeletionSaga, error: str, now: datetime) -> DeletionSaga:
    attempts = saga.attempts + 1
    return replace(
        saga,
        attempts=attempts,
        next_attempt_at=now + retry_delay(attempts),
        last_error=error[:500],
    )


def identity_deleted(saga: DeletionSaga, now: datetime) -> DeletionSaga:
    return replace(saga, identity_deleted_at=now, attempts=0, next_attempt_at=now, last_error=None)


# -- what remains --------------------------------------------------------------------------


def identity_digest(secret: bytes, sub: str) -> str:
    """HMAC-SHA256 of the subject under a secret key: it recognises the subject, but
    cannot be reversed or recomputed without the key (hex, 64 characters)."""
    return hmac.new(secret, sub.encode("utf-8"), hashlib.sha256).hexdigest()


def remains(
    saga: DeletionSaga, digest: str, completed_at: datetime
) -> tuple[Receipt, DeletedIdentity]:
    receipt = Receipt(
        id=saga.id,
        requested_at=saga.requested_at,
        completed_at=completed_at,
        expires_at=completed_at + RECEIPT_RETENTION,
    )
    deleted = DeletedIdentity(
        digest=digest,
        receipt_id=saga.id,
        deleted_at=completed_at,
        expires_at=completed_at + DIGEST_RETENTION,
    )
    return receipt, deleted


# -- views ---------------------------------------------------------------------------------


def view_of_saga(saga: DeletionSaga) -> DeletionView:
    return DeletionView(
        id=saga.id,
        status=saga.status,
        requested_at=saga.requested_at,
        completed_at=None,
        services={s: "pending" if at is None else "purged" for s, at in saga.answered.items()},
        identity="deleted" if saga.identity_deleted_at else "pending",
    )


def view_of_receipt(receipt: Receipt) -> DeletionView:
    return DeletionView(
        id=receipt.id,
        status=DeletionStatus.COMPLETED,
        requested_at=receipt.requested_at,
        completed_at=receipt.completed_at,
        services=dict.fromkeys(ANSWERING_SERVICES, "purged"),
        identity="deleted",
    )

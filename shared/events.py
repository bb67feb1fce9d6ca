"""Event contracts: every event's name, source, version and payload schema.

Events are facts in the past tense. On the wire each is an envelope::

    {"event_id": "<uuid>", "type": "PlayerRegistered", "version": 1,
     "occurred_at": "2026-11-30T12:00:00+00:00", "data": {...}}

published on the nameko events exchange of its source service
(``<source>.events``) with the type as routing key, so nameko's
``@event_handler(source, type)`` receives it. ``event_id`` is what consumers
record to apply each event once. A change that is not backward compatible is
a new version with its own schema, never an edit of an old one; adding an
optional field is compatible (consumers ignore fields they do not know).

A contract names its current version (what producers write) and the older
versions its consumers still read (``OlderVersion``): each older payload is
loaded with its own schema, then upgraded to the current shape, so a handler
sees one shape only. Every version travels under the same type (routing key),
so a new version needs no new queue, and a message written before the change
(still in an outbox or a queue) is read as it was written.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from shared.errors import InvalidInput

log = logging.getLogger(__name__)


class EventSchema(Schema):
    """Base of every payload schema: a tolerant reader.

    Fields a newer producer added within the same version are ignored, not
    refused, so adding an optional field never makes older consumers drop
    messages.
    """

    class Meta:
        unknown = EXCLUDE


class _Envelope(EventSchema):
    event_id = fields.UUID(required=True)
    type = fields.String(required=True, validate=validate.Length(min=1, max=100))
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    occurred_at = fields.AwareDateTime(required=True)
    data = fields.Dict(required=True)


class PlayerRegisteredV1(EventSchema):
    """A new local player exists for an authenticated Auth0 subject."""

    player_id = fields.UUID(required=True)
    registered_at = fields.AwareDateTime(required=True)


class ContentPublishedV1(EventSchema):
    """Authored content became available: its immutable public snapshot.

    Private fields (answer keys, explanations) are never in it; questions
    also go out as QuestionPublished, which only the challenge service reads.
    """

    content_id = fields.UUID(required=True)
    lineage_id = fields.UUID(required=True)
    kind = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True, strict=True)
    published_at = fields.AwareDateTime(required=True)
    snapshot = fields.Dict(required=True)
    replaces = fields.UUID(allow_none=True, load_default=None)


class QuestionPublishedV1(EventSchema):
    """A published question with its private answer key and explanation (challenge only)."""

    content_id = fields.UUID(required=True)
    kind = fields.String(required=True)
    version = fields.Integer(required=True, strict=True)
    published_at = fields.AwareDateTime(required=True)
    body = fields.Dict(required=True)


class QuestionPublishedV2(QuestionPublishedV1):
    """A published question with its answer key; V2 names its game (V1 meant Quest)."""

    game = fields.String(required=True, validate=validate.Length(min=1, max=20))


def _quest_from_v1(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "game": "quest"}  # V1 of these was written by Quest only


class ContentRetiredV1(EventSchema):
    """Published content is no longer available for anything new."""

    content_id = fields.UUID(required=True)
    kind = fields.String(required=True)
    game = fields.String(required=True)
    retired_at = fields.AwareDateTime(required=True)


class AttemptCompletedV1(EventSchema):
    """A Quest event attempt ended (all answers in, or time up): its score is final."""

    attempt_id = fields.UUID(required=True)
    player_id = fields.UUID(required=True)
    event_id = fields.UUID(required=True)
    correct_count = fields.Integer(required=True, strict=True, validate=validate.Range(0, 5))
    completed_at = fields.AwareDateTime(required=True)


class AttemptCompletedV2(AttemptCompletedV1):
    """An event attempt ended; V2 names the game it was played in (V1 meant Quest)."""

    game = fields.String(required=True, validate=validate.Length(min=1, max=20))


class GrantedCardV1(EventSchema):
    owned_card_id = fields.UUID(required=True)
    definition_id = fields.UUID(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    rarity = fields.String(required=True)
    affinity = fields.String(allow_none=True, load_default=None)


class RewardGrantedV1(EventSchema):
    """The cards an attempt earned, rolled once and owned from now on (maybe none)."""

    attempt_id = fields.UUID(required=True)
    player_id = fields.UUID(required=True)
    correct_count = fields.Integer(required=True, strict=True, validate=validate.Range(0, 5))
    cards = fields.List(fields.Nested(GrantedCardV1), required=True)
    granted_at = fields.AwareDateTime(required=True)


class GrantedCardV2(EventSchema):
    """A granted copy: the game's own card attributes (Quest: affinity) and its finish."""

    owned_card_id = fields.UUID(required=True)
    definition_id = fields.UUID(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    rarity = fields.String(required=True)
    finish = fields.String(required=True, validate=validate.Length(min=1, max=20))
    attributes = fields.Dict(keys=fields.String(), required=True)


class RewardGrantedV2(EventSchema):
    """The cards an attempt earned (maybe none), in the attempt's game."""

    attempt_id = fields.UUID(required=True)
    player_id = fields.UUID(required=True)
    game = fields.String(required=True, validate=validate.Length(min=1, max=20))
    correct_count = fields.Integer(required=True, strict=True, validate=validate.Range(0, 5))
    cards = fields.List(fields.Nested(GrantedCardV2), required=True)
    granted_at = fields.AwareDateTime(required=True)


def _reward_granted_from_v1(data: dict[str, Any]) -> dict[str, Any]:
    # V1 was Quest's only: its one game attribute was the affinity; every copy standard.
    cards = [
        {
            **{k: v for k, v in card.items() if k != "affinity"},
            "finish": "standard",
            "attributes": {"affinity": card["affinity"]} if card.get("affinity") else {},
        }
        for card in data["cards"]
    ]
    return {**data, "game": "quest", "cards": cards}


class MatchFinishedV1(EventSchema):
    """A Quest CPU match ended: the player's result; final. Read, no longer written:
    as v2 it is game "quest", seats "player" (``player_id``, ``outcome``) and "cpu"
    (the opposite: "defeat" after a player's victory, else "victory")."""

    match_id = fields.UUID(required=True)
    player_id = fields.UUID(required=True)
    mode = fields.String(required=True, validate=validate.OneOf(["cpu"]))
    outcome = fields.String(
        required=True, validate=validate.OneOf(["victory", "defeat", "forfeit"])
    )
    finished_at = fields.AwareDateTime(required=True)


class MatchSeatV2(EventSchema):
    """One seat of a finished match: who sat there and their result in the game's words
    (Quest: victory, defeat, forfeit). A CPU seat has no player; a plan's is its owner;
    a player purged from a match others keep has none either."""

    seat = fields.String(required=True, validate=validate.Length(min=1, max=32))
    kind = fields.String(required=True, validate=validate.OneOf(["player", "cpu", "plan"]))
    player_id = fields.UUID(required=True, allow_none=True)
    result = fields.String(required=True, allow_none=True, validate=validate.Length(max=16))


class MatchFinishedV2(EventSchema):
    """A match of any game ended: its game, mode and every seat's result; final.

    Players are found in ``seats`` (a match may have several): there is no top-level
    ``player_id`` any more, and a purge forgets an outbox row that seats the player.
    """

    match_id = fields.UUID(required=True)
    game = fields.String(required=True, validate=validate.Length(min=1, max=32))
    mode = fields.String(required=True, validate=validate.Length(min=1, max=16))
    seats = fields.List(fields.Nested(MatchSeatV2), required=True, validate=validate.Length(min=1))
    finished_at = fields.AwareDateTime(required=True)


def _match_finished_from_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A v1 payload (a Quest CPU match, its player's outcome) as v2."""
    outcome = data["outcome"]
    return {
        "match_id": data["match_id"],
        "game": "quest",
        "mode": data["mode"],
        "seats": [
            {"seat": "player", "kind": "player", "player_id": data["player_id"], "result": outcome},
            {
                "seat": "cpu",
                "kind": "cpu",
                "player_id": None,
                "result": "defeat" if outcome == "victory" else "victory",
            },
        ],
        "finished_at": data["finished_at"],
    }


class MatchUpdatedV1(EventSchema):
    """A match changed other than by its own player's request (an opponent's move, a
    timeout, the sweeper): who sits in it, its new version, whose move it is. The
    gateway tells the seated players; what changed they read from the match itself,
    through their own view (never from here: hidden cards stay in the service)."""

    match_id = fields.UUID(required=True)
    game = fields.String(required=True, validate=validate.Length(min=1, max=32))
    mode = fields.String(required=True, validate=validate.Length(min=1, max=16))
    # 0: a match just started that a player did not start by their own request (a
    # Chronovore pairing or an accepted invitation: both players are told).
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    status = fields.String(required=True, validate=validate.Length(min=1, max=16))
    seats = fields.List(fields.Nested(MatchSeatV2), required=True, validate=validate.Length(min=1))
    to_act = fields.List(fields.String(validate=validate.Length(min=1, max=32)), required=True)
    deadline = fields.AwareDateTime(required=True, allow_none=True)
    updated_at = fields.AwareDateTime(required=True)


class MatchUpdatedSeatV2(MatchSeatV2):
    """A seat of an updated match, with the version that seat sees and whether this change
    is one it may see (a Chronovore seat does not see the other's row before its lock:
    docs/chronovore.md, "Face down"; the gateway tells only a seat that may see it)."""

    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    told = fields.Boolean(required=True)


class MatchUpdatedV2(EventSchema):
    """A match changed other than by its own player's request (an opponent's move, a
    timeout, the sweeper): who sits in it, the version each seat sees, whether each may
    see this change, whose move it is. The gateway tells the seated players who may see
    it; what changed they read from the match itself, through their own view (never from
    here: hidden cards stay in the service)."""

    match_id = fields.UUID(required=True)
    game = fields.String(required=True, validate=validate.Length(min=1, max=32))
    mode = fields.String(required=True, validate=validate.Length(min=1, max=16))
    # The match's own version (its log position); a seat is told its own in ``seats``.
    # 0: a match just started that a player did not start by their own request (a
    # Chronovore pairing or an accepted invitation: both players are told).
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    status = fields.String(required=True, validate=validate.Length(min=1, max=16))
    seats = fields.List(
        fields.Nested(MatchUpdatedSeatV2), required=True, validate=validate.Length(min=1)
    )
    to_act = fields.List(fields.String(validate=validate.Length(min=1, max=32)), required=True)
    deadline = fields.AwareDateTime(required=True, allow_none=True)
    updated_at = fields.AwareDateTime(required=True)


def _match_updated_from_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A v1 payload as v2: every seat saw the match's own version, and is told."""
    seats = [{**seat, "version": data["version"], "told": True} for seat in data["seats"]]
    return {**data, "seats": seats}


class InvitationUpdatedV1(EventSchema):
    """An invitation to a match against another player was sent, accepted, declined,
    cancelled or expired. The gateway tells both players (never who the other is: they
    read their own invitations for the pseudonyms)."""

    invitation_id = fields.UUID(required=True)
    game = fields.String(required=True, validate=validate.Length(min=1, max=32))
    status = fields.String(required=True, validate=validate.Length(min=1, max=16))
    from_player_id = fields.UUID(required=True)
    to_player_id = fields.UUID(required=True)
    match_id = fields.UUID(required=True, allow_none=True)
    expires_at = fields.AwareDateTime(required=True)
    updated_at = fields.AwareDateTime(required=True)


class AccountDeletionRequestedV1(EventSchema):
    """A player asked to delete their account; it is locked. Purge their personal data.

    Every consumer purges what it holds about ``player_id`` (authoring: the actor
    ``auth0_sub``), idempotently, and answers with its own ``PersonalDataPurged``.
    The same deletion may be requested again (a retry): purge again, answer again.
    """

    deletion_id = fields.UUID(required=True)
    player_id = fields.UUID(required=True)
    auth0_sub = fields.String(required=True, validate=validate.Length(min=1, max=255))
    requested_at = fields.AwareDateTime(required=True)


class PersonalDataPurgedV1(EventSchema):
    """A service holds nothing personal of a deletion's player any more.

    It names the deletion, not the player: the answer stays in the service's outbox
    after the purge, and must not keep the player's id there.
    """

    deletion_id = fields.UUID(required=True)
    service = fields.String(required=True, validate=validate.Length(min=1, max=40))
    purged_at = fields.AwareDateTime(required=True)


@dataclass(frozen=True)
class OlderVersion:
    """A version consumers still read: its schema, and how its payload becomes current."""

    version: int
    schema: type[Schema]
    upgrade: Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class EventContract:
    """One event type: who emits it, its payload, and who consumes it.

    ``consumers`` name the ``service.method`` of every nameko event handler
    of this event (a test keeps the list true). The outbox relay declares
    their queues before publishing, so an event is kept for a consumer that
    has not started yet instead of being dropped by an exchange with no
    binding for it.
    """

    name: str
    version: int
    source: str
    schema: type[Schema]
    consumers: tuple[str, ...] = ()
    older: tuple[OlderVersion, ...] = ()
    # The gateways read it from the push stream (shared/push.py): players are told of it,
    # or (a deletion) the gateway forgets the player's lease and sockets at once.
    gateway: bool = False

    def readable(self, version: int) -> OlderVersion | None:
        """How to read ``version`` of this event, or None for a version not read."""
        if version == self.version:
            return OlderVersion(self.version, self.schema, dict)
        return next((o for o in self.older if o.version == version), None)

    @property
    def exchange(self) -> str:
        return f"{self.source}.events"

    def consumer_queues(self) -> list[str]:
        # nameko's queue name for a SERVICE_POOL event handler (nameko/events.py).
        return [f"evt-{self.source}-{self.name}--{consumer}" for consumer in self.consumers]


PLAYER_REGISTERED = EventContract(
    "PlayerRegistered",
    1,
    "accounts",
    PlayerRegisteredV1,
    consumers=("cards.on_player_registered",),
)
CONTENT_PUBLISHED = EventContract(
    "ContentPublished",
    1,
    "authoring",
    ContentPublishedV1,
    consumers=("cards.on_content_published", "challenge.on_content_published"),
)
QUESTION_PUBLISHED = EventContract(
    "QuestionPublished",
    2,
    "authoring",
    QuestionPublishedV2,
    consumers=("challenge.on_question_published",),
    older=(OlderVersion(1, QuestionPublishedV1, _quest_from_v1),),
)
CONTENT_RETIRED = EventContract(
    "ContentRetired",
    1,
    "authoring",
    ContentRetiredV1,
    consumers=("cards.on_content_retired", "challenge.on_content_retired"),
)

ATTEMPT_COMPLETED = EventContract(
    "AttemptCompleted",
    2,
    "challenge",
    AttemptCompletedV2,
    consumers=("cards.on_attempt_completed", "accounts.on_attempt_completed"),
    gateway=True,
    older=(OlderVersion(1, AttemptCompletedV1, _quest_from_v1),),
)
REWARD_GRANTED = EventContract(
    "RewardGranted",
    2,
    "cards",
    RewardGrantedV2,
    consumers=("challenge.on_reward_granted",),
    gateway=True,
    older=(OlderVersion(1, RewardGrantedV1, _reward_granted_from_v1),),
)
MATCH_FINISHED = EventContract(
    "MatchFinished",
    2,
    "battle",
    MatchFinishedV2,
    consumers=("accounts.on_match_finished", "cards.on_match_finished"),
    gateway=True,
    older=(OlderVersion(1, MatchFinishedV1, _match_finished_from_v1),),
)

MATCH_UPDATED = EventContract(
    "MatchUpdated",
    2,
    "battle",
    MatchUpdatedV2,
    older=(OlderVersion(1, MatchUpdatedV1, _match_updated_from_v1),),
    gateway=True,  # no service consumes it: it is for the players, through the gateway
)

INVITATION_UPDATED = EventContract(
    "InvitationUpdated",
    1,
    "battle",
    InvitationUpdatedV1,
    gateway=True,  # for the two players, through the gateway
)

ACCOUNT_DELETION_REQUESTED = EventContract(
    "AccountDeletionRequested",
    1,
    "accounts",
    AccountDeletionRequestedV1,
    consumers=(
        "authoring.on_account_deletion_requested",
        "battle.on_account_deletion_requested",
        "cards.on_account_deletion_requested",
        "challenge.on_account_deletion_requested",
    ),
    gateway=True,
)


def _personal_data_purged(service: str) -> EventContract:
    return EventContract(
        "PersonalDataPurged",
        1,
        service,
        PersonalDataPurgedV1,
        consumers=(f"accounts.on_{service}_data_purged",),
    )


# One PersonalDataPurged contract per answering service: a contract has one source
# exchange, and each service answers from its own outbox on its own exchange. The
# services that must answer a deletion are exactly the consumers of the request.
DELETION_ANSWERERS: tuple[str, ...] = tuple(
    consumer.partition(".")[0] for consumer in ACCOUNT_DELETION_REQUESTED.consumers
)
PERSONAL_DATA_PURGED: Mapping[str, EventContract] = {
    service: _personal_data_purged(service) for service in DELETION_ANSWERERS
}

CONTRACTS: Mapping[str, EventContract] = {
    **{
        c.name: c
        for c in (
            PLAYER_REGISTERED,
            CONTENT_PUBLISHED,
            QUESTION_PUBLISHED,
            CONTENT_RETIRED,
            ATTEMPT_COMPLETED,
            REWARD_GRANTED,
            MATCH_FINISHED,
            MATCH_UPDATED,
            INVITATION_UPDATED,
            ACCOUNT_DELETION_REQUESTED,
        )
    },
    # An event type that several services emit, each on its own exchange, is keyed
    # "<type>@<source>"; on the wire its routing key is still the type.
    **{f"{c.name}@{c.source}": c for c in PERSONAL_DATA_PURGED.values()},
}


def contract_for(exchange: str, routing_key: str) -> EventContract | None:
    """The contract of an event published on ``exchange`` with ``routing_key`` (its type)."""
    source = exchange.removesuffix(".events")
    for key in (routing_key, f"{routing_key}@{source}"):
        contract = CONTRACTS.get(key)
        if contract is not None and contract.exchange == exchange:
            return contract
    return None


# Contracts whose consumers do not exist yet: the outbox keeps their rows, untried,
# until a later change names the consumers (publishing them now would drop them).
AWAITING_CONSUMERS: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Event:
    """One event instance, validated against its contract."""

    contract: EventContract
    event_id: uuid.UUID
    occurred_at: datetime
    data: Mapping[str, Any]

    @property
    def type(self) -> str:
        return self.contract.name

    def to_message(self) -> dict[str, Any]:
        message: dict[str, Any] = _instance(_Envelope).dump(
            {
                "event_id": self.event_id,
                "type": self.contract.name,
                "version": self.contract.version,
                "occurred_at": self.occurred_at,
                "data": _instance(self.contract.schema).dump(self.data),
            }
        )
        return message


def new_event(
    contract: EventContract,
    data: Mapping[str, Any],
    occurred_at: datetime,
    event_id: uuid.UUID | None = None,
) -> Event:
    """Build an event, checking the payload against the contract's schema."""
    dumped = _instance(contract.schema).dump(data)
    errors = _instance(contract.schema).validate(dumped)
    if errors:
        raise InvalidInput("invalid_event", f"{contract.name} payload is invalid", errors)
    if occurred_at.tzinfo is None:
        raise InvalidInput("invalid_event", "occurred_at must be timezone-aware")
    return Event(contract, event_id or uuid.uuid4(), occurred_at, dict(data))


def personal_data_purged(service: str, deletion_id: uuid.UUID, purged_at: datetime) -> Event:
    """A service's answer to AccountDeletionRequested, for its own outbox."""
    return new_event(
        PERSONAL_DATA_PURGED[service],
        {"deletion_id": deletion_id, "service": service, "purged_at": purged_at},
        occurred_at=purged_at,
    )


@cache
def _instance(schema: type[Schema]) -> Schema:
    """One instance per schema class: building one (its fields, its nested schemas) cost
    ~500 of the ~600 us of reading an event (bench/push.py); loading and dumping keep
    no state, so one instance serves every call."""
    return schema()


def read_event(contract: EventContract, message: Mapping[str, Any]) -> Event:
    """Parse a received message in its current shape; refuse one that does not match
    the contract. An older version the contract still reads is upgraded."""
    try:
        envelope = _instance(_Envelope).load(message)
        reader = contract.readable(envelope["version"])
        if envelope["type"] != contract.name or reader is None:
            raise InvalidInput(
                "unexpected_event",
                f"expected {contract.name} v{contract.version}, "
                f"got {envelope['type']} v{envelope['version']}",
            )
        data = reader.upgrade(_instance(reader.schema).load(envelope["data"]))
    except ValidationError as exc:
        raise InvalidInput(
            "invalid_event", f"malformed {contract.name} message", {"errors": exc.messages_dict}
        ) from exc
    return Event(contract, envelope["event_id"], envelope["occurred_at"], data)


class UnprocessableMessage(Exception):
    """A message no retry can help (malformed, or not of its contract): park it."""


def read_event_or_park(contract: EventContract, message: Any) -> Event:
    """For consumers: the event, or UnprocessableMessage for a message that can never be
    parsed. The reliable event handler parks such a message in its dead-letter queue
    at once (no retries, nothing lost), and an operator can inspect and replay it.
    """
    try:
        if not isinstance(message, Mapping):
            raise InvalidInput("invalid_event", "message is not an object")
        return read_event(contract, message)
    except InvalidInput as exc:
        log.error("parking malformed %s message: %s %s", contract.name, exc, exc.details)
        raise UnprocessableMessage(f"malformed {contract.name} message: {exc.details}") from exc

"""Event contracts: what goes on the wire, and refusing what does not fit."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.errors import InvalidInput
from shared.events import (
    CONTRACTS,
    MATCH_FINISHED,
    PLAYER_REGISTERED,
    EventContract,
    PlayerRegisteredV1,
    UnprocessableMessage,
    new_event,
    read_event,
    read_event_or_park,
)
from tests.match_events import quest_cpu_finished

WHEN = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
PLAYER_ID = uuid.UUID("7f0c2a8e-0000-4000-8000-000000000001")
EVENT_ID = uuid.UUID("0b8e9d6c-0000-4000-8000-0000000000aa")


def registered(**overrides):
    data = {"player_id": PLAYER_ID, "registered_at": WHEN}
    return new_event(PLAYER_REGISTERED, {**data, **overrides}, occurred_at=WHEN, event_id=EVENT_ID)


def wire_message(**overrides):
    """A valid PlayerRegistered message as it arrives from the broker (JSON decoded)."""
    message = json.loads(json.dumps(registered().to_message()))
    message.update(overrides)
    return message


def test_player_registered_contract_is_published_on_the_accounts_exchange():
    assert PLAYER_REGISTERED.exchange == "accounts.events"
    assert CONTRACTS["PlayerRegistered"] is PLAYER_REGISTERED


def test_to_message_is_the_documented_json_envelope():
    message = registered().to_message()

    assert message == {
        "event_id": str(EVENT_ID),
        "type": "PlayerRegistered",
        "version": 1,
        "occurred_at": "2026-11-30T12:00:00+00:00",
        "data": {"player_id": str(PLAYER_ID), "registered_at": "2026-11-30T12:00:00+00:00"},
    }
    assert json.loads(json.dumps(message)) == message


def test_player_registered_round_trips_through_json():
    event = registered()

    received = read_event(PLAYER_REGISTERED, json.loads(json.dumps(event.to_message())))

    assert received.contract is PLAYER_REGISTERED
    assert received.type == "PlayerRegistered"
    assert received.event_id == EVENT_ID
    assert received.occurred_at == WHEN
    assert received.data == {"player_id": PLAYER_ID, "registered_at": WHEN}


def test_new_event_gets_a_fresh_id_when_none_is_given():
    data = {"player_id": PLAYER_ID, "registered_at": WHEN}

    first = new_event(PLAYER_REGISTERED, data, occurred_at=WHEN)
    second = new_event(PLAYER_REGISTERED, data, occurred_at=WHEN)

    assert first.event_id != second.event_id


def test_new_event_refuses_a_naive_occurred_at():
    with pytest.raises(InvalidInput) as caught:
        new_event(
            PLAYER_REGISTERED,
            {"player_id": PLAYER_ID, "registered_at": WHEN},
            occurred_at=datetime(2026, 11, 30, 12, 0),
        )

    assert caught.value.code == "invalid_event"


def test_new_event_refuses_a_naive_datetime_in_the_payload():
    with pytest.raises(InvalidInput) as caught:
        registered(registered_at=datetime(2026, 11, 30, 12, 0))

    assert caught.value.code == "invalid_event"


def test_new_event_refuses_a_payload_missing_a_field():
    with pytest.raises(InvalidInput) as caught:
        new_event(PLAYER_REGISTERED, {"player_id": PLAYER_ID}, occurred_at=WHEN)

    assert caught.value.code == "invalid_event"
    assert "registered_at" in caught.value.details


def refused(message):
    with pytest.raises(InvalidInput) as caught:
        read_event(PLAYER_REGISTERED, message)
    return caught.value


def test_read_event_refuses_another_event_type():
    error = refused(wire_message(type="PlayerDeleted"))

    assert error.code == "unexpected_event"
    assert "PlayerDeleted" in error.message


def test_read_event_refuses_another_version():
    assert refused(wire_message(version=2)).code == "unexpected_event"


def test_read_event_refuses_a_version_given_as_a_string():
    assert refused(wire_message(version="1")).code == "invalid_event"


@pytest.mark.parametrize("field", ["event_id", "type", "version", "occurred_at", "data"])
def test_read_event_refuses_an_envelope_missing_a_field(field):
    message = wire_message()
    del message[field]

    error = refused(message)

    assert error.code == "invalid_event"
    assert field in error.details["errors"]


@pytest.mark.parametrize("field", ["player_id", "registered_at"])
def test_read_event_refuses_a_payload_missing_a_field(field):
    message = wire_message()
    del message["data"][field]

    assert refused(message).code == "invalid_event"


def test_read_event_refuses_a_naive_occurred_at():
    assert refused(wire_message(occurred_at="2026-11-30T12:00:00")).code == "invalid_event"


def test_read_event_refuses_a_naive_datetime_in_the_payload():
    message = wire_message()
    message["data"]["registered_at"] = "2026-11-30T12:00:00"

    assert refused(message).code == "invalid_event"


@pytest.mark.parametrize(
    "overrides",
    [
        {"event_id": "not-a-uuid"},
        {"occurred_at": "yesterday"},
        {"data": "not an object"},
        {"data": {"player_id": "nope", "registered_at": "2026-11-30T12:00:00+00:00"}},
        {"version": 0},
        {"type": ""},
    ],
    ids=["event_id", "occurred_at", "data", "player_id", "version_zero", "empty_type"],
)
def test_read_event_refuses_garbage_fields(overrides):
    assert refused(wire_message(**overrides)).code == "invalid_event"


@pytest.mark.parametrize("garbage", ["a string", ["a", "list"], 42, None])
def test_read_event_refuses_a_message_that_is_not_an_object(garbage):
    assert refused(garbage).code == "invalid_event"


def test_read_event_for_a_different_contract_refuses_the_message():
    other = EventContract("PlayerLocked", 1, "accounts", PlayerRegisteredV1)

    with pytest.raises(InvalidInput) as caught:
        read_event(other, wire_message())

    assert caught.value.code == "unexpected_event"


def test_read_event_or_park_returns_the_event_for_a_good_message():
    event = read_event_or_park(PLAYER_REGISTERED, wire_message())

    assert event is not None
    assert event.event_id == EVENT_ID


@pytest.mark.parametrize(
    "garbage",
    [None, "PlayerRegistered", b"\x00\xff", 17, 3.5, ["event_id"], [wire_message()], {}, set()],
    ids=repr,
)
def test_read_event_or_park_refuses_garbage_as_unprocessable(garbage):
    with pytest.raises(UnprocessableMessage):
        read_event_or_park(PLAYER_REGISTERED, garbage)


def test_read_event_or_park_refuses_another_version():
    with pytest.raises(UnprocessableMessage):
        read_event_or_park(PLAYER_REGISTERED, wire_message(version=2))


def test_read_event_or_park_logs_what_it_parks(caplog):
    with pytest.raises(UnprocessableMessage):
        read_event_or_park(PLAYER_REGISTERED, ["junk"])

    assert "parking malformed PlayerRegistered message" in caplog.text


def parsed_or_unprocessable(message):
    """The event, or None when it was refused as unprocessable (never another error)."""
    try:
        return read_event_or_park(PLAYER_REGISTERED, message)
    except UnprocessableMessage:
        return None


junk_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
    | st.binary(max_size=20)
    | st.uuids()
    | st.datetimes(timezones=st.none() | st.timezones())
    | st.sampled_from(["PlayerRegistered", str(EVENT_ID), "2026-11-30T12:00:00+00:00", 1])
)
junk = st.recursive(
    junk_scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=12) | st.integers(), children, max_size=4)
    ),
    max_leaves=12,
)
envelope_keys = st.sampled_from(
    ["event_id", "type", "version", "occurred_at", "data", "player_id", "registered_at"]
)


@given(message=st.dictionaries(envelope_keys | st.text(max_size=12) | st.integers(), junk))
def test_read_event_or_park_refuses_a_dict_of_junk_only_as_unprocessable(message):
    result = parsed_or_unprocessable(message)

    assert result is None or result.type == "PlayerRegistered"


@given(
    field=st.sampled_from(["event_id", "type", "version", "occurred_at", "data"]),
    value=junk,
    data_field=st.sampled_from(["player_id", "registered_at"]),
    data_value=junk,
)
def test_read_event_or_park_refuses_a_nearly_valid_message_only_as_unprocessable(
    field, value, data_field, data_value
):
    message = wire_message()
    message["data"][data_field] = data_value
    message[field] = value

    result = parsed_or_unprocessable(message)

    assert result is None or result.event_id is not None


def test_fields_a_newer_producer_added_are_ignored_not_refused():
    from datetime import UTC, datetime

    event = new_event(
        PLAYER_REGISTERED,
        {"player_id": uuid.uuid4(), "registered_at": datetime.now(UTC)},
        occurred_at=datetime.now(UTC),
    )
    message = event.to_message()
    message["trace"] = "abc"
    message["data"]["nickname"] = "newer field"
    read = read_event(PLAYER_REGISTERED, message)
    assert read.event_id == event.event_id
    assert "nickname" not in read.data


# -- versions: a contract reads the versions before it, in its current shape ----------------


def test_match_finished_v1_is_read_as_v2_with_both_seats():
    for outcome, cpu in (("victory", "defeat"), ("defeat", "victory"), ("forfeit", "victory")):
        sent = quest_cpu_finished(PLAYER_ID, outcome, at=WHEN, version=1)
        message = json.loads(json.dumps(sent.to_message()))
        assert message["version"] == 1

        read = read_event(MATCH_FINISHED, message)

        assert read.contract is MATCH_FINISHED and read.event_id == sent.event_id
        assert read.data == {
            "match_id": sent.data["match_id"],
            "game": "quest",
            "mode": "cpu",
            "seats": [
                {"seat": "player", "kind": "player", "player_id": PLAYER_ID, "result": outcome},
                {"seat": "cpu", "kind": "cpu", "player_id": None, "result": cpu},
            ],
            "finished_at": WHEN,
        }


def test_match_finished_v2_round_trips_and_other_versions_are_refused():
    sent = quest_cpu_finished(PLAYER_ID, "victory", at=WHEN)
    message = json.loads(json.dumps(sent.to_message()))
    assert message["version"] == 2
    assert read_event(MATCH_FINISHED, message).data == sent.data
    for version in (3, 0):
        with pytest.raises(InvalidInput):
            read_event(MATCH_FINISHED, {**message, "version": version})
    v1_shaped = {**message, "version": 1}  # a v2 payload claiming v1: refused, never guessed
    with pytest.raises(InvalidInput) as caught:
        read_event(MATCH_FINISHED, v1_shaped)
    assert caught.value.code == "invalid_event"


def test_match_finished_v2_needs_a_seat_of_a_known_kind():
    data = dict(quest_cpu_finished(PLAYER_ID, "victory", at=WHEN).data)
    for seats in ([], [{"seat": "x", "kind": "robot", "player_id": None, "result": None}]):
        with pytest.raises(InvalidInput):
            new_event(MATCH_FINISHED, {**data, "seats": seats}, occurred_at=WHEN)

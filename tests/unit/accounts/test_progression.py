"""Progression points: the rule, and its use case over an in-memory unit of work."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.accounts import domain
from services.accounts.domain import (
    Player,
    PlayerStatus,
    Progression,
    ProgressionEntry,
    Reason,
    SourceType,
)
from services.accounts.handlers import (
    ATTEMPT_COMPLETED_CONSUMER,
    MATCH_FINISHED_CONSUMER,
    GetProgression,
    get_progression,
    record_attempt_points,
    record_match_points,
)
from services.accounts.repository import ProgressionUnitOfWork
from services.accounts.schemas import PlayerSchema, ProgressionQuerySchema, ProgressionSchema
from shared.clock import FixedClock
from shared.errors import InvalidInput, NotFound
from shared.events import ATTEMPT_COMPLETED, MATCH_FINISHED, Event, new_event, read_event
from shared.schemas import load
from tests.match_events import quest_cpu_finished

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PLAYER = uuid.UUID(int=1)


# -- fakes ---------------------------------------------------------------------------


class FakeProgression:
    def __init__(self, *player_ids: uuid.UUID) -> None:
        self.points: dict[uuid.UUID, int] = dict.fromkeys(player_ids, 0)
        self.entries: dict[tuple[SourceType, uuid.UUID], tuple[ProgressionEntry, datetime]] = {}

    def player_exists(self, player_id: uuid.UUID) -> bool:
        return player_id in self.points

    def add_entry(self, entry: ProgressionEntry, recorded_at: datetime) -> bool:
        key = (entry.source_type, entry.source_id)
        if key in self.entries:
            return False
        self.entries[key] = (entry, recorded_at)
        return True

    def add_points(self, player_id: uuid.UUID, points: int) -> None:
        assert points > 0
        self.points[player_id] += points

    def progression(self, player_id: uuid.UUID, limit: int) -> Progression | None:
        if player_id not in self.points:
            return None
        mine = [e for e, _ in self.entries.values() if e.player_id == player_id]
        # Insertion order stands in for the id that breaks ties in the database.
        newest = sorted(reversed(mine), key=lambda e: e.occurred_at, reverse=True)
        return Progression(player_id, self.points[player_id], newest[:limit])


class FakeInbox:
    def __init__(self) -> None:
        self.seen: set[tuple[uuid.UUID, str]] = set()

    def first_delivery(self, message_id: uuid.UUID, consumer: str) -> bool:
        if (message_id, consumer) in self.seen:
            return False
        self.seen.add((message_id, consumer))
        return True


def progression_uow(
    *player_ids: uuid.UUID, clock: FixedClock | None = None
) -> ProgressionUnitOfWork:
    return ProgressionUnitOfWork(
        progression=FakeProgression(*player_ids),
        inbox=FakeInbox(),
        clock=clock or FixedClock(START),
    )


def attempt_completed(
    correct_count: int,
    attempt_id: uuid.UUID | None = None,
    player_id: uuid.UUID = PLAYER,
    at: datetime = START,
) -> Event:
    return new_event(
        ATTEMPT_COMPLETED,
        {
            "attempt_id": attempt_id or uuid.uuid4(),
            "game": "quest",
            "player_id": player_id,
            "event_id": uuid.UUID(int=500),
            "correct_count": correct_count,
            "completed_at": at,
        },
        occurred_at=at,
    )


def match_finished(
    outcome: str,
    match_id: uuid.UUID | None = None,
    player_id: uuid.UUID = PLAYER,
    at: datetime = START,
    version: int = 2,
) -> Event:
    """As the consumer receives it: a v1 message is read in v2's shape."""
    sent = quest_cpu_finished(player_id, outcome, match_id, at, version)
    return sent if version == 2 else read_event(MATCH_FINISHED, sent.to_message())


def same_fact_new_message(event: Event) -> Event:
    """Another message saying the same thing (a re-emitted event): a new event id."""
    return new_event(event.contract, event.data, event.occurred_at)


# -- the rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(("correct", "points"), [(0, 0), (1, 10), (3, 30), (5, 50)])
def test_each_correct_answer_is_worth_ten_points(correct, points):
    assert domain.points_for_answers(correct) == points


@pytest.mark.parametrize("correct", [-1, 6, True])
def test_a_correct_count_outside_zero_to_five_is_refused(correct):
    with pytest.raises(InvalidInput) as caught:
        domain.points_for_answers(correct)
    assert caught.value.code == "invalid_correct_count"


@pytest.mark.parametrize(("outcome", "points"), [("victory", 25), ("defeat", 0), ("forfeit", 0)])
def test_a_cpu_victory_is_worth_25_and_a_loss_nothing(outcome, points):
    assert domain.points_for_cpu_match(outcome) == points


def test_an_unknown_match_outcome_is_refused():
    with pytest.raises(InvalidInput) as caught:
        domain.points_for_cpu_match("draw")
    assert caught.value.code == "invalid_outcome"


def test_a_defeat_is_an_entry_worth_nothing_with_its_reason():
    match_id = uuid.UUID(int=77)
    entry = domain.cpu_match_entry(PLAYER, match_id, "defeat", START)
    assert entry == ProgressionEntry(
        PLAYER, SourceType.MATCH, match_id, 0, Reason.CPU_DEFEAT, None, START
    )


@given(st.integers(min_value=0, max_value=5))
def test_an_attempt_entry_carries_its_correct_count_and_is_within_0_to_50(correct):
    entry = domain.attempt_entry(PLAYER, uuid.UUID(int=5), correct, START)
    assert 0 <= entry.points <= 50
    assert (entry.source_type, entry.reason, entry.correct_count) == (
        SourceType.ATTEMPT,
        Reason.CHALLENGE_ANSWERS,
        correct,
    )


# -- recording points ---------------------------------------------------------------------


def test_a_completed_attempt_adds_ten_points_per_correct_answer():
    clock = FixedClock(START + timedelta(seconds=3))
    uow = progression_uow(PLAYER, clock=clock)
    event = attempt_completed(4)

    assert record_attempt_points(event, uow) is True

    assert uow.progression.points[PLAYER] == 40
    ((entry, recorded_at),) = uow.progression.entries.values()
    assert entry.source_id == event.data["attempt_id"]
    assert (entry.points, entry.reason, entry.correct_count) == (40, "challenge_answers", 4)
    assert (entry.occurred_at, recorded_at) == (START, clock.now())


def test_the_same_message_twice_adds_the_points_once():
    uow = progression_uow(PLAYER)
    event = attempt_completed(2)

    assert record_attempt_points(event, uow) is True
    assert record_attempt_points(event, uow) is False

    assert uow.progression.points[PLAYER] == 20
    assert len(uow.progression.entries) == 1


def test_a_second_message_about_the_same_attempt_adds_nothing():
    uow = progression_uow(PLAYER)
    first = attempt_completed(3)
    second = same_fact_new_message(first)
    assert second.event_id != first.event_id

    record_attempt_points(first, uow)
    assert record_attempt_points(second, uow) is False

    assert uow.progression.points[PLAYER] == 30
    assert (second.event_id, ATTEMPT_COMPLETED_CONSUMER) in uow.inbox.seen


def test_a_cpu_victory_adds_25_points():
    uow = progression_uow(PLAYER)

    assert record_match_points(match_finished("victory"), uow) is True

    assert uow.progression.points[PLAYER] == 25
    ((entry, _),) = uow.progression.entries.values()
    assert (entry.source_type, entry.reason, entry.correct_count) == ("match", "cpu_victory", None)


@pytest.mark.parametrize(
    ("outcome", "reason"), [("defeat", "cpu_defeat"), ("forfeit", "cpu_forfeit")]
)
def test_a_cpu_loss_is_recorded_with_no_points(outcome, reason):
    uow = progression_uow(PLAYER)
    record_attempt_points(attempt_completed(1), uow)

    assert record_match_points(match_finished(outcome), uow) is True

    assert uow.progression.points[PLAYER] == 10
    reasons = sorted(e.reason for e, _ in uow.progression.entries.values())
    assert reasons == sorted(["challenge_answers", reason])


def test_a_match_is_counted_once_whatever_the_message():
    uow = progression_uow(PLAYER)
    event = match_finished("victory")

    record_match_points(event, uow)
    record_match_points(event, uow)
    record_match_points(same_fact_new_message(event), uow)

    assert uow.progression.points[PLAYER] == 25


def test_an_attempt_and_a_match_with_the_same_id_are_different_sources():
    uow = progression_uow(PLAYER)
    shared_id = uuid.UUID(int=99)

    record_attempt_points(attempt_completed(5, attempt_id=shared_id), uow)
    record_match_points(match_finished("victory", match_id=shared_id), uow)

    assert uow.progression.points[PLAYER] == 75


def test_points_for_an_unknown_player_are_ignored_logged_and_not_retried(caplog):
    uow = progression_uow(PLAYER)
    stranger = uuid.UUID(int=404)
    event = attempt_completed(5, player_id=stranger)

    with caplog.at_level(logging.WARNING, logger="services.accounts.handlers"):
        assert record_attempt_points(event, uow) is False

    assert uow.progression.entries == {}
    assert (event.event_id, ATTEMPT_COMPLETED_CONSUMER) in uow.inbox.seen
    assert str(stranger) in caplog.text


def test_a_match_for_an_unknown_player_is_ignored():
    uow = progression_uow(PLAYER)
    event = match_finished("victory", player_id=uuid.UUID(int=405))

    assert record_match_points(event, uow) is False

    assert uow.progression.entries == {}
    assert (event.event_id, MATCH_FINISHED_CONSUMER) in uow.inbox.seen


def test_a_redelivery_seen_by_the_inbox_does_not_touch_progression():
    class Exploding(FakeProgression):
        def player_exists(self, player_id: uuid.UUID) -> bool:
            raise AssertionError("a redelivered message must not reach the repository")

    event = attempt_completed(1)
    inbox = FakeInbox()
    inbox.seen.add((event.event_id, ATTEMPT_COMPLETED_CONSUMER))
    uow = ProgressionUnitOfWork(progression=Exploding(PLAYER), inbox=inbox, clock=FixedClock(START))

    assert record_attempt_points(event, uow) is False


def test_events_read_from_the_wire_add_points():
    uow = progression_uow(PLAYER)
    attempt = read_event(ATTEMPT_COMPLETED, attempt_completed(5).to_message())
    match = read_event(MATCH_FINISHED, match_finished("victory").to_message())

    record_attempt_points(attempt, uow)
    record_match_points(match, uow)

    assert uow.progression.points[PLAYER] == 75


@pytest.mark.parametrize(("outcome", "points"), [("victory", 25), ("defeat", 0), ("forfeit", 0)])
def test_a_v1_match_finished_still_counts_as_before(outcome, points):
    uow = progression_uow(PLAYER)
    match_id = uuid.uuid4()

    assert record_match_points(match_finished(outcome, match_id, version=1), uow) is True
    again = match_finished(outcome, match_id, version=2)  # the same match, re-sent as v2
    assert record_match_points(again, uow) is False

    assert uow.progression.points.get(PLAYER, 0) == points


def test_a_match_of_a_game_without_points_earns_none_and_is_applied_once():
    uow = progression_uow(PLAYER)
    event = match_finished("victory")
    other = new_event(MATCH_FINISHED, {**event.data, "game": "terrakard", "mode": "attack"},
                      event.occurred_at)  # fmt: skip

    assert record_match_points(other, uow) is False

    assert (other.event_id, MATCH_FINISHED_CONSUMER) in uow.inbox.seen
    assert uow.progression.points.get(PLAYER, 0) == 0


deliveries = st.lists(
    st.tuples(
        st.sampled_from(["attempt", "match"]),
        st.integers(min_value=0, max_value=3),  # which source: repeats are likely
        st.booleans(),  # a new message about the source, or the very same one again
    ),
    max_size=30,
)


@given(deliveries)
def test_points_equal_the_sum_over_distinct_sources_whatever_the_deliveries(plan):
    uow = progression_uow(PLAYER)
    corrects = {n: n + 1 for n in range(4)}
    outcomes = {0: "victory", 1: "defeat", 2: "forfeit", 3: "victory"}
    attempts = {n: attempt_completed(corrects[n], uuid.UUID(int=100 + n)) for n in range(4)}
    matches = {n: match_finished(outcomes[n], uuid.UUID(int=200 + n)) for n in range(4)}
    seen: set[tuple[str, int]] = set()

    for kind, n, new_message in plan:
        event = attempts[n] if kind == "attempt" else matches[n]
        if new_message:
            event = same_fact_new_message(event)
        record = record_attempt_points if kind == "attempt" else record_match_points
        record(event, uow)
        seen.add((kind, n))

    expected = sum(
        10 * corrects[n] if kind == "attempt" else (25 if outcomes[n] == "victory" else 0)
        for kind, n in seen
    )
    assert uow.progression.points[PLAYER] == expected
    assert len(uow.progression.entries) == len(seen)


# -- reading progression ------------------------------------------------------------------


def test_progression_lists_the_history_newest_first_up_to_the_limit():
    uow = progression_uow(PLAYER)
    record_attempt_points(attempt_completed(1, at=START), uow)
    record_match_points(match_finished("defeat", at=START + timedelta(minutes=5)), uow)
    record_match_points(match_finished("victory", at=START + timedelta(minutes=9)), uow)

    everything = get_progression(GetProgression(PLAYER), uow.progression)
    newest_two = get_progression(GetProgression(PLAYER, limit=2), uow.progression)

    assert everything.points == 35
    assert [e.reason for e in everything.entries] == [
        "cpu_victory",
        "cpu_defeat",
        "challenge_answers",
    ]
    assert newest_two.entries == everything.entries[:2]


def test_progression_of_an_unknown_player_is_not_found():
    with pytest.raises(NotFound) as caught:
        get_progression(GetProgression(uuid.UUID(int=404)), progression_uow(PLAYER).progression)
    assert caught.value.code == "player_not_found"


def test_progression_dumps_to_the_documented_shape():
    entry = domain.attempt_entry(PLAYER, uuid.UUID(int=5), 2, START)
    match = domain.cpu_match_entry(PLAYER, uuid.UUID(int=6), "victory", START)

    dumped = ProgressionSchema().dump(Progression(PLAYER, 45, [match, entry]))

    assert dumped == {
        "player_id": str(PLAYER),
        "points": 45,
        "entries": [
            {
                "source_type": "match",
                "source_id": str(uuid.UUID(int=6)),
                "points": 25,
                "reason": "cpu_victory",
                "correct_count": None,
                "occurred_at": START.isoformat(),
            },
            {
                "source_type": "attempt",
                "source_id": str(uuid.UUID(int=5)),
                "points": 20,
                "reason": "challenge_answers",
                "correct_count": 2,
                "occurred_at": START.isoformat(),
            },
        ],
    }


def test_me_shows_the_players_points():
    player = Player(PLAYER, "auth0|p", PlayerStatus.ACTIVE, START, points=85)
    assert PlayerSchema().dump(player)["points"] == 85


@pytest.mark.parametrize("limit", [1, 200])
def test_a_limit_from_1_to_200_is_accepted(limit):
    loaded = load(ProgressionQuerySchema(), {"player_id": str(PLAYER), "limit": limit})
    assert loaded == {"player_id": PLAYER, "limit": limit}


def test_the_limit_defaults_to_50():
    assert load(ProgressionQuerySchema(), {"player_id": str(PLAYER)})["limit"] == 50


@pytest.mark.parametrize(
    "query",
    [
        {"player_id": str(PLAYER), "limit": 0},
        {"player_id": str(PLAYER), "limit": 201},
        {"player_id": str(PLAYER), "limit": "10"},
        {"player_id": str(PLAYER), "limit": True},
        {"player_id": str(PLAYER), "limit": None},
        {"player_id": "not-a-uuid"},
        {},
    ],
)
def test_a_bad_progression_query_is_invalid_input(query):
    with pytest.raises(InvalidInput) as caught:
        load(ProgressionQuerySchema(), query)
    assert caught.value.code == "validation_failed"

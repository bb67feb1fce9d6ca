"""An attempt (rulebook "Event challenge": "Start and resume", "Questions and timing",
"Answers, expiry, and feedback"): five distinct questions chosen and shuffled once, locked
answers, a fixed deadline, and a player view that withholds the key until completion."""

from __future__ import annotations

import json
import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.challenge.domain.attempt import (
    QUESTIONS_PER_ATTEMPT,
    Answer,
    Attempt,
    AttemptQuestion,
    PublishedQuestion,
    Status,
    answer,
    complete,
    player_view,
    start,
)
from services.challenge.domain.timing import time_limit
from shared.content import Kind
from shared.errors import Conflict, InvalidInput, NotFound
from shared.randomness import SeededRandomSource

NOW = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)
ATTEMPT_ID = uuid.UUID("00000000-0000-4000-8000-0000000000a1")
PLAYER_ID = uuid.UUID("00000000-0000-4000-8000-0000000000b2")
EVENT_ID = uuid.UUID("00000000-0000-4000-8000-0000000000c3")
SEED = 20300501
seeds = st.integers(min_value=0, max_value=2**63 - 1)

# Words the active view must never contain (the texts below are chosen not to contain them).
WITHHELD_WORDS = ("correct", "key", "explanation", "score", "result")


def _question_id(n: int) -> uuid.UUID:
    return uuid.UUID(int=(0x5EED << 64) + n)


def explanation_text(n: int) -> str:
    return f"Because of reason number {n} (private)"


def multiple_choice(n: int, correct_index: int = 0, difficulty: int = 2) -> PublishedQuestion:
    return PublishedQuestion(
        _question_id(n),
        Kind.QUESTION.value,
        {
            "prompt": f"Multiple choice prompt {n}?",
            "difficulty": difficulty,
            "explanation": explanation_text(n),
            "choices": [
                {"text": f"Option {n}-{i}", "correct": i == correct_index} for i in range(4)
            ],
        },
    )


def ordering(n: int, difficulty: int = 2) -> PublishedQuestion:
    return PublishedQuestion(
        _question_id(n),
        Kind.ORDERING_QUESTION.value,
        {
            "prompt": f"Put these in order {n}",
            "difficulty": difficulty,
            "explanation": explanation_text(n),
            "items": authored_items(n),
        },
    )


def authored_items(n: int) -> list[str]:
    return [f"Item {n}-{i}" for i in range(4)]


def five_mixed() -> list[PublishedQuestion]:
    """Three multiple-choice questions (correct at different places) and two ordering ones."""
    return [
        multiple_choice(0, correct_index=0),
        multiple_choice(1, correct_index=2),
        multiple_choice(2, correct_index=3),
        ordering(3),
        ordering(4),
    ]


def start_with(
    published: list[PublishedQuestion], seed: int = SEED, now: datetime = NOW
) -> Attempt:
    return start(ATTEMPT_ID, PLAYER_ID, EVENT_ID, published, now, SeededRandomSource(seed))


def published_by_id(published: list[PublishedQuestion]) -> dict[uuid.UUID, PublishedQuestion]:
    return {q.id: q for q in published}


def first_of_kind(attempt: Attempt, kind: Kind) -> AttemptQuestion:
    return next(q for q in attempt.questions if q.kind == kind)


def wrong_choice(question: AttemptQuestion) -> str:
    return next(o.id for o in question.options if o.id not in question.key)


def option_id_lists(value: Any) -> list[list[str]]:
    """Every list of strings anywhere in a JSON-like value."""
    found: list[list[str]] = []
    if isinstance(value, dict):
        for v in value.values():
            found.extend(option_id_lists(v))
    elif isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            found.append(value)
        for v in value:
            found.extend(option_id_lists(v))
    return found


# -- start ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 4])
def test_fewer_than_five_questions_is_not_playable(count):
    with pytest.raises(Conflict) as refused:
        start_with(five_mixed()[:count])

    assert refused.value.code == "challenge_not_playable"


def test_five_entries_with_only_four_distinct_questions_are_not_playable():
    four = five_mixed()[:4]

    with pytest.raises(Conflict) as refused:
        start_with([*four, four[0]])

    assert refused.value.code == "challenge_not_playable"


@given(seed=seeds)
def test_exactly_five_questions_are_all_used_once(seed):
    published = five_mixed()

    attempt = start_with(published, seed)

    assert len(attempt.questions) == QUESTIONS_PER_ATTEMPT
    assert sorted(q.question_id for q in attempt.questions) == sorted(q.id for q in published)
    assert [q.position for q in attempt.questions] == list(range(QUESTIONS_PER_ATTEMPT))


@given(seed=seeds)
def test_more_than_five_questions_gives_five_distinct_of_them(seed):
    published = [*five_mixed(), multiple_choice(5), ordering(6), multiple_choice(7)]

    attempt = start_with(published, seed)

    chosen = [q.question_id for q in attempt.questions]
    assert len(chosen) == QUESTIONS_PER_ATTEMPT
    assert len(set(chosen)) == QUESTIONS_PER_ATTEMPT
    assert set(chosen) <= {q.id for q in published}


def test_which_five_are_chosen_varies_with_the_seed():
    published = [*five_mixed(), multiple_choice(5), ordering(6), multiple_choice(7)]

    selections = {
        frozenset(q.question_id for q in start_with(published, seed).questions)
        for seed in range(30)
    }

    assert len(selections) > 1
    assert set().union(*selections) == {q.id for q in published}


def test_a_new_attempt_is_active_starts_now_and_has_no_result_yet():
    attempt = start_with(five_mixed())

    assert (attempt.id, attempt.player_id, attempt.event_id) == (ATTEMPT_ID, PLAYER_ID, EVENT_ID)
    assert attempt.status is Status.ACTIVE
    assert attempt.started_at == NOW
    assert attempt.completed_at is None
    assert attempt.correct_count is None


@pytest.mark.parametrize(
    ("difficulties", "seconds"),
    [([1, 1, 1, 1, 1], 90), ([1, 1, 2, 2, 2], 120), ([2, 2, 3, 3, 3], 150)],
)
def test_deadline_is_start_plus_the_time_limit_of_the_chosen_questions(difficulties, seconds):
    published = [
        multiple_choice(0, difficulty=difficulties[0]),
        multiple_choice(1, difficulty=difficulties[1]),
        multiple_choice(2, difficulty=difficulties[2]),
        ordering(3, difficulty=difficulties[3]),
        ordering(4, difficulty=difficulties[4]),
    ]

    attempt = start_with(published)

    assert attempt.deadline == NOW + timedelta(seconds=seconds)
    assert attempt.deadline == NOW + time_limit([q.difficulty for q in attempt.questions])


@given(seed=seeds)
def test_prompt_difficulty_and_explanation_are_copied_from_the_published_question(seed):
    published = five_mixed()
    by_id = published_by_id(published)

    for question in start_with(published, seed).questions:
        body = by_id[question.question_id].body
        assert question.kind == by_id[question.question_id].kind
        assert question.prompt == body["prompt"]
        assert question.difficulty == body["difficulty"]
        assert question.explanation == body["explanation"]


@given(seed=seeds)
def test_same_seed_and_inputs_give_an_identical_attempt(seed):
    assert start_with(five_mixed(), seed) == start_with(five_mixed(), seed)


@given(seed=seeds, data=st.data())
def test_attempt_does_not_depend_on_the_order_questions_are_loaded_in(seed, data):
    published = [*five_mixed(), multiple_choice(5), ordering(6)]
    reordered = data.draw(st.permutations(published))

    assert start_with(reordered, seed) == start_with(published, seed)


@given(seed=seeds, global_seed=st.integers(0, 2**32))
def test_global_random_module_does_not_influence_the_attempt(seed, global_seed):
    published = [*five_mixed(), multiple_choice(5), ordering(6)]

    first = start_with(published, seed)
    random.seed(global_seed)
    random.random()
    random.shuffle(list(range(10)))
    second = start_with(published, seed)

    assert first == second


def test_different_seeds_usually_give_different_attempts():
    attempts = [start_with(five_mixed(), seed) for seed in range(20)]

    assert len({a.questions for a in attempts}) >= 19


@given(seed=seeds)
def test_option_ids_are_unique_within_each_question(seed):
    for question in start_with(five_mixed(), seed).questions:
        ids = [o.id for o in question.options]
        assert len(ids) == 4
        assert len(set(ids)) == 4


@given(seed=seeds)
def test_options_show_every_authored_text_exactly_once(seed):
    published = five_mixed()
    by_id = published_by_id(published)

    for question in start_with(published, seed).questions:
        body = by_id[question.question_id].body
        authored = (
            body["items"]
            if question.kind == Kind.ORDERING_QUESTION
            else [c["text"] for c in body["choices"]]
        )
        assert sorted(o.text for o in question.options) == sorted(authored)


@given(seed=seeds)
def test_multiple_choice_key_is_the_id_of_the_option_whose_text_was_correct(seed):
    published = five_mixed()
    by_id = published_by_id(published)

    for question in start_with(published, seed).questions:
        if question.kind != Kind.QUESTION:
            continue
        correct_text = next(
            c["text"] for c in by_id[question.question_id].body["choices"] if c["correct"]
        )
        text_by_id = {o.id: o.text for o in question.options}
        assert len(question.key) == 1
        assert text_by_id[question.key[0]] == correct_text


@pytest.mark.parametrize("correct_index", range(4))
def test_multiple_choice_key_follows_the_correct_choice_wherever_it_was_authored(correct_index):
    published = [multiple_choice(n, correct_index=correct_index) for n in range(5)]

    for question in start_with(published).questions:
        n = question.question_id.int - _question_id(0).int
        (key,) = question.key
        assert {o.id: o.text for o in question.options}[key] == f"Option {n}-{correct_index}"


@given(seed=seeds)
def test_ordering_key_lists_the_option_ids_in_the_authored_order(seed):
    published = five_mixed()
    by_id = published_by_id(published)

    for question in start_with(published, seed).questions:
        if question.kind != Kind.ORDERING_QUESTION:
            continue
        text_by_id = {o.id: o.text for o in question.options}
        assert sorted(question.key) == sorted(text_by_id)
        assert [text_by_id[i] for i in question.key] == by_id[question.question_id].body["items"]


# -- answer -----------------------------------------------------------------------------


@pytest.fixture
def attempt() -> Attempt:
    return start_with(five_mixed())


@pytest.mark.parametrize("index", [-1, 5, 99])
def test_answering_a_question_outside_the_attempt_is_not_found(attempt, index):
    with pytest.raises(NotFound) as refused:
        answer(attempt, {}, index, {"choice": "o00000000"}, NOW)

    assert refused.value.code == "question_not_in_attempt"


def test_first_and_last_questions_can_be_answered(attempt):
    for position in (0, QUESTIONS_PER_ATTEMPT - 1):
        question = attempt.questions[position]
        submission = (
            {"order": list(question.key)}
            if question.kind == Kind.ORDERING_QUESTION
            else {"choice": question.key[0]}
        )
        accepted, new = answer(attempt, {}, position, submission, NOW)
        assert (accepted.position, new) == (position, True)


def _mc_refusals(attempt: Attempt) -> list[dict[str, Any]]:
    question = first_of_kind(attempt, Kind.QUESTION)
    other = next(q for q in attempt.questions if q is not question)
    valid = question.key[0]
    return [
        {"choice": "o00000000"},
        {"choice": other.options[0].id},  # an option of another question
        {"choice": valid.upper()},
        {"choice": None},
        {},
        {"choice": valid, "extra": 1},
        {"choice": valid, "order": [o.id for o in question.options]},
        {"order": [o.id for o in question.options]},
    ]


@pytest.mark.parametrize("case", range(8))
def test_multiple_choice_with_an_unknown_option_or_extra_keys_is_invalid(attempt, case):
    question = first_of_kind(attempt, Kind.QUESTION)
    submission = _mc_refusals(attempt)[case]

    with pytest.raises(InvalidInput) as refused:
        answer(attempt, {}, question.position, submission, NOW)

    assert refused.value.code == "unknown_option"


def _ordering_refusals(attempt: Attempt) -> list[Any]:
    question = first_of_kind(attempt, Kind.ORDERING_QUESTION)
    other = next(q for q in attempt.questions if q is not question)
    ids = list(question.key)
    return [
        ids[:3],  # partial
        [ids[0], ids[0], ids[1], ids[2]],  # duplicate instead of one
        [ids[0], ids[0], ids[1], ids[2], ids[3]],  # every id plus a duplicate
        [*ids[:3], other.options[0].id],  # foreign id
        [*ids, other.options[0].id],  # every id plus a foreign one
        [],
        tuple(ids),  # not a JSON list
        ",".join(ids),
        None,
    ]


@pytest.mark.parametrize("case", range(9))
def test_ordering_with_partial_duplicate_or_foreign_ids_is_an_invalid_order(attempt, case):
    question = first_of_kind(attempt, Kind.ORDERING_QUESTION)
    order = _ordering_refusals(attempt)[case]

    with pytest.raises(InvalidInput) as refused:
        answer(attempt, {}, question.position, {"order": order}, NOW)

    assert refused.value.code == "invalid_order"


def test_ordering_answered_with_a_choice_is_an_invalid_order(attempt):
    question = first_of_kind(attempt, Kind.ORDERING_QUESTION)

    with pytest.raises(InvalidInput) as refused:
        answer(attempt, {}, question.position, {"choice": question.key[0]}, NOW)

    assert refused.value.code == "invalid_order"


def test_correct_choice_a_millisecond_before_the_deadline_is_accepted_and_correct(attempt):
    question = first_of_kind(attempt, Kind.QUESTION)
    now = attempt.deadline - timedelta(milliseconds=1)

    accepted, new = answer(attempt, {}, question.position, {"choice": question.key[0]}, now)

    assert new is True
    assert accepted == Answer(question.position, question.key, now, True)


def test_wrong_choice_is_accepted_and_marked_incorrect(attempt):
    question = first_of_kind(attempt, Kind.QUESTION)
    choice = wrong_choice(question)

    accepted, new = answer(attempt, {}, question.position, {"choice": choice}, NOW)

    assert new is True
    assert accepted == Answer(question.position, (choice,), NOW, False)


def test_authored_order_is_correct_and_any_other_order_is_not(attempt):
    question = first_of_kind(attempt, Kind.ORDERING_QUESTION)
    now = attempt.deadline - timedelta(milliseconds=1)

    right, _ = answer(attempt, {}, question.position, {"order": list(question.key)}, now)
    wrong, _ = answer(attempt, {}, question.position, {"order": list(question.key)[::-1]}, now)

    assert right.correct is True
    assert wrong.correct is False
    assert wrong.submitted == tuple(reversed(question.key))


@given(seed=seeds, data=st.data())
def test_an_ordering_answer_is_correct_exactly_when_it_is_the_key(seed, data):
    attempt = start_with(five_mixed(), seed)
    question = first_of_kind(attempt, Kind.ORDERING_QUESTION)
    order = data.draw(st.permutations([o.id for o in question.options]))

    accepted, new = answer(attempt, {}, question.position, {"order": list(order)}, NOW)

    assert new is True
    assert accepted.correct == (tuple(order) == question.key)


@pytest.mark.parametrize("late", [timedelta(0), timedelta(microseconds=1), timedelta(hours=2)])
def test_a_new_answer_at_or_after_the_deadline_is_refused(attempt, late):
    question = first_of_kind(attempt, Kind.QUESTION)

    with pytest.raises(Conflict) as refused:
        answer(attempt, {}, question.position, {"choice": question.key[0]}, attempt.deadline + late)

    assert refused.value.code == "deadline_passed"


def test_repeating_an_identical_answer_returns_the_stored_one_even_after_the_deadline(attempt):
    question = first_of_kind(attempt, Kind.QUESTION)
    submission = {"choice": wrong_choice(question)}
    first, _ = answer(attempt, {}, question.position, submission, NOW + timedelta(seconds=5))
    answers = {question.position: first}

    for later in (
        NOW + timedelta(seconds=6),
        attempt.deadline,
        attempt.deadline + timedelta(days=1),
    ):
        again, new = answer(attempt, answers, question.position, dict(submission), later)
        assert new is False
        assert again is first
        assert again.received_at == NOW + timedelta(seconds=5)


def test_repeating_an_identical_ordering_answer_is_idempotent(attempt):
    question = first_of_kind(attempt, Kind.ORDERING_QUESTION)
    order = list(question.key)
    first, _ = answer(attempt, {}, question.position, {"order": order}, NOW)

    again, new = answer(
        attempt, {question.position: first}, question.position, {"order": list(order)}, NOW
    )

    assert (again, new) == (first, False)


def test_a_different_answer_to_an_answered_question_is_locked(attempt):
    question = first_of_kind(attempt, Kind.QUESTION)
    first, _ = answer(attempt, {}, question.position, {"choice": wrong_choice(question)}, NOW)

    with pytest.raises(Conflict) as refused:
        answer(
            attempt,
            {question.position: first},
            question.position,
            {"choice": question.key[0]},
            NOW + timedelta(seconds=1),
        )

    assert refused.value.code == "answer_locked"


def test_a_different_order_for_an_answered_ordering_question_is_locked(attempt):
    question = first_of_kind(attempt, Kind.ORDERING_QUESTION)
    first, _ = answer(attempt, {}, question.position, {"order": list(question.key)}, NOW)

    with pytest.raises(Conflict) as refused:
        answer(
            attempt,
            {question.position: first},
            question.position,
            {"order": list(question.key)[::-1]},
            NOW,
        )

    assert refused.value.code == "answer_locked"


def test_answering_a_completed_attempt_before_its_deadline_is_refused(attempt):
    done = complete(attempt, {}, NOW + timedelta(seconds=1))
    question = first_of_kind(done, Kind.QUESTION)

    with pytest.raises(Conflict) as refused:
        answer(done, {}, question.position, {"choice": question.key[0]}, NOW + timedelta(seconds=2))

    assert refused.value.code == "attempt_completed"


def test_an_active_attempt_expires_exactly_at_its_deadline(attempt):
    assert attempt.expired(attempt.deadline - timedelta(microseconds=1)) is False
    assert attempt.expired(attempt.deadline) is True


# -- complete ---------------------------------------------------------------------------


def _answer_all(attempt: Attempt, correct_positions: set[int], skip: set[int]) -> dict[int, Answer]:
    answers: dict[int, Answer] = {}
    for question in attempt.questions:
        if question.position in skip:
            continue
        if question.position in correct_positions:
            submitted = question.key
        elif question.kind == Kind.ORDERING_QUESTION:
            submitted = tuple(reversed(question.key))
        else:
            submitted = (wrong_choice(question),)
        key = "order" if question.kind == Kind.ORDERING_QUESTION else "choice"
        value = list(submitted) if key == "order" else submitted[0]
        accepted, _ = answer(attempt, answers, question.position, {key: value}, NOW)
        answers[question.position] = accepted
    return answers


def test_completing_without_answers_scores_zero(attempt):
    done = complete(attempt, {}, attempt.deadline)

    assert done.status is Status.COMPLETED
    assert done.correct_count == 0


def test_unanswered_questions_count_as_incorrect(attempt):
    answers = _answer_all(attempt, correct_positions={0, 1}, skip={3, 4})

    done = complete(attempt, answers, NOW + timedelta(seconds=10))

    assert done.correct_count == 2


def test_all_five_correct_scores_five(attempt):
    answers = _answer_all(attempt, correct_positions=set(range(5)), skip=set())

    assert complete(attempt, answers, NOW).correct_count == 5


def test_completion_before_the_deadline_is_recorded_at_now(attempt):
    now = attempt.deadline - timedelta(seconds=30)

    assert complete(attempt, {}, now).completed_at == now


@pytest.mark.parametrize("late", [timedelta(0), timedelta(microseconds=1), timedelta(days=3)])
def test_completion_at_or_after_the_deadline_is_recorded_at_the_deadline(attempt, late):
    assert complete(attempt, {}, attempt.deadline + late).completed_at == attempt.deadline


def test_completion_keeps_the_attempts_identity_questions_and_deadline(attempt):
    done = complete(attempt, {}, NOW)

    assert (done.id, done.player_id, done.event_id) == (attempt.id, PLAYER_ID, EVENT_ID)
    assert done.questions == attempt.questions
    assert (done.started_at, done.deadline) == (attempt.started_at, attempt.deadline)


# -- player view ------------------------------------------------------------------------


def _assert_withholds_everything_private(view: dict[str, Any]) -> None:
    text = json.dumps(view)
    for word in WITHHELD_WORDS:
        assert word not in text.casefold(), word
    for n in range(10):
        assert explanation_text(n) not in text


@given(seed=seeds)
def test_active_view_withholds_key_correctness_score_and_explanations(seed):
    attempt = start_with([*five_mixed(), multiple_choice(5), ordering(6)], seed)

    _assert_withholds_everything_private(player_view(attempt, {}))


def test_active_view_with_answers_still_withholds_correctness(attempt):
    answers = _answer_all(attempt, correct_positions={0, 2}, skip={4})

    view = player_view(attempt, answers)

    _assert_withholds_everything_private(view)
    assert "result" not in view


def test_active_view_shows_five_questions_in_order_with_the_shuffled_options(attempt):
    view = player_view(attempt, {})

    assert view["status"] == "active"
    assert view["deadline"] == attempt.deadline.isoformat()
    assert [q["index"] for q in view["questions"]] == list(range(5))
    for shown, question in zip(view["questions"], attempt.questions, strict=True):
        assert shown["options"] == [{"id": o.id, "text": o.text} for o in question.options]
        assert set(shown) == {"index", "kind", "prompt", "options", "answer"}
        assert shown["answer"] is None


def test_active_view_shows_the_players_own_answers(attempt):
    answers = _answer_all(attempt, correct_positions={0}, skip={1})

    view = player_view(attempt, answers)

    for shown, question in zip(view["questions"], attempt.questions, strict=True):
        stored = answers.get(question.position)
        if stored is None:
            assert shown["answer"] is None
        elif question.kind == Kind.ORDERING_QUESTION:
            assert shown["answer"] == {"order": list(stored.submitted)}
        else:
            assert shown["answer"] == {"choice": stored.submitted[0]}


def test_active_view_never_lists_an_ordering_key_in_order_when_shuffling_changed_it():
    shuffled_seeds = 0
    for seed in range(51):
        attempt = start_with(five_mixed(), seed)
        view = player_view(attempt, {})
        lists = option_id_lists(view)
        for shown, question in zip(view["questions"], attempt.questions, strict=True):
            if question.kind != Kind.ORDERING_QUESTION:
                continue
            shown_ids = [o["id"] for o in shown["options"]]
            if shown_ids == list(question.key):
                continue  # the shuffle happened to keep the authored order
            shuffled_seeds += 1
            assert list(question.key) not in lists
            assert [o["text"] for o in shown["options"]] != authored_items(
                question.question_id.int - _question_id(0).int
            )
    assert shuffled_seeds > 80  # two ordering questions x 51 seeds, rarely unshuffled


def test_ordering_key_cannot_be_recovered_by_sorting_the_shown_option_ids():
    recovered = 0
    for seed in range(51):
        attempt = start_with(five_mixed(), seed)
        for shown in player_view(attempt, {})["questions"]:
            if shown["kind"] != Kind.ORDERING_QUESTION:
                continue
            question = attempt.questions[shown["index"]]
            recovered += sorted(o["id"] for o in shown["options"]) == list(question.key)
    # By chance one in 24 orders matches; 102 ordering questions would give about 4.
    assert recovered < 20


def _completed(attempt: Attempt) -> tuple[Attempt, dict[int, Answer]]:
    mc = first_of_kind(attempt, Kind.QUESTION).position
    order = first_of_kind(attempt, Kind.ORDERING_QUESTION).position
    unanswered = next(q.position for q in attempt.questions if q.position not in {mc, order})
    answers = _answer_all(attempt, correct_positions={mc, order}, skip={unanswered})
    return complete(attempt, answers, NOW + timedelta(seconds=40)), answers


def test_completed_view_has_the_score_and_five_review_entries_in_order(attempt):
    done, answers = _completed(attempt)

    view = player_view(done, answers)

    assert view["status"] == "completed"
    assert view["result"]["score"] == 2
    assert view["result"]["completedAt"] == (NOW + timedelta(seconds=40)).isoformat()
    review = view["result"]["review"]
    assert [entry["index"] for entry in review] == list(range(5))
    for entry, question in zip(review, done.questions, strict=True):
        stored = answers.get(question.position)
        assert entry["correct"] is bool(stored and stored.correct)
        if question.kind == Kind.ORDERING_QUESTION:
            assert entry["correctAnswer"] == {"order": list(question.key)}
        else:
            assert entry["correctAnswer"] == {"choice": question.key[0]}


def test_completed_view_has_no_player_answer_for_unanswered_questions(attempt):
    done, answers = _completed(attempt)

    review = player_view(done, answers)["result"]["review"]

    unanswered = [e for e in review if e["index"] not in answers]
    assert len(unanswered) == 1
    assert unanswered[0]["yourAnswer"] is None
    assert unanswered[0]["correct"] is False
    for entry in review:
        if entry["index"] in answers:
            assert entry["yourAnswer"] is not None


def test_completed_view_explains_ordering_questions_only(attempt):
    done, answers = _completed(attempt)

    view = player_view(done, answers)

    text = json.dumps(view)
    for entry, question in zip(view["result"]["review"], done.questions, strict=True):
        if question.kind == Kind.ORDERING_QUESTION:
            assert entry["explanation"] == question.explanation
        else:
            assert "explanation" not in entry
            assert question.explanation not in text


def test_completed_view_is_json_serialisable_and_never_holds_the_published_answer_flags(
    attempt,
):
    done, answers = _completed(attempt)

    text = json.dumps(player_view(done, answers))

    assert '"correct": true, "text"' not in text
    assert "choices" not in text
    assert "items" not in text


def test_duplicate_published_questions_are_never_chosen_twice():
    base = [multiple_choice(n) for n in range(5)]
    for seed in range(30):
        chosen = start(
            uuid.uuid4(),
            uuid.uuid4(),
            uuid.uuid4(),
            base + base[:2],
            NOW,
            SeededRandomSource(seed),
        )
        assert len({q.question_id for q in chosen.questions}) == 5


@pytest.mark.parametrize(
    "submission",
    [{"choice": ["a"]}, {"choice": {"id": "a"}}, {"choice": 3}],
)
def test_a_choice_that_is_not_a_string_is_invalid_input(submission):
    questions = [multiple_choice(n) for n in range(5)]
    attempt = start(uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), questions, NOW, SeededRandomSource(1))
    with pytest.raises(InvalidInput):
        answer(attempt, {}, 0, submission, NOW)

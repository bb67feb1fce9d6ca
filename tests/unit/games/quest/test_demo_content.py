"""The Quest demo content (services/authoring/seed/quest_content.json) is complete and ready.

Everything here is checked the way the authoring lifecycle will check it when
``deckyard seed`` loads the file: each body must load (shape) and have no
readiness problems, and every cross-reference must point at something in the
file. No database: ids the service would assign are stood in for by uuid4s.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from games.quest.content import MAX_EVENT_RADIUS_M, MIN_EVENT_RADIUS_M
from services.authoring.kinds import load_body, readiness_problems

ROOT = Path(__file__).parents[4]
SEED = ROOT / "services/authoring/seed/quest_content.json"
CARDS = ROOT / "services/authoring/seed/quest_cards.json"
DOC = ROOT / "docs/demo-content.md"
REWARD_CARDS = {"Field Kit", "Reserve Focus"}
SEEDED_AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

CONTENT = json.loads(SEED.read_text(encoding="utf-8"))
QUESTIONS = CONTENT["questions"]
CHALLENGES = CONTENT["challenges"]
EVENTS = CONTENT["events"]
CAMPAIGNS = CONTENT["campaigns"]
MC = [q for q in QUESTIONS if q["kind"] == "question"]
ORDERING = [q for q in QUESTIONS if q["kind"] == "ordering_question"]
QUESTION_BY_REF = {q["ref"]: q for q in QUESTIONS}
CHALLENGE_REFS = {c["ref"] for c in CHALLENGES}
EVENT_REFS = {e["ref"] for e in EVENTS}


def ids_for(refs):
    return [str(uuid.uuid4()) for _ in refs]


def test_the_file_has_exactly_the_four_sections():
    assert set(CONTENT) == {"questions", "challenges", "events", "campaigns"}


def test_every_ref_is_unique_across_the_file():
    refs = [item["ref"] for section in CONTENT.values() for item in section]
    assert [r for r, n in Counter(refs).items() if n > 1] == []
    assert all(isinstance(r, str) and r.strip() for r in refs)


def test_enough_questions_over_enough_topics():
    assert len(MC) >= 30
    assert len(ORDERING) >= 4
    assert {q["kind"] for q in QUESTIONS} == {"question", "ordering_question"}
    assert len({q["body"]["topic"] for q in MC}) >= 5
    assert {q["body"]["difficulty"] for q in MC} == {1, 2, 3}


def test_no_two_questions_ask_the_same_thing():
    prompts = [" ".join(q["body"]["prompt"].casefold().split()) for q in QUESTIONS]
    assert len(set(prompts)) == len(prompts)


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q["ref"])
def test_each_question_loads_and_is_ready(question):
    body = load_body(question["kind"], "quest", question["body"])
    assert readiness_problems(question["kind"], "quest", body) == []
    assert body["topic"].strip()


@pytest.mark.parametrize("question", MC, ids=lambda q: q["ref"])
def test_each_multiple_choice_question_has_four_choices_and_one_answer(question):
    choices = question["body"]["choices"]
    texts = [c["text"].strip() for c in choices]
    assert len(choices) == 4
    assert all(texts)
    assert len({t.casefold() for t in texts}) == 4
    assert sum(1 for c in choices if c.get("correct") is True) == 1
    assert question["body"]["difficulty"] in (1, 2, 3)
    assert question["body"]["explanation"].strip()


@pytest.mark.parametrize("question", ORDERING, ids=lambda q: q["ref"])
def test_each_ordering_question_is_not_given_away_by_sorting(question):
    # Players see the items sorted (kinds.public_view), so the answer must differ from that.
    items = question["body"]["items"]
    assert len(items) == 4
    assert items != sorted(items)


def test_enough_challenges():
    assert len(CHALLENGES) >= 5


def kinds_in(challenge):
    return Counter(QUESTION_BY_REF[r]["kind"] for r in challenge["question_refs"])


@pytest.mark.parametrize("challenge", CHALLENGES, ids=lambda c: c["ref"])
def test_each_challenge_lists_existing_distinct_questions(challenge):
    refs = challenge["question_refs"]
    assert len(refs) >= 5
    assert len(set(refs)) == len(refs)
    assert set(refs) <= set(QUESTION_BY_REF)
    assert len({QUESTION_BY_REF[r]["body"]["difficulty"] for r in refs}) >= 2


def test_most_challenges_are_basic_and_ordering_sits_in_a_challenge_named_for_it():
    # The server draws five of all a challenge's questions, whatever their kind, and a
    # Basic attempt is five multiple-choice questions (rulebook, "Questions and timing"):
    # so a Basic challenge holds multiple-choice questions only, at least five.
    basic = [c for c in CHALLENGES if kinds_in(c)["ordering_question"] == 0]
    extension = [c for c in CHALLENGES if kinds_in(c)["ordering_question"] > 0]
    assert len(basic) >= 5
    assert all(kinds_in(c)["question"] >= 5 for c in basic)
    assert extension, "the ordering extension has a challenge to show it"
    assert all("ordering" in c["title"].casefold() for c in extension)


@pytest.mark.parametrize("challenge", CHALLENGES, ids=lambda c: c["ref"])
def test_each_challenge_body_is_ready(challenge):
    body = load_body(
        "challenge",
        "quest",
        {"title": challenge["title"], "question_ids": ids_for(challenge["question_refs"])},
    )
    assert readiness_problems("challenge", "quest", body) == []


def test_every_question_is_used_by_some_challenge():
    used = {r for c in CHALLENGES for r in c["question_refs"]}
    assert set(QUESTION_BY_REF) - used == set()


def test_enough_events_each_with_a_challenge():
    assert len(EVENTS) >= 5
    assert len({e["name"] for e in EVENTS}) == len(EVENTS)


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e["ref"])
def test_each_event_is_well_formed(event):
    assert event["challenge_ref"] in CHALLENGE_REFS
    assert MIN_EVENT_RADIUS_M <= event["radius_m"] <= MAX_EVENT_RADIUS_M
    assert 50 <= event["radius_m"] <= 300
    lat, lon = event["location"]["lat"], event["location"]["lon"]
    assert -90 <= lat <= 90
    assert -180 <= lon <= 180
    assert (lat, lon) != (0, 0)
    assert event["reward_card"] in REWARD_CARDS
    assert event["description"].strip()


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e["ref"])
def test_each_event_body_loads_and_is_ready(event):
    raw = {
        "name": event["name"],
        "description": event["description"],
        "location": event["location"],
        "radius_m": event["radius_m"],
        "starts_at": SEEDED_AT.isoformat(),
        "ends_at": (SEEDED_AT + timedelta(days=365)).isoformat(),
        "challenge_id": str(uuid.uuid4()),
        "reward_definition_id": str(uuid.uuid4()),
    }
    body = load_body("event", "quest", raw)
    assert readiness_problems("event", "quest", body) == []


def test_reward_cards_are_common_power_cards_in_the_catalogue():
    if not CARDS.exists():
        pytest.skip("no card seed file to cross-check against")
    cards = {c["body"]["name"]: c for c in json.loads(CARDS.read_text(encoding="utf-8"))}
    for name in {e["reward_card"] for e in EVENTS}:
        assert cards[name]["kind"] == "power_card"
        assert cards[name]["body"]["rarity"] == "Common"


def test_the_campaign_lists_three_existing_events_in_order():
    assert len(CAMPAIGNS) >= 1
    for campaign in CAMPAIGNS:
        refs = campaign["event_refs"]
        assert len(refs) == 3
        assert len(set(refs)) == 3
        assert set(refs) <= EVENT_REFS
        body = load_body(
            "campaign", "quest", {"name": campaign["name"], "event_ids": ids_for(refs)}
        )
        assert readiness_problems("campaign", "quest", body) == []


def doc_table(heading):
    """The rows of the first table under ``heading`` in the doc, as lists of cells."""
    lines = DOC.read_text(encoding="utf-8").split(heading + "\n", 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:  # after the header and its --- line
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def leading_number(cell):
    return int(re.match(r"\d+", cell)[0])


def test_the_doc_counts_what_the_file_holds():
    counts = {row[0]: row[1] for row in doc_table("## What is in it")}
    assert leading_number(counts["Multiple-choice questions"]) == len(MC)
    assert leading_number(counts["Ordering questions"]) == len(ORDERING)
    assert leading_number(counts["Challenges"]) == len(CHALLENGES)
    assert leading_number(counts["Events"]) == len(EVENTS)
    assert leading_number(counts["Campaigns"]) == len(CAMPAIGNS)
    basic = sum(1 for c in CHALLENGES if kinds_in(c)["ordering_question"] == 0)
    assert f"{basic} Basic" in counts["Challenges"].replace("six", "6")


def test_the_doc_says_of_each_challenge_what_its_attempts_draw():
    rows = {row[0]: row for row in doc_table("## Challenges")}
    assert set(rows) == {c["title"] for c in CHALLENGES}
    for challenge in CHALLENGES:
        _, _, mc, ordering, attempt = rows[challenge["title"]]
        kinds = kinds_in(challenge)
        assert (int(mc), int(ordering)) == (kinds["question"], kinds["ordering_question"])
        # Basic exactly when an attempt cannot draw an ordering question.
        is_basic = kinds["ordering_question"] == 0
        assert attempt.startswith("Basic: five multiple-choice") == is_basic, attempt
        assert attempt.startswith("Extension:") == (not is_basic), attempt


def test_the_doc_names_every_event_and_challenge():
    doc = DOC.read_text(encoding="utf-8")
    for event in EVENTS:
        assert event["name"] in doc
    for challenge in CHALLENGES:
        assert challenge["title"] in doc


def test_the_public_view_of_a_question_never_holds_its_answer_key():
    from services.authoring.kinds import load_body, public_view

    body = load_body(
        "question",
        "quest",
        {
            "prompt": "2 + 2?",
            "difficulty": 1,
            "explanation": "Arithmetic.",
            "choices": [
                {"text": "4", "correct": True},
                {"text": "3"},
                {"text": "5"},
                {"text": "22"},
            ],
        },
    )
    view = public_view("question", "quest", body)
    assert view["choices"] == ["4", "3", "5", "22"]
    assert "explanation" not in view and "correct" not in str(view)

    ordering = load_body(
        "ordering_question",
        "quest",
        {
            "prompt": "Smallest first",
            "difficulty": 1,
            "explanation": "Sizes.",
            "items": ["ant", "dog", "cow", "whale"],
        },
    )
    assert public_view("ordering_question", "quest", ordering)["items"] == sorted(
        ["ant", "dog", "cow", "whale"]
    )

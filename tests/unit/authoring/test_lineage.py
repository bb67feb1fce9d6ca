"""Authoring's pure lineage rules: supersession, and what refuses a retirement."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import pytest

from games.quest.canonical import QUEST_CANONICAL, CanonicalCards
from services.authoring import domain, kinds
from services.authoring.domain import Content, Referenced, State
from shared.errors import Conflict
from tests.integration.authoring.test_lifecycle import creature_body, power_card_body

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass
class FakeDependencies:
    """Just enough of the repository: content by id, plus published starter counts."""

    items: dict[uuid.UUID, Content] = field(default_factory=dict)
    starters: int = 3

    def add(self, item: Content) -> Content:
        self.items[item.id] = item
        return item

    def referenced(self, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Referenced]:
        found = (self.items.get(i) for i in ids)
        return {c.id: Referenced(c.id, c.kind, c.state, c.body) for c in found if c}

    def published_events_using(self, challenge_id: uuid.UUID) -> int:
        return len(self.published_events_using_any([challenge_id]))

    def published_starters(self, kind: str, affinity: str | None) -> int:
        return self.starters

    def founding_name_key(self, lineage_id: uuid.UUID) -> str | None:
        return self.items[lineage_id].name_key

    def published_challenges_using(self, question_id: uuid.UUID) -> Sequence[Referenced]:
        return [
            Referenced(c.id, c.kind, c.state, c.body)
            for c in self.items.values()
            if c.kind == "challenge"
            and c.state is State.PUBLISHED
            and str(question_id) in c.body["question_ids"]
        ]

    def published_events_using_any(self, challenge_ids: Iterable[uuid.UUID]) -> list[uuid.UUID]:
        wanted = {str(i) for i in challenge_ids}
        return [
            c.id
            for c in self.items.values()
            if c.kind == "event" and c.state is State.PUBLISHED and c.body["challenge_id"] in wanted
        ]


def published(kind: str, body: dict, replaces: Content | None = None) -> Content:
    content, _ = domain.create(uuid.uuid4(), "a", kind, "quest", body, NOW, replaces=replaces)
    return replace(content, state=State.PUBLISHED, version=4, published_at=NOW)


def retire(item: Content, deps: FakeDependencies, canonical: CanonicalCards = QUEST_CANONICAL):
    return domain.transition(item, "b", "retired", item.version, None, NOW, deps, canonical)


def test_a_replacement_supersedes_its_original_as_a_retirement_with_its_reason():
    original = published("power_card", power_card_body())
    replacement = published("power_card", power_card_body(), replaces=original)
    superseded, entry, events = domain.supersede(original, replacement, "b", NOW)
    assert superseded.state is State.RETIRED and superseded.retired_at == NOW
    assert superseded.version == original.version + 1
    assert (entry.action, entry.reason) == ("supersede", f"superseded by {replacement.id}")
    assert [(e.type, e.data["content_id"]) for e in events] == [("ContentRetired", original.id)]
    assert replacement.lineage_id == original.lineage_id


@pytest.mark.parametrize(
    ("name", "dependents"),
    [
        ("Karrik", ["CPU deck"]),
        ("  field KIT ", ["starter set", "CPU deck"]),
        ("Reserve Focus", ["starter set", "CPU deck"]),
        ("Smoke Pellet", []),
    ],
)
def test_the_canonical_lineages_are_named_by_their_founding_name(name, dependents):
    assert QUEST_CANONICAL.dependents(kinds.name_key(name), kinds.name_key) == dependents


def test_a_card_of_the_cpu_deck_is_refused_retirement_naming_it_whatever_its_current_name():
    deps = FakeDependencies()
    karrik = deps.add(published("creature", creature_body("Karrik", affinity="Grit")))
    renamed = deps.add(published("creature", creature_body("Karrik II"), replaces=karrik))
    with pytest.raises(Conflict) as caught:
        retire(renamed, deps)
    assert caught.value.code == "card_in_use"
    assert caught.value.details == {"dependents": ["CPU deck"]}


def test_a_card_nothing_depends_on_may_be_retired():
    deps = FakeDependencies()
    card = deps.add(published("power_card", power_card_body("Smoke Pellet")))
    assert retire(card, deps)[0].state is State.RETIRED


def test_a_starter_creature_is_refused_only_when_its_affinity_would_keep_fewer_than_three():
    deps = FakeDependencies(starters=3)
    card = deps.add(published("creature", creature_body(starter=True)))
    with pytest.raises(Conflict) as caught:
        retire(card, deps)
    assert caught.value.details == {"dependents": ["Wit starter set"]}
    deps.starters = 4
    assert retire(card, deps)[0].state is State.RETIRED


def test_a_replacement_of_a_starter_creature_must_stay_a_common_starter_of_its_affinity():
    deps = FakeDependencies()
    original = deps.add(published("creature", creature_body(starter=True)))
    for body, ready in (
        (creature_body(starter=True), True),
        (creature_body(starter=False), False),
        (creature_body(starter=True, rarity="Rare"), False),
        (creature_body(starter=True, affinity="Grit"), False),
    ):
        draft, _ = domain.create(uuid.uuid4(), "a", "creature", "quest", body, NOW, original)
        problems = domain._replacement_problems(draft, deps)
        assert (problems == []) is ready, body


def question_set(deps: FakeDependencies, count: int) -> list[Content]:
    body = {
        "prompt": "Which?",
        "choices": [{"text": t, "correct": t == "a"} for t in "abcd"],
        "difficulty": 1,
        "explanation": "Because.",
    }
    return [deps.add(published("question", body)) for _ in range(count)]


@pytest.mark.parametrize(("count", "allowed"), [(5, False), (6, True)])
def test_a_question_keeps_five_playable_in_every_published_challenge_that_lists_it(count, allowed):
    deps = FakeDependencies()
    questions = question_set(deps, count)
    ids = [str(q.id) for q in questions]
    challenge = deps.add(published("challenge", {"title": "T", "question_ids": ids}))
    event = replace(
        published("challenge", {"title": "E", "question_ids": []}),
        kind="event",
        body={"challenge_id": str(challenge.id)},
    )
    deps.add(event)
    if allowed:
        assert retire(questions[0], deps)[0].state is State.RETIRED
        return
    with pytest.raises(Conflict) as caught:
        retire(questions[0], deps)
    assert caught.value.code == "question_in_use"
    assert caught.value.details == {"challenges": [str(challenge.id)], "events": [str(event.id)]}


def test_an_already_retired_question_does_not_count_as_playable():
    deps = FakeDependencies()
    questions = question_set(deps, 6)
    deps.add(replace(questions[5], state=State.RETIRED))
    ids = [str(q.id) for q in questions]
    deps.add(published("challenge", {"title": "T", "question_ids": ids}))
    with pytest.raises(Conflict):
        retire(questions[0], deps)

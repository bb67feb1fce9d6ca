"""`deckyard seed`: the shipped catalogue and demo content, through the lifecycle.

The catalogue (the cards: Quest's, and Chronovore's Core Set) is part of every install:
without it no starter grant or CPU battle can work. The demo content (questions,
challenges, events and campaigns at real places) is for development and trials; an
operator may leave it out (``demo=False``, ``deckyard seed --no-demo``,
``deckyard migrate --seed catalogue``).

Every item is created as a draft by one seed Author, submitted, approved by a
second seed Author and published - the same rules and events as content made
through the API. Each item has a stable reference in the seed files; the
reference is recorded with the content, so running the seed again creates
nothing twice and finishes any item a crashed run left half-way.
Demo events are available from the time they are seeded, for a year.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select

from services.authoring import handlers
from services.authoring.domain import State
from services.authoring.orm import seed_refs
from services.authoring.repository import unit_of_work
from shared.clock import Clock
from shared.content import Game
from shared.db import Database

SEED_DIR = Path(__file__).with_name("seed")
SEED_AUTHOR = "deckyard|seed-author"
SEED_REVIEWER = "deckyard|seed-reviewer"
CHRONOVORE_CORE_SET = "chronovore_core_set.json"  # Chronovore's Core Set (docs/chronovore.md)
DEMO_EVENT_AVAILABILITY = timedelta(days=365)  # issue: available for a year from seeding

# The steps from each state to Published, and who takes them.
NEXT_STEP = {
    State.DRAFT: (State.IN_REVIEW, SEED_AUTHOR),
    State.IN_REVIEW: (State.APPROVED, SEED_REVIEWER),
    State.APPROVED: (State.PUBLISHED, SEED_AUTHOR),
}


@dataclass
class SeedReport:
    created: int = 0
    published: int = 0
    ids: dict[str, uuid.UUID] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # replacements of a lineage moved on


def _load(name: str) -> Any:
    return json.loads((SEED_DIR / name).read_text(encoding="utf-8"))


def _card_ref(name: str) -> str:
    return "card:" + " ".join(name.split()).casefold()


class Seeder:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self.report = SeedReport()

    def ensure_published(
        self,
        ref: str,
        kind: str,
        body: Callable[[], dict[str, Any]],
        replaces: uuid.UUID | None = None,
        game: str = Game.QUEST,
    ) -> uuid.UUID | None:
        """The content of ``ref``, published (created first if it never was). A
        replacement (``replaces``: the content it is a new version of) is created only
        while that content is published: publishing it supersedes that version. If an
        Author has already replaced or retired it, the seed leaves the lineage alone
        (None)."""
        with unit_of_work(self._db) as uow:
            session = uow.events.session
            content_id = session.execute(
                select(seed_refs.c.content_id).where(seed_refs.c.ref == ref)
            ).scalar()
            if content_id is None:
                if replaces is not None and (
                    handlers.get_content(replaces, uow).state is not State.PUBLISHED
                ):
                    self.report.skipped.append(ref)
                    return None
                command = handlers.CreateContent(SEED_AUTHOR, kind, game, body(), replaces=replaces)
                created = handlers.create_content(command, uow, self._clock)
                content_id = created.id
                session.execute(insert(seed_refs).values(ref=ref, content_id=content_id))
                self.report.created += 1
        self._publish(content_id)
        self.report.ids[ref] = content_id
        return content_id

    def _publish(self, content_id: uuid.UUID) -> None:
        """Take the content the rest of the way to Published, one transition per transaction."""
        while True:
            with unit_of_work(self._db) as uow:
                item = handlers.get_content(content_id, uow)
                if item.state not in NEXT_STEP:
                    return
                to, actor = NEXT_STEP[item.state]
                handlers.transition_content(
                    handlers.TransitionContent(actor, content_id, to, item.version),
                    uow,
                    self._clock,
                )
                self.report.published += to is State.PUBLISHED


def _fixed(body: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    return lambda: body


def seed(db: Database, clock: Clock, demo: bool = True) -> SeedReport:
    """The catalogue, then (unless ``demo`` is False) the demo content."""
    seeder = Seeder(db, clock)
    for card in _load("quest_cards.json"):
        seeder.ensure_published(_card_ref(card["body"]["name"]), card["kind"], _fixed(card["body"]))
    # New versions of shipped cards (the rebalance of docs/balance.md), in order: each
    # supersedes the version it replaces when published, so an install that seeded the
    # old numbers gets the new ones on its next seed, through the lifecycle.
    # A lineage's founding reference names its active version from then on (what the
    # demo content refers to cards by).
    founder: dict[str, str] = {}
    for card in _load("quest_card_replacements.json"):
        lineage = founder.setdefault(card["ref"], founder.get(card["replaces"], card["replaces"]))
        original = seeder.report.ids.get(card["replaces"])
        if original is None:  # the version it replaces was itself skipped
            seeder.report.skipped.append(card["ref"])
            continue
        replacement = seeder.ensure_published(
            card["ref"], card["kind"], _fixed(card["body"]), original
        )
        if replacement is not None:
            seeder.report.ids[lineage] = replacement
    for card in _load(CHRONOVORE_CORE_SET):
        ref = f"{Game.CHRONOVORE}:{_card_ref(card['body']['name'])}"
        seeder.ensure_published(ref, card["kind"], _fixed(card["body"]), game=Game.CHRONOVORE)
    if demo:
        _seed_demo_content(seeder, clock)
    return seeder.report


def _seed_demo_content(seeder: Seeder, clock: Clock) -> None:
    ids = seeder.report.ids
    content = _load("quest_content.json")
    for question in content["questions"]:
        seeder.ensure_published(question["ref"], question["kind"], _fixed(question["body"]))
    for challenge in content["challenges"]:
        question_ids = [str(ids[r]) for r in challenge["question_refs"]]
        body = {"title": challenge["title"], "question_ids": question_ids}
        seeder.ensure_published(challenge["ref"], "challenge", _fixed(body))
    for event in content["events"]:
        seeder.ensure_published(event["ref"], "event", _event_body(event, ids, clock))
    for campaign in content["campaigns"]:
        body = {
            "name": campaign["name"],
            "event_ids": [str(ids[r]) for r in campaign["event_refs"]],
        }
        seeder.ensure_published(campaign["ref"], "campaign", _fixed(body))


def _event_body(
    event: dict[str, Any], ids: dict[str, uuid.UUID], clock: Clock
) -> Callable[[], dict[str, Any]]:
    def body() -> dict[str, Any]:  # dated when it is created, not when the file was written
        now = clock.now()
        return {
            "name": event["name"],
            "description": event.get("description", ""),
            "location": event["location"],
            "radius_m": event["radius_m"],
            "starts_at": now.isoformat(),
            "ends_at": (now + DEMO_EVENT_AVAILABILITY).isoformat(),
            "challenge_id": str(ids[event["challenge_ref"]]),
            "reward_definition_id": str(ids[_card_ref(event["reward_card"])]),
        }

    return body

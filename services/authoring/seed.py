"""`deckyard seed`: the shipped catalogue and demo content, through the lifecycle.

The catalogue is part of every install: Quest's cards, Chronovore's Core Set, and
TerraKard's sample cards with their knowledge questions (``terrakard_seed.py``); without
it no starter grant, starting collection, pack or CPU battle can work. The demo content
(questions, challenges, events and campaigns at real places) is for development and
trials; an operator may leave it out (``demo=False``, ``deckyard seed --no-demo``,
``deckyard migrate --seed catalogue``).

Every item is created as a draft by one seed Author, submitted, approved by a
second seed Author and published - the same rules and events as content made
through the API. Each item has a stable reference in the seed files; the
reference is recorded with the content, so running the seed again creates
nothing twice and finishes any item a crashed run left half-way.
A shipped item that changes later reaches installs as a new version through the
lifecycle: Quest's rebalance names its replacements in a file of their own; an item
seeded from data (TerraKard's articles) is compared with what the last seed published
(``ensure_current``).
Demo events are available from the time they are seeded, for a year.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert

from services.authoring import handlers
from services.authoring.domain import State
from services.authoring.orm import content, seed_refs
from services.authoring.repository import AuthoringUnitOfWork, unit_of_work
from services.authoring.terrakard_seed import seed_terrakard_sample
from shared.clock import Clock
from shared.content import Game
from shared.db import Database
from shared.errors import Conflict

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
    created: int = 0  # new versions among them (``replaced``)
    published: int = 0
    replaced: int = 0  # new versions of seeded items whose shipped data changed
    retired: int = 0  # older versions a new one replaced that publishing did not retire
    ids: dict[str, uuid.UUID] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # lineages an Author moved on, names taken


@dataclass
class Seeded:
    """What a seed reference names: its content, the content's lineage and state."""

    content_id: uuid.UUID
    lineage_id: uuid.UUID
    state: State


def _load(name: str) -> Any:
    return json.loads((SEED_DIR / name).read_text(encoding="utf-8"))


def _card_ref(name: str) -> str:
    return "card:" + " ".join(name.split()).casefold()


class Seeder:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self.report = SeedReport()
        # Every reference an earlier run recorded, read once: a run that finds its items
        # published (every run but the first) takes no transaction per item.
        self._seeded = self._read_seeded()

    def _read_seeded(self) -> dict[str, Seeded]:
        with self._db.read() as session:
            rows = session.execute(
                select(seed_refs.c.ref, content.c.id, content.c.lineage_id, content.c.state).join(
                    content, content.c.id == seed_refs.c.content_id
                )
            ).all()
        return {row.ref: Seeded(row.id, row.lineage_id, State(row.state)) for row in rows}

    def ensure_published(
        self,
        ref: str,
        kind: str,
        body: Callable[[], dict[str, Any]],
        replaces: uuid.UUID | None = None,
        game: str = Game.QUEST,
        aliases: Sequence[str] = (),
    ) -> uuid.UUID | None:
        """The content of ``ref``, published (created first if it never was). A
        replacement (``replaces``: the content it is a new version of) is created only
        while that content is published: publishing it supersedes that version. If an
        Author has already replaced or retired it, the seed leaves the lineage alone
        (None). ``aliases``: more references to the content, recorded with it."""
        known = self._seeded.get(ref)
        if known is not None and known.state is State.PUBLISHED and not aliases:
            self.report.ids[ref] = known.content_id
            return known.content_id
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
            for alias in aliases:
                session.execute(
                    pg_insert(seed_refs)
                    .values(ref=alias, content_id=content_id)
                    .on_conflict_do_nothing()
                )
            seeded = Seeded(content_id, *self._publish(content_id, uow))
        for name in (ref, *aliases):
            self._seeded[name] = seeded
        self.report.ids[ref] = content_id
        return content_id

    def ensure_current(
        self, lineage_ref: str, version_ref: str, kind: str, game: str, body: dict[str, Any]
    ) -> Seeded | None:
        """The shipped version of an item seeded from data, published: ``lineage_ref``
        names the item for good (its first version), ``version_ref`` this version of its
        data (a digest of ``body``, say).

        The first time, the version founds the lineage. When the shipped data changed
        since the last seed (a ``version_ref`` not seen before), it is created as a
        replacement of the lineage's published version, reviewed and published: a card's
        publication retires the version it replaces; any other kind's is retired here, so
        the lineage keeps one published version. If an Author has replaced or retired the
        seeded version since, or another lineage has the name, the seed leaves the item to
        its Authors (None, named in ``skipped``)."""
        known = self._seeded.get(version_ref)
        if known is None or known.state is not State.PUBLISHED:
            founder = self._seeded.get(lineage_ref)
            replaces = None
            if known is None and founder is not None:
                replaces = self._seeded_published_version(founder.lineage_id)
                if replaces is None:  # an Author's version is published, or none is
                    self.report.skipped.append(version_ref)
                    return None
            # The first version is the lineage's (a replacement has a founder already).
            aliases = [lineage_ref] if founder is None else []
            try:
                content_id = self.ensure_published(
                    version_ref, kind, _fixed(body), replaces, game, aliases
                )
            except Conflict as exc:
                if exc.code != "duplicate_name":
                    raise
                self.report.skipped.append(version_ref)  # another lineage has the name
                return None
            known = self._seeded[version_ref] if content_id is not None else None
            if known is None or known.state is not State.PUBLISHED:  # retired by an Author
                self.report.skipped.append(version_ref)
                return None
            self.report.replaced += replaces is not None
        self.report.ids[version_ref] = self.report.ids[lineage_ref] = known.content_id
        self._retire_older_versions(known)
        return known

    def _seeded_published_version(self, lineage_id: uuid.UUID) -> uuid.UUID | None:
        """The lineage's published version, if the seed published it (else an Author's)."""
        with self._db.read() as session:
            published = session.execute(
                select(content.c.id)
                .where(content.c.lineage_id == lineage_id, content.c.state == State.PUBLISHED)
                .order_by(content.c.published_at.desc())
                .limit(1)
            ).scalar()
        seeded = {s.content_id for s in self._seeded.values()}
        return published if published in seeded else None

    def _retire_older_versions(self, current: Seeded) -> None:
        """Retire the lineage's other published versions the seed made (a question's
        replacement does not retire its original: services/authoring/handlers.py)."""
        older = {
            s.content_id
            for s in self._seeded.values()
            if s.lineage_id == current.lineage_id
            and s.content_id != current.content_id
            and s.state is State.PUBLISHED
        }
        for content_id in sorted(older):
            with unit_of_work(self._db) as uow:
                item = handlers.get_content(content_id, uow)
                if item.state is State.PUBLISHED:
                    handlers.transition_content(
                        handlers.TransitionContent(
                            SEED_AUTHOR, content_id, State.RETIRED, item.version,
                            f"replaced by {current.content_id}",
                        ),
                        uow,
                        self._clock,
                    )  # fmt: skip
                    self.report.retired += 1
            for ref, seeded in self._seeded.items():
                if seeded.content_id == content_id:
                    self._seeded[ref] = Seeded(content_id, seeded.lineage_id, State.RETIRED)

    def _publish(self, content_id: uuid.UUID, uow: AuthoringUnitOfWork) -> tuple[uuid.UUID, State]:
        """Take the content the rest of the way to Published, in the transaction that
        created it (one commit an item: a first seed makes about a thousand); its lineage
        and the state it ends in (an Author may have retired it since)."""
        while True:
            item = handlers.get_content(content_id, uow)
            if item.state not in NEXT_STEP:
                return item.lineage_id, item.state
            to, actor = NEXT_STEP[item.state]
            handlers.transition_content(
                handlers.TransitionContent(actor, content_id, to, item.version), uow, self._clock
            )
            self.report.published += to is State.PUBLISHED


def _fixed(body: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    return lambda: body


def seed(db: Database, clock: Clock, demo: bool = True) -> SeedReport:
    """The catalogue, then (unless ``demo`` is False) the demo content: one step a game."""
    seeder = Seeder(db, clock)
    _seed_quest_cards(seeder)
    _seed_chronovore_core_set(seeder)
    seed_terrakard_sample(seeder)
    if demo:
        _seed_demo_content(seeder, clock)
    return seeder.report


def _seed_quest_cards(seeder: Seeder) -> None:
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


def _seed_chronovore_core_set(seeder: Seeder) -> None:
    for card in _load(CHRONOVORE_CORE_SET):
        ref = f"{Game.CHRONOVORE}:{_card_ref(card['body']['name'])}"
        seeder.ensure_published(ref, card["kind"], _fixed(card["body"]), game=Game.CHRONOVORE)


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

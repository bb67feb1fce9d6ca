"""The seed publishes TerraKard's sample through the lifecycle, as the rest of the
catalogue: once (a second seed changes nothing), and a changed line of a later release
reaches an install that seeded the old one as a replacement, never by editing a row."""

import json
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from games.terrakard.articles import parse_line
from games.terrakard.collection import starting_cards
from games.terrakard.content import GAME, Difficulty
from services.authoring import handlers
from services.authoring.orm import content, content_audit, plumbing, seed_refs
from services.authoring.repository import SqlContentRepository, unit_of_work
from services.authoring.seed import SEED_AUTHOR, SEED_DIR, SEED_REVIEWER, Seeder, seed
from services.cards.economy import load_economy
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.migrations import drop_database, upgrade
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

SEEDED_AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
ALICE, BOB = "auth0|author-alice", "auth0|author-bob"


@pytest.fixture(scope="module")
def authoring_db(settings):
    """An authoring database of this module's own, seeded once as `deckyard migrate
    --seed catalogue` seeds a fresh install (the first seed's report with it)."""
    own = replace(settings, database_prefix=f"{settings.database_prefix}_tkseed")
    upgrade(own, "authoring")
    engine = make_engine(own.database_url_for("authoring"))
    db = Database(engine, plumbing, FixedClock(SEEDED_AT).now)
    try:
        yield db, seed(db, FixedClock(SEEDED_AT), demo=False)
    finally:
        engine.dispose()
        drop_database(own, "authoring")


def terrakard_rows(db):
    with db.read() as session:
        return session.execute(
            select(content.c.id, content.c.kind, content.c.state, content.c.body).where(
                content.c.game == GAME
            )
        ).all()


def shipped_articles():
    lines = (SEED_DIR / "terrakard_articles.sample.jsonl").read_text(encoding="utf-8")
    return [a for a in map(parse_line, lines.splitlines()) if a is not None]


def test_the_sample_is_published_through_the_lifecycle_with_what_the_game_needs(authoring_db):
    db, report = authoring_db
    rows = terrakard_rows(db)
    articles = shipped_articles()
    cards = [r.body for r in rows if r.kind == "card" and r.state == "published"]
    questions = [r.body for r in rows if r.kind == "knowledge_question" and r.state == "published"]

    assert {r.state for r in rows} == {"published"}
    assert sorted(c["name"] for c in cards) == sorted(a.title for a in articles)
    assert len(questions) == sum(1 for a in articles if a.facts) > 150
    # A starting collection, every pack kind, every difficulty (the cards service's and
    # battle's own rules, over what was published).
    definitions = [
        {"name": c["name"], "rarity": c["rarity"], "attributes": {"category": c["category"]}}
        for c in cards
    ]
    assert len(starting_cards(definitions)) == 10
    for kind in load_economy().packs_of(GAME):
        assert kind.needed_rarities() <= {c["rarity"] for c in cards}, kind.kind
    assert {q["difficulty"] for q in questions} == {str(d) for d in Difficulty}
    lineages = {r.id for r in rows if r.kind == "card"}
    assert {q["card_lineage_id"] for q in questions} <= {str(i) for i in lineages}
    assert report.created >= len(rows)


def test_every_sample_item_was_submitted_by_one_seed_author_and_approved_by_the_other(
    authoring_db,
):
    db, _ = authoring_db
    with db.read() as session:
        steps = session.execute(
            select(content_audit.c.to_state, content_audit.c.actor, func.count())
            .join(content, content.c.id == content_audit.c.content_id)
            .where(content.c.game == GAME)
            .group_by(content_audit.c.to_state, content_audit.c.actor)
        ).all()
    done = {(to, actor): n for to, actor, n in steps}
    items = len(terrakard_rows(db))
    assert done == {
        ("draft", SEED_AUTHOR): items,
        ("in_review", SEED_AUTHOR): items,
        ("approved", SEED_REVIEWER): items,
        ("published", SEED_AUTHOR): items,
    }


def snapshot(db):
    with db.read() as session:
        rows = session.execute(
            select(content.c.id, content.c.state, content.c.version).order_by(content.c.id)
        ).all()
        audit = session.execute(select(func.count()).select_from(content_audit)).scalar()
        refs = session.execute(select(func.count()).select_from(seed_refs)).scalar()
        outbox = session.execute(select(func.count()).select_from(plumbing.outbox)).scalar()
    return [tuple(r) for r in rows], audit, refs, outbox


def test_a_second_seed_changes_nothing(authoring_db):
    db, _ = authoring_db
    before = snapshot(db)

    again = seed(db, FixedClock(SEEDED_AT + timedelta(days=3)), demo=False)

    assert (again.created, again.published, again.replaced, again.retired) == (0, 0, 0, 0)
    assert again.skipped == []
    assert snapshot(db) == before


# -- a later release changes the sample ------------------------------------------------


def article(title, views=15000, languages=60, year=1950):
    return json.dumps(
        {
            "title": title,
            "wikidata": "Q171433",
            "category": "Nature and life",
            "length": 25000,
            "languages": languages,
            "monthly_views": views,
            "age_years": 75,
            "facts": [{"property": "P569", "label": "date of birth", "year": year}],
            "approximate": True,
        }
    )


@pytest.fixture
def release(tmp_path, monkeypatch):
    """``release(lines)`` ships a sample of these lines and seeds it, as an install's next
    `deckyard migrate --seed catalogue` would (TerraKard's step alone): its report."""
    from services.authoring import terrakard_seed

    days = iter(range(1, 100))

    def seed_release(lines, db):
        sample = tmp_path / f"sample-{random_suffix()}.jsonl"
        sample.write_text("\n".join(lines) + "\n", encoding="utf-8")
        monkeypatch.setattr(terrakard_seed, "SAMPLE", sample)
        seeder = Seeder(db, FixedClock(SEEDED_AT + timedelta(days=next(days))))
        terrakard_seed.seed_terrakard_sample(seeder)
        return seeder.report

    return seed_release


def versions(db, name):
    """Every version of the card ``name`` and of its question, oldest first."""
    with db.read() as session:
        card = session.execute(
            select(content).where(content.c.kind == "card", content.c.body["name"].astext == name)
        ).first()
        return session.execute(
            select(content)
            .where(
                (content.c.lineage_id == card.lineage_id)
                | (content.c.body["card_lineage_id"].astext == str(card.lineage_id))
            )
            .order_by(content.c.created_at, content.c.kind)
        ).all()


def test_a_changed_sample_line_reaches_the_install_as_a_reviewed_replacement(authoring_db, release):
    db, _ = authoring_db
    rising, dated = f"Rising {random_suffix()}", f"Dated {random_suffix()}"
    release([article(rising), article(dated)], db)
    [old_card, old_question] = versions(db, rising)

    # The next release: the first card's figures grew (Common to Rare: its question is
    # now medium), the second one's fact got another year (its card did not change).
    report = release([article(rising, 400_000, 120), article(dated, year=1951)], db)

    assert (report.created, report.replaced) == (3, 3)
    assert report.retired == 2  # both questions' old versions; the card's by publication
    card_versions = [v for v in versions(db, rising) if v.kind == "card"]
    assert [(v.id, v.state) for v in card_versions] == [
        (old_card.id, "retired"),
        (card_versions[1].id, "published"),
    ]
    new_card = card_versions[1]
    assert new_card.lineage_id == old_card.lineage_id and new_card.replaces == old_card.id
    assert new_card.body["rarity"] == "Rare" and new_card.body["figures"]["languages"] == 120
    questions = [v for v in versions(db, rising) if v.kind == "knowledge_question"]
    assert [q.state for q in questions] == ["retired", "published"]
    assert questions[1].replaces == old_question.id
    assert questions[1].body["difficulty"] == "medium"
    assert questions[1].body["card_lineage_id"] == str(old_card.lineage_id)
    with db.read() as session:  # battle is asked the card's question: the new one
        asked = SqlContentRepository(session).questions_about(
            GAME, "knowledge_question", [str(old_card.lineage_id)]
        )
        reviewers = session.execute(
            select(content_audit.c.actor).where(
                content_audit.c.content_id == new_card.id, content_audit.c.to_state == "approved"
            )
        ).scalars()
        assert list(reviewers) == [SEED_REVIEWER]
    assert asked[str(old_card.lineage_id)]["id"] == questions[1].id
    dated_versions = versions(db, dated)
    assert [(v.kind, v.state) for v in dated_versions] == [
        ("card", "published"),
        ("knowledge_question", "retired"),
        ("knowledge_question", "published"),
    ]
    assert dated_versions[2].body["answer"] is not None

    again = release([article(rising, 400_000, 120), article(dated, year=1951)], db)
    assert (again.created, again.published, again.retired) == (0, 0, 0)


def publish_by_hand(db, item):
    for to, actor in (("in_review", ALICE), ("approved", BOB), ("published", ALICE)):
        with unit_of_work(db) as uow:
            current = handlers.get_content(item.id, uow)
            handlers.transition_content(
                handlers.TransitionContent(actor, item.id, to, current.version),
                uow,
                FixedClock(SEEDED_AT),
            )


def test_a_card_its_authors_replaced_is_left_to_them_by_later_releases(authoring_db, release):
    db, _ = authoring_db
    name = f"Edited {random_suffix()}"
    release([article(name)], db)
    [seeded_card, _] = versions(db, name)
    with unit_of_work(db) as uow:
        body = {**seeded_card.body, "figures": {**seeded_card.body["figures"], "length": 26000}}
        mine = handlers.create_content(
            handlers.CreateContent(ALICE, "card", GAME, body, replaces=seeded_card.id),
            uow,
            FixedClock(SEEDED_AT),
        )
    publish_by_hand(db, mine)

    report = release([article(name, views=30000)], db)

    assert report.created == 0 and len(report.skipped) == 1
    states = Counter((v.kind, v.state, v.created_by) for v in versions(db, name))
    assert states == {
        ("card", "retired", SEED_AUTHOR): 1,
        ("card", "published", ALICE): 1,
        ("knowledge_question", "published", SEED_AUTHOR): 1,
    }

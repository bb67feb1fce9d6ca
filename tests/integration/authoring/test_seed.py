"""`deckyard seed` loads the catalogue and demo content through the lifecycle, once."""

import json
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from games.terrakard.articles import parse_line
from services.authoring import seed as seed_module
from services.authoring.orm import content, content_audit, plumbing, seed_refs
from services.authoring.seed import SEED_AUTHOR, SEED_DIR, SEED_REVIEWER, seed
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.migrations import drop_database, upgrade

pytestmark = pytest.mark.integration

SEEDED_AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def authoring_db(settings):
    """An authoring database of this module's own: other tests (the e2e ones seed the
    shared one, then retire content) must not change what seeding finds."""
    own = replace(settings, database_prefix=f"{settings.database_prefix}_seed")
    upgrade(own, "authoring")
    engine = make_engine(own.database_url_for("authoring"))
    yield Database(engine, plumbing, FixedClock(SEEDED_AT).now)
    engine.dispose()
    drop_database(own, "authoring")


def seeded_rows(db):
    with db.read() as session:
        return session.execute(
            select(content.c.kind, content.c.state, content.c.body).join(
                seed_refs, seed_refs.c.content_id == content.c.id
            )
        ).all()


def terrakard_items():
    """TerraKard's sample as the seed publishes it: each article's card, and its question
    when it has a fact to ask about (tests/integration/authoring/test_terrakard_seed.py)."""
    lines = (SEED_DIR / "terrakard_articles.sample.jsonl").read_text(encoding="utf-8")
    articles = [a for a in map(parse_line, lines.splitlines()) if a is not None]
    return len(articles) + sum(1 for a in articles if a.facts)


def replacements():
    return json.loads((SEED_DIR / "quest_card_replacements.json").read_text(encoding="utf-8"))


def test_seeding_twice_publishes_everything_once(authoring_db):
    first = seed(authoring_db, FixedClock(SEEDED_AT))
    second = seed(authoring_db, FixedClock(SEEDED_AT + timedelta(days=3)))
    rows = seeded_rows(authoring_db)

    assert second.created == 0 and second.published == 0
    replaced = len(replacements())
    assert len(rows) == len(first.ids) == len(second.ids)
    # Each shipped replacement superseded the version it replaces: one active version a card.
    assert Counter(state for _, state, _ in rows)["retired"] == replaced
    kinds = [kind for kind, state, _ in rows if state == "published"]
    assert kinds.count("creature") == 24 and kinds.count("power_card") == 6
    assert kinds.count("question") >= 30 and kinds.count("event") >= 5


def test_seeded_events_are_available_for_a_year_from_seeding(authoring_db):
    seed(authoring_db, FixedClock(SEEDED_AT))
    for kind, _, body in seeded_rows(authoring_db):
        if kind == "event":
            starts = datetime.fromisoformat(body["starts_at"])
            ends = datetime.fromisoformat(body["ends_at"])
            assert ends - starts == timedelta(days=365)


def test_seeded_content_was_approved_by_the_other_author(authoring_db):
    seed(authoring_db, FixedClock(SEEDED_AT))
    with authoring_db.read() as session:
        approvers = session.execute(
            select(content_audit.c.actor, func.count())
            .join(seed_refs, seed_refs.c.content_id == content_audit.c.content_id)
            .where(content_audit.c.to_state == "approved")
            .group_by(content_audit.c.actor)
        ).all()
        submitters = session.execute(
            select(func.count())
            .select_from(content_audit)
            .join(seed_refs, seed_refs.c.content_id == content_audit.c.content_id)
            .where(content_audit.c.to_state == "in_review", content_audit.c.actor == SEED_AUTHOR)
        ).scalar_one()
    assert [actor for actor, _ in approvers] == [SEED_REVIEWER]
    assert submitters == approvers[0][1]


def test_the_catalogue_alone_is_the_cards_and_nothing_of_the_demo(settings):
    own = replace(settings, database_prefix=f"{settings.database_prefix}_seedcat")
    upgrade(own, "authoring")
    engine = make_engine(own.database_url_for("authoring"))
    try:
        db = Database(engine, plumbing, FixedClock(SEEDED_AT).now)
        seed(db, FixedClock(SEEDED_AT), demo=False)
        kinds = sorted({kind for kind, _, _ in seeded_rows(db)})
        with_demo = seed(db, FixedClock(SEEDED_AT), demo=True)  # the demo can follow later
    finally:
        engine.dispose()
        drop_database(own, "authoring")
    assert kinds == [
        "card",
        "creature",
        "event_card",
        "knowledge_question",
        "monster",
        "power_card",
    ]  # Quest's, Chronovore's and TerraKard's cards, and TerraKard's questions about its own
    assert with_demo.created > 0


def test_the_chronovore_core_set_is_seeded_published_through_the_lifecycle(authoring_db):
    from services.authoring.seed import CHRONOVORE_CORE_SET, _load

    seed(authoring_db, FixedClock(SEEDED_AT), demo=False)
    with authoring_db.read() as session:
        rows = session.execute(
            select(content.c.kind, content.c.state, content.c.body)
            .join(seed_refs, seed_refs.c.content_id == content.c.id)
            .where(content.c.game == "chronovore")
        ).all()
    expected = _load(CHRONOVORE_CORE_SET)
    assert len(rows) == len(expected) >= 120
    assert {state for _, state, _ in rows} == {"published"}
    assert {kind for kind, _, _ in rows} == {"monster", "event_card"}
    assert sorted(body["name"] for _, _, body in rows) == sorted(
        e["body"]["name"] for e in expected
    )


def test_an_install_seeded_with_the_old_numbers_gets_the_replacements_on_its_next_seed(
    settings, monkeypatch
):
    own = replace(settings, database_prefix=f"{settings.database_prefix}_seedrep")
    upgrade(own, "authoring")
    engine = make_engine(own.database_url_for("authoring"))
    shipped = seed_module._load
    try:
        db = Database(engine, plumbing, FixedClock(SEEDED_AT).now)
        # Before the rebalance shipped: no replacements.
        monkeypatch.setattr(
            seed_module,
            "_load",
            lambda name: [] if name == "quest_card_replacements.json" else shipped(name),
        )
        before = seed(db, FixedClock(SEEDED_AT), demo=False)
        monkeypatch.setattr(seed_module, "_load", shipped)
        after = seed(db, FixedClock(SEEDED_AT + timedelta(days=30)), demo=False)
        with db.read() as session:
            rows = session.execute(
                select(content.c.id, content.c.lineage_id, content.c.state, content.c.body)
            ).all()
    finally:
        engine.dispose()
        drop_database(own, "authoring")
    shipped_replacements = replacements()
    core_set = len(seed_module._load(seed_module.CHRONOVORE_CORE_SET))
    terrakard = terrakard_items()
    assert before.created == 30 + core_set + terrakard
    assert after.created == len(shipped_replacements) > 0
    by_id = {row.id: row for row in rows}
    for entry in shipped_replacements:
        new = next(r for r in rows if r.state == "published" and r.body == entry["body"])
        founder = by_id[new.lineage_id]  # the same lineage as the card it replaces
        assert founder.id != new.id and founder.state == "retired"
        assert founder.body["name"] == new.body["name"]
    assert sum(1 for r in rows if r.state == "published") == 30 + core_set + terrakard

"""Account deletion on the real services: a player with data everywhere is deleted, and
then no service database holds their id or Auth0 subject, except the receipt and the
digest (neither of which holds either) and authoring's "Deleted author" history.

The Auth0 Management API is the test suite's stand-in (tests/auth0_standin.py). Time
is one FixedClock for every service; nothing sleeps through a deadline.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from nameko.testing.services import entrypoint_hook

from games.quest.cpu import CpuDeckNames
from services.accounts import orm as accounts_orm
from services.accounts.deletion import CONFIRMATION_PHRASE, DIGEST_RETENTION, RECEIPT_RETENTION
from services.authoring.purge import DELETED_AUTHOR
from services.battle import orm as battle_orm
from services.cards import orm as cards_orm
from services.challenge.geo import point
from services.challenge.orm import plumbing as challenge_plumbing
from services.challenge.repository import SqlPublishedContent
from shared.clock import FixedClock
from shared.config import SERVICE_NAMES
from shared.db import Database, make_engine
from shared.errors import Forbidden
from shared.events import new_event
from tests.auth0_standin import Auth0StandIn
from tests.helpers import wait_for
from tests.integration.battle.support import PLAYER_CARDS, definition_rows
from tests.integration.cards.test_rewards import definition
from tests.integration.challenge.test_attempts import CENTRE, location, question, right_choice
from tests.match_events import MATCH_FINISHED_V1
from tests.random_refs import random_sub, random_suffix

pytestmark = pytest.mark.integration

NOW = datetime.now(UTC).replace(microsecond=0)
SERVICES_WITH_DATA = ("cards", "challenge", "battle", "authoring")


# -- the platform ------------------------------------------------------------------------


@pytest.fixture
def clock():
    return FixedClock(NOW)


@pytest.fixture
def auth0():
    with Auth0StandIn() as standin:
        yield standin


@pytest.fixture
def battle_catalogue(engines):
    """Definitions with real card bodies for a battle deck, and for the CPU's deck."""
    suffix = random_suffix()
    player = definition_rows(PLAYER_CARDS, f"D{suffix}")
    cpu = definition_rows(("Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus"), suffix)
    with engines["cards"].begin() as conn:
        conn.execute(sa.insert(cards_orm.card_definitions), [*player.values(), *cpu.values()])
    names = CpuDeckNames(
        creatures=tuple(cpu[n]["name"] for n in ("Quillip", "Voltiki", "Karrik")),
        power_cards=tuple(cpu[n]["name"] for n in ("Field Kit", "Reserve Focus")),
    )
    return {"player": player, "cpu_names": names}


@pytest.fixture
def start_platform(start_service, settings, clock, auth0, battle_catalogue):
    """Start services by name (default: all five), accounts wired to the Auth0 stand-in."""

    def start(*names):
        started = {}
        for name in names or SERVICE_NAMES:
            override = auth0.settings(settings) if name == "accounts" else None
            replacements = {"clock": clock}
            if name == "battle":
                replacements["cpu_deck"] = battle_catalogue["cpu_names"]
            started[name] = start_service(
                name, settings_override=override, replacements=replacements
            )
        return started

    return start


@pytest.fixture
def engines(settings):
    made = {name: sa.create_engine(settings.database_url_for(name)) for name in SERVICE_NAMES}
    yield made
    for engine in made.values():
        engine.dispose()


def request(rpc, sub, clock, **overrides):
    args = {"auth_time": int(clock.now().timestamp()), "confirm": CONFIRMATION_PHRASE}
    args.update(overrides)
    return rpc.accounts.request_deletion(sub=sub, **args)


def status_of(rpc, sub):
    return rpc.accounts.deletion_status(sub=sub)


def completed(rpc, sub):
    """The deletion's view once it completed (waited for: events cross the broker)."""

    def done():
        view = status_of(rpc, sub)
        return view if view["status"] == "completed" else None

    return wait_for(done, timeout=30)


def sweep(container):
    with entrypoint_hook(container, "sweep_deletions") as run:
        return run()


# -- a player with data in every service ---------------------------------------------------------


def quest_event(settings):
    """A published event with five questions in the challenge read model."""
    engine = make_engine(settings.database_url_for("challenge"))
    db = Database(engine, challenge_plumbing, lambda: NOW)
    ids = []
    with db.transaction() as tx:
        content = SqlPublishedContent(tx.session)
        for n in range(5):
            qid = uuid.uuid4()
            content.add(
                "question",
                {
                    "id": qid,
                    "kind": "question",
                    "body": question(1, n),
                    "version": 1,
                    "published_at": NOW,
                },
            )
            ids.append(str(qid))
        challenge_id, event_id = uuid.uuid4(), uuid.uuid4()
        content.add(
            "challenge",
            {
                "id": challenge_id,
                "title": "T",
                "question_ids": ids,
                "version": 1,
                "published_at": NOW,
            },
        )
        content.add(
            "event",
            {
                "id": event_id,
                "name": "Trafalgar",
                "description": "",
                "radius_m": 100,
                "geog": point(*CENTRE),
                "starts_at": NOW - timedelta(hours=1),
                "ends_at": NOW + timedelta(days=1),
                "challenge_id": challenge_id,
                "reward_definition_id": uuid.uuid4(),
                "version": 1,
                "published_at": NOW,
            },
        )
    engine.dispose()
    return event_id


def give_cards(engines, player_id):
    """Three Common creatures and two Common power cards, owned as a starter set."""
    rows = [definition() for _ in range(3)] + [definition(kind="power_card") for _ in range(2)]
    copies = [
        {
            "id": uuid.uuid4(),
            "player_id": player_id,
            "definition_id": row["id"],
            "source_type": "starter",
            "source_id": player_id,
            "acquired_at": NOW,
        }
        for row in rows
    ]
    with engines["cards"].begin() as conn:
        conn.execute(sa.insert(cards_orm.card_definitions), rows)
        conn.execute(sa.insert(cards_orm.owned_cards), copies)
        conn.execute(
            sa.insert(cards_orm.starter_grants).values(
                player_id=player_id, affinity="Wit", granted_at=NOW
            )
        )
    return [str(c["id"]) for c in copies]


def forfeited_cpu_match(rpc, engines, battle_catalogue, player_id):
    """A real CPU match with a deck of the player's, forfeited: the match, its action log
    and the MatchFinished that reaches accounts."""
    copies = [
        {
            "id": uuid.uuid4(),
            "player_id": player_id,
            "definition_id": battle_catalogue["player"][name]["id"],
            "source_type": "reward",
            "source_id": uuid.uuid4(),
            "acquired_at": NOW,
        }
        for name in PLAYER_CARDS
    ]
    with engines["cards"].begin() as conn:
        conn.execute(sa.insert(cards_orm.owned_cards), copies)
    deck = rpc.cards.create_deck(
        player_id=str(player_id), name="Battle", cards=[str(c["id"]) for c in copies]
    )
    view = rpc.battle.start_match(player_id=str(player_id), deck_id=deck["id"])
    rpc.battle.forfeit(
        player_id=str(player_id), match_id=view["id"], expected_version=view["version"]
    )


def cpu_match(engines, player_id):
    """A finished CPU match with its action log, as the battle service stored one before
    migration 0004 (no seats), and the MatchFinished v1 it published (rows written
    directly, where the battle service is down)."""
    match_id = uuid.uuid4()
    state = {"player": {"id": str(player_id), "deck": "..."}, "cpu": {}}
    with engines["battle"].begin() as conn:
        conn.execute(
            sa.insert(battle_orm.matches).values(
                id=match_id,
                player_id=player_id,
                deck_id=uuid.uuid4(),
                deck_version=1,
                status="finished",
                state=state,
                initial_state=state,
                seed=7,
                version=2,
                outcome="victory",
                deadline=None,
                created_at=NOW,
                updated_at=NOW,
                finished_at=NOW,
            )
        )
        conn.execute(
            sa.insert(battle_orm.match_actions),
            [
                {
                    "match_id": match_id,
                    "seq": seq,
                    "side": "player",
                    "action": {"kind": "move"},
                    "at": NOW,
                    "idempotency_key": f"k{seq}",
                    "response": {"player": str(player_id)},
                    "events": [],
                }
                for seq in (1, 2)
            ],
        )
    finished = new_event(
        MATCH_FINISHED_V1,
        {
            "match_id": match_id,
            "player_id": player_id,
            "mode": "cpu",
            "outcome": "victory",
            "finished_at": NOW,
        },
        occurred_at=NOW,
    )
    with engines["battle"].begin() as conn:
        conn.execute(
            sa.insert(battle_orm.plumbing.outbox).values(
                event_id=finished.event_id,
                exchange=finished.contract.exchange,
                routing_key=finished.contract.name,
                payload=finished.to_message(),
                created_at=NOW,
                published_at=NOW,
            )
        )
    return finished


def authored_question(rpc, sub):
    """A draft written and submitted by the player as an Author: content and audit."""
    body = {
        "prompt": f"Which planet is red? {uuid.uuid4().hex[:6]}",
        "choices": [
            {"text": "Mars", "correct": True},
            {"text": "Venus"},
            {"text": "Jupiter"},
            {"text": "Mercury"},
        ],
        "difficulty": 1,
        "explanation": "Iron oxide.",
    }
    draft = rpc.authoring.create(actor=sub, kind="question", game="quest", body=body)
    return rpc.authoring.transition(
        actor=sub, content_id=draft["id"], to="in_review", expected_version=draft["version"]
    )


def player_everywhere(rpc, settings, engines, battle_catalogue, sub):
    """Register ``sub`` and give it data in every service; returns (player id, content id)."""
    player_id = uuid.UUID(rpc.accounts.me(sub=sub)["id"])
    wait_for(lambda: _count(engines["cards"], cards_orm.collections, player_id))
    # cards: owned copies, the starter grant, a deck (over RPC)
    copies = give_cards(engines, player_id)
    rpc.cards.create_deck(player_id=str(player_id), name="Morning walk", cards=copies)
    # cards' economy: a currency, unopened packs, a fair seed (the reward roll below rolls
    # on it too)
    rpc.cards.grant(
        player_id=str(player_id),
        game="chronovore",
        currency="gold",
        amount=10,
        reason="test",
        idempotency_key=f"gold-{player_id}",
    )
    rpc.cards.grant_packs(
        player_id=str(player_id),
        game="chronovore",
        kind="core",
        quantity=2,
        source_type="starter",
        source_id=str(player_id),
        idempotency_key=f"packs-{player_id}",
    )
    rpc.cards.fairness(player_id=str(player_id))
    # challenge: a location claim and a completed attempt with answers; its completion
    # reaches cards (a reward roll) and accounts (progression points) as events
    event_id = quest_event(settings)
    view = rpc.challenge.start_attempt(
        player_id=str(player_id), event_id=str(event_id), location=location()
    )["attempt"]
    for q in view["questions"]:
        rpc.challenge.answer(
            player_id=str(player_id),
            attempt_id=view["id"],
            index=q["index"],
            submission={"choice": right_choice(view, q["index"])},
        )
    wait_for(lambda: _count(engines["cards"], cards_orm.reward_grants, player_id))
    # battle: a CPU match and its history; accounts: the match's entry
    forfeited_cpu_match(rpc, engines, battle_catalogue, player_id)
    wait_for(lambda: len(rpc.accounts.progression(player_id=str(player_id))["entries"]) == 2)
    # battle: the TerraKard arena's row (tickets, trophies, ...)
    assert rpc.battle.terrakard_profile(player_id=str(player_id))["tickets"] > 0
    # authoring: authored content and its audit entries; a batch approval's retry answer
    content = authored_question(rpc, sub)
    items = [{"content_id": content["id"], "expected_version": content["version"]}]
    rpc.authoring.approve_batch(actor=sub, items=items, idempotency_key=f"review-{sub}")
    return player_id, content["id"]


def _count(engine, table, player_id):
    with engine.connect() as conn:
        return conn.execute(
            sa.select(sa.func.count()).select_from(table).where(table.c.player_id == player_id)
        ).scalar_one()


# -- the scan ------------------------------------------------------------------------------


TEXT_TYPES = ("text", "character varying", "character", "uuid", "jsonb", "json")


def occurrences(engines, needles):
    """Every (service, table, column, needle) where a text, uuid or JSON column of any
    table of any service database contains one of ``needles``."""
    found = []
    for service, engine in engines.items():
        with engine.connect() as conn:
            columns = conn.execute(
                sa.text(
                    "SELECT c.table_name, c.column_name FROM information_schema.columns c "
                    "JOIN information_schema.tables t "
                    "ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
                    "WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' "
                    "AND c.data_type = ANY(:types)"
                ),
                {"types": list(TEXT_TYPES)},
            ).all()
            assert columns, service
            for table, column in columns:
                # One query per column, whatever the number of needles: the race tests
                # look for dozens of players at once.
                values = conn.execute(
                    sa.text(
                        f'SELECT DISTINCT "{column}"::text FROM "{table}" '
                        f'WHERE "{column}"::text ~ :pattern'
                    ),
                    {"pattern": "|".join(re.escape(needle) for needle in needles)},
                ).scalars()
                hit = {needle for value in values for needle in needles if needle in value}
                found.extend((service, table, column, needle) for needle in sorted(hit))
    return found


# -- the tests -------------------------------------------------------------------------------


def test_a_deleted_player_leaves_nothing_but_the_receipt_and_the_digest(
    start_platform, rpc, settings, engines, battle_catalogue, auth0, clock
):
    start_platform()
    sub = random_sub("deleted")
    player_id, content_id = player_everywhere(rpc, settings, engines, battle_catalogue, sub)
    needles = [str(player_id), player_id.hex, sub]
    before = occurrences(engines, needles)
    assert {service for service, *_ in before} == set(SERVICE_NAMES), before

    started = request(rpc, sub, clock)
    assert started["created"] is True
    deletion_id = started["deletion"]["id"]
    done = completed(rpc, sub)

    assert done["id"] == deletion_id and done["identity"] == "deleted"
    assert set(done["services"].values()) == {"purged"}
    assert auth0.deleted == [sub]
    assert occurrences(engines, needles) == []
    # What remains: the receipt (no id, no subject) and the digest (not the subject).
    with engines["accounts"].connect() as conn:
        receipt = conn.execute(
            sa.select(accounts_orm.deletion_receipts).where(
                accounts_orm.deletion_receipts.c.id == uuid.UUID(deletion_id)
            )
        ).one()
        digest = conn.execute(
            sa.select(accounts_orm.deleted_identities).where(
                accounts_orm.deleted_identities.c.receipt_id == receipt.id
            )
        ).one()
    assert receipt.expires_at == clock.now() + RECEIPT_RETENTION
    assert digest.expires_at == clock.now() + DIGEST_RETENTION
    assert sub not in digest.digest and len(digest.digest) == 64
    # Authored history stays, by a fresh actor shown as "Deleted author".
    content = rpc.authoring.get(content_id=content_id)
    audit = rpc.authoring.audit(content_id=content_id)
    actors = {content["createdBy"], content["submittedBy"], *(e["actor"] for e in audit)}
    assert len(actors) == 1 and len(audit) == 2
    assert actors == {DELETED_AUTHOR}  # the API shows the label, never an id


def test_an_old_token_cannot_come_back_for_30_days_then_registers_a_new_player(
    start_platform, rpc, settings, engines, clock
):
    containers = start_platform()
    sub = random_sub("returning")
    old_id = rpc.accounts.me(sub=sub)["id"]
    receipt_id = uuid.UUID(request(rpc, sub, clock)["deletion"]["id"])
    completed(rpc, sub)

    with pytest.raises(Forbidden) as refused:
        rpc.accounts.me(sub=sub)
    assert refused.value.code == "account_deleted"

    clock.advance(seconds=DIGEST_RETENTION.total_seconds() - 1)
    with pytest.raises(Forbidden):
        rpc.accounts.me(sub=sub)

    clock.advance(seconds=1)
    again = rpc.accounts.me(sub=sub)  # the expired digest no longer counts, swept or not
    assert again["registered_now"] is True and again["id"] != old_id
    assert again["points"] == 0 and again["status"] == "active"
    progression = rpc.accounts.progression(player_id=again["id"])
    assert progression["entries"] == []
    # The sweeper purges the expired digest; the receipt outlives it, then goes too.
    digests, receipts = accounts_orm.deleted_identities, accounts_orm.deletion_receipts
    sweep(containers["accounts"])
    assert expired(engines, digests, clock) == 0
    assert receipt_exists(engines, receipt_id)
    clock.set(NOW + RECEIPT_RETENTION)
    sweep(containers["accounts"])
    assert expired(engines, receipts, clock) == 0
    assert not receipt_exists(engines, receipt_id)


def expired(engines, table, clock):
    with engines["accounts"].connect() as conn:
        return conn.execute(
            sa.select(sa.func.count()).select_from(table).where(table.c.expires_at <= clock.now())
        ).scalar_one()


def receipt_exists(engines, receipt_id):
    receipts = accounts_orm.deletion_receipts
    with engines["accounts"].connect() as conn:
        found = conn.execute(sa.select(receipts.c.id).where(receipts.c.id == receipt_id))
        return found.first() is not None

"""TerraKard on a fresh install, with nothing but what the install itself publishes:
databases of their own, migrated and seeded by the Kubernetes Job's very command
(`deckyard migrate --seed catalogue`; compose's adds the demo, `deckyard run` does the
same before starting), then every service and the gateway. A new player claims the
starting collection, every pack kind the game offers opens, knowledge questions of every
difficulty are published, and running the seed again changes nothing (issue 30)."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from nameko.standalone.rpc import ClusterRpcProxy
from sqlalchemy import create_engine, func, select

from deckyard.api_client import ApiClient
from games.terrakard.articles import parse_line
from games.terrakard.content import GAME, Difficulty
from services.authoring.orm import content, content_audit, plumbing
from shared.config import SERVICE_NAMES
from shared.migrations import drop_database
from shared.testing import own_vhost
from tests.conftest import http_port
from tests.e2e.terrakard.conftest import UNLIMITED
from tests.helpers import wait_for
from tests.random_refs import random_sub, random_suffix

pytestmark = pytest.mark.e2e

DECKYARD = [sys.executable, "-m", "deckyard.cli"]
SAMPLE = Path(__file__).parents[3] / "services/authoring/seed/terrakard_articles.sample.jsonl"
PROPAGATION_SECONDS = 120  # the seed's ~1,000 events reach cards: a bound, not a speed claim


@pytest.fixture
def fresh(settings):
    """Settings of an install of its own: new databases, a vhost and RPC exchange apart."""
    suffix = random_suffix()
    with own_vhost(settings.amqp_uri) as amqp_uri:
        own = dataclasses.replace(
            settings,
            database_prefix=f"tkfresh_{suffix}",
            amqp_uri=amqp_uri,
            rpc_exchange=f"tkfresh-{suffix}",
        )
        try:
            yield own
        finally:
            for service in SERVICE_NAMES:
                drop_database(own, service)


def deckyard(settings, *args: str) -> str:
    """A `deckyard` command against ``settings``' servers, as an operator runs it."""
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "AMQP_URI": settings.amqp_uri,
        "DATABASE_PREFIX": settings.database_prefix,
        "RPC_EXCHANGE": settings.rpc_exchange,
    }
    done = subprocess.run([*DECKYARD, *args], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture
def installed(fresh, start_service, start_gateway):
    """The fresh install, seeded by the Job's command, every service and the gateway up."""
    seeded = deckyard(fresh, "migrate", "--seed", "catalogue")
    gateway = start_gateway(fresh, MAX_BODY_BYTES=fresh.max_body_bytes, **UNLIMITED)
    containers = [start_service(name, settings_override=fresh) for name in SERVICE_NAMES]
    api = ApiClient(f"http://127.0.0.1:{http_port(gateway.wait())}", fresh)
    yield api, seeded
    # Stopped before ``fresh`` drops their databases (container_factory's own teardown
    # comes after every other fixture's).
    for container in containers:
        container.kill()
    gateway.stop()


class Player:
    def __init__(self, api: ApiClient, roles: tuple[str, ...] = ()) -> None:
        self.api = api
        self.token = api.token(random_sub("fresh"), roles=roles)

    def call(self, method: str, path: str, **kwargs: Any):
        headers = {"Authorization": f"Bearer {self.token}", **kwargs.pop("headers", {})}
        return self.api.request(method, path, headers=headers, **kwargs)

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.call(method, path, **kwargs)
        assert response.ok, (method, path, response.status_code, response.text)
        return response.json()


def test_a_new_player_claims_the_starting_collection_and_opens_every_pack_kind(installed, fresh):
    api, _ = installed
    player = Player(api)
    player_id = player.ok("GET", "/me")["id"]

    answers = []

    def claimed() -> bool:  # the seed's cards reach the cards service through events
        answers.append(player.call("POST", "/terrakard/collection/start"))
        return answers[-1].status_code != 503

    wait_for(claimed, timeout=PROPAGATION_SECONDS, step=0.5)
    claim = answers[-1]
    assert claim.status_code == 200, claim.text  # never 503 starter_cards_unavailable
    rarities = Counter(card["rarity"] for card in claim.json()["cards"])
    assert rarities == {"Common": 8, "Uncommon": 2}

    kinds = player.ok("GET", "/terrakard/packs/odds")["items"]
    assert {k["kind"] for k in kinds} == {"gold", "silver", "bronze", "copper", "rampart"}
    with ClusterRpcProxy(fresh.nameko_config(), timeout=30) as rpc:
        for kind in kinds:  # as battle grants a victory pack, and the shop a Rampart Pack
            rpc.cards.grant_packs(
                player_id=player_id,
                game=GAME,
                kind=kind["kind"],
                quantity=1,
                source_type="attack",
                source_id=str(uuid.uuid4()),
                idempotency_key=str(uuid.uuid4()),
            )
    packs = player.ok("GET", "/terrakard/packs")["packs"]
    assert sorted(p["kind"] for p in packs) == sorted(k["kind"] for k in kinds)
    for pack in packs:
        opened = player.call(
            "POST",
            f"/terrakard/packs/{pack['id']}/open",
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        assert opened.status_code == 200, (pack["kind"], opened.text)  # pack_pool_incomplete
        cards = next(k["cards"] for k in kinds if k["kind"] == pack["kind"])
        assert len(opened.json()["cards"]) == cards


def published_questions(author: Player) -> list[dict[str, Any]]:
    """Every published knowledge question, as an Author lists them (a page at a time)."""
    found: list[dict[str, Any]] = []
    query = {"kind": "knowledge_question", "state": "published", "limit": 100}
    while True:
        page = author.ok("GET", "/authoring/content", params=query)
        found += page["items"]
        if page["next"] is None:
            return found
        query["cursor"] = page["next"]


def authoring_state(settings) -> tuple[Any, ...]:
    engine = create_engine(settings.database_url_for("authoring"))
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(content.c.id, content.c.state, content.c.version).order_by(content.c.id)
            ).all()
            audit = connection.execute(select(func.count()).select_from(content_audit)).scalar()
            outbox = connection.execute(select(func.max(plumbing.outbox.c.seq))).scalar()
    finally:
        engine.dispose()
    return [tuple(r) for r in rows], audit, outbox


def test_questions_of_every_difficulty_are_published_and_a_second_seed_changes_nothing(
    installed, fresh
):
    api, seeded = installed
    author = Player(api, roles=("author",))

    questions = published_questions(author)
    assert {q["body"]["difficulty"] for q in questions} == {str(d) for d in Difficulty}
    assert {q["game"] for q in questions} == {GAME}
    sample = [a for a in map(parse_line, SAMPLE.read_text(encoding="utf-8").splitlines()) if a]
    created = int(re.search(r"seeded: (\d+) created", seeded).group(1))
    assert created > len(sample) + sum(1 for a in sample if a.facts)  # TerraKard's, and more

    before = authoring_state(fresh)
    again = deckyard(fresh, "seed", "--no-demo")
    assert "seeded: 0 created, 0 published" in again
    assert authoring_state(fresh) == before

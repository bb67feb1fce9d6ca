"""Someone to play on day one (issue 30, item 2): a demo install (`deckyard migrate
--seed demo`, as compose runs it; `deckyard run` seeds the same) offers its demo
defenders in the arena, so a new player who finishes the tutorial attacks one to the
end and wins a pack; the catalogue seed alone (the Kubernetes Job's, a production
install) writes none, and seeding again changes nothing. Each install has databases of
its own (tests/e2e/terrakard/test_fresh_install.py's ``fresh``): the demo defenders
never reach the session's shared database, where other tests count the targets."""

from __future__ import annotations

import itertools
import uuid
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from deckyard.api_client import ApiClient
from games.terrakard.demo_defenders import DEMO_DEFENDERS, DEMO_PLAYER_IDS, by_key
from services.battle.orm import terrakard_arena
from shared.config import SERVICE_NAMES
from tests.conftest import http_port
from tests.e2e.terrakard.conftest import UNLIMITED
from tests.e2e.terrakard.test_fresh_install import PROPAGATION_SECONDS, Player, deckyard, fresh
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

__all__ = ["fresh"]

LEVEL_ONE_ATTACK_BUDGET = 12  # games/terrakard/config.py, LEVEL_BUDGETS
VICTORIES = ("three_stars", "two_stars", "one_star")


def demo_rows(settings) -> dict[uuid.UUID, tuple[Any, ...]]:
    """The demo defenders' rows in battle's arena, as they are."""
    engine = create_engine(settings.database_url_for("battle"))
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(terrakard_arena).where(terrakard_arena.c.player_id.in_(DEMO_PLAYER_IDS))
            ).all()
    finally:
        engine.dispose()
    return {row.player_id: tuple(row) for row in rows}


def test_the_catalogue_seed_has_no_demo_defender_and_the_demo_seed_adds_each_once(fresh):
    catalogue = deckyard(fresh, "migrate", "--seed", "catalogue")
    assert "demo defenders" not in catalogue
    assert demo_rows(fresh) == {}

    assert "demo defenders in the TerraKard arena: 6" in deckyard(fresh, "seed")
    rows = demo_rows(fresh)
    assert len(rows) == len(DEMO_DEFENDERS)
    for defender in DEMO_DEFENDERS:
        row = terrakard_arena.c
        found = dict(zip([c.name for c in row], rows[defender.player_id], strict=True))
        assert (found["level"], found["trophies"]) == (defender.level, defender.trophies)
        assert found["tutorial_done_at"] is not None and found["shield_until"] is None

    deckyard(fresh, "seed")  # again: the same rows, nothing added
    assert demo_rows(fresh) == rows
    deckyard(fresh, "seed", "--no-demo")
    assert demo_rows(fresh) == rows


@pytest.fixture
def demo_install(fresh, start_service, start_gateway):
    """A fresh install seeded as compose seeds it (the demo content too), every service
    and the gateway up."""
    deckyard(fresh, "migrate", "--seed", "demo")
    gateway = start_gateway(fresh, MAX_BODY_BYTES=fresh.max_body_bytes, **UNLIMITED)
    containers = [start_service(name, settings_override=fresh) for name in SERVICE_NAMES]
    yield ApiClient(f"http://127.0.0.1:{http_port(gateway.wait())}", fresh)
    for container in containers:
        container.kill()
    gateway.stop()


def strongest_deck(cards: list[dict[str, Any]]) -> list[str]:
    """The eight copies of most ATK + DEF within level 1's budget: a player's best try."""
    legal = (
        combo
        for combo in itertools.combinations(cards, 8)
        if sum(c["cost"] for c in combo) <= LEVEL_ONE_ATTACK_BUDGET
    )
    best = max(legal, key=lambda combo: sum(c["atk"] + c["def"] for c in combo))
    return [c["id"] for c in best]


def play_to_the_end(player: Player, view: dict[str, Any]) -> dict[str, Any]:
    """Begin, then each round the unused card of most ATK; a question skipped."""
    for _ in range(30):
        if view["status"] == "finished":
            return view
        legal = view["legalActions"]
        kinds = {a["kind"] for a in legal}
        if "begin" in kinds:
            action = {"kind": "begin"}
        elif "skip" in kinds:
            action = {"kind": "skip"}
        else:
            atk = {c["index"]: c["atk"] for c in view["deck"]}
            plays = [a for a in legal if a["kind"] == "play"]
            action = max(plays, key=lambda a: atk[a["card"]])
        body = {"expectedVersion": view["version"], "action": action}
        view = player.ok("POST", f"/terrakard/attacks/{view['id']}/actions", json=body)
    raise AssertionError("the attack did not end in 30 actions")


def test_a_new_player_finishes_the_tutorial_then_beats_a_demo_defender_and_opens_the_pack(
    demo_install, fresh
):
    player = Player(demo_install)
    answers = []

    def claimed() -> bool:  # the seed's cards reach the cards service through events
        answers.append(player.call("POST", "/terrakard/collection/start"))
        return answers[-1].status_code == 200

    wait_for(claimed, timeout=PROPAGATION_SECONDS, step=0.5)
    cards = answers[-1].json()["cards"]
    deck = player.ok(
        "POST", "/terrakard/decks", json={"name": "First", "cards": strongest_deck(cards)}
    )
    assert deck["legal"]

    tutorial = player.call("POST", "/terrakard/tutorial", json={"deckId": deck["id"]})
    assert tutorial.status_code == 201, tutorial.text
    assert play_to_the_end(player, tutorial.json())["status"] == "finished"

    arena = player.ok("GET", "/terrakard/arena")
    assert arena["level"] == 1 and arena["empty"] is None
    offered = arena["items"]
    assert offered and all(t["demo"] and t["pseudonym"].endswith("(demo)") for t in offered)
    assert {t["level"] for t in offered} <= {1, 2, 3}  # within 2 levels of the player's
    quill = by_key("quill")
    assert quill is not None
    first = offered[0]  # the closest in trophies to the player's 0
    assert (first["pseudonym"], first["trophies"]) == (quill.display_name, quill.trophies)
    assert not first["automatic"]

    started = player.call(
        "POST", "/terrakard/attacks", json={"deckId": deck["id"], "targetId": first["targetId"]}
    )
    assert started.status_code == 201, started.text
    assert started.json()["reconnaissance"]["pseudonym"] == quill.display_name
    ended = play_to_the_end(player, started.json())
    # Not luck: the terrain is the attack's only draw, and this deck (in the order the
    # collection lists it, by name) played so beats Quill on every terrain; Quill is
    # tuned so (games/terrakard/demo_defenders.py), and played well it is won 55-75%.
    assert ended["outcome"] in VICTORIES, ended["outcome"]

    # The victory pack reaches cards (at once, or by the sweep), and it opens.
    packs = wait_for(lambda: player.ok("GET", "/terrakard/packs")["packs"], timeout=60)
    assert {p["kind"] for p in packs} <= {"gold", "silver", "bronze"}  # a saved plan's: full
    opened = player.call(
        "POST",
        f"/terrakard/packs/{packs[0]['id']}/open",
        headers={"Idempotency-Key": str(uuid.uuid4())},
    )
    assert opened.status_code == 200, opened.text

    # Quill keeps its trophies and gets no shield; the player attacked it: not offered
    # again for a while, the other demo defenders still are.
    again = player.ok("GET", "/terrakard/arena")["items"]
    assert quill.display_name not in {t["pseudonym"] for t in again} and again
    row = demo_rows(fresh)[quill.player_id]
    found = dict(zip([c.name for c in terrakard_arena.c], row, strict=True))
    assert found["trophies"] == quill.trophies and found["shield_until"] is None

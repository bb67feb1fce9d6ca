"""Provably fair rolls through the gateway (docs/fairness.md): the active server seed is
never answered before its rotation; after it, the export verifies offline."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from deckyard.verify import rolls_of, verify_file
from games.kit.fair import seed_hash, verify_history
from services.cards import orm
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.economy.support import GAME, Player, grant_packs, key

pytestmark = pytest.mark.e2e


@pytest.fixture
def cards_db(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


def active_seed(engine, player_id: str) -> str:
    with engine.connect() as conn:
        return conn.execute(
            sa.select(orm.fair_seeds.c.server_seed).where(
                orm.fair_seeds.c.player_id == player_id,
                orm.fair_seeds.c.revealed_at.is_(None),
            )
        ).scalar_one()


def assert_never_answered(player: Player, secret: str) -> None:
    leaked = [text for text in player.answers if secret in text]
    assert not leaked, leaked


def everything_a_player_reads(player: Player) -> None:
    for path in (
        "/me/fairness",
        "/me/fairness/rolls",
        "/me/fairness/export",
        f"/{GAME}/packs",
        f"/{GAME}/wallet",
        f"/{GAME}/wallet/history",
        "/me",
    ):
        player.ok("GET", path)


def test_rotate_then_export_verifies_and_the_active_seed_is_never_answered(
    api, rpc, core_set, cards_db, tmp_path
):
    player = Player(api)
    state = player.ok("GET", "/me/fairness")
    assert (len(state["serverSeedHash"]), state["nonce"]) == (64, 0)
    assert_problem(
        player.call("PUT", "/me/fairness/client-seed", {"clientSeed": "no:colons"}),
        422,
        "invalid_client_seed",
    )
    state = player.ok("PUT", "/me/fairness/client-seed", {"clientSeed": "my-client-seed"})
    assert state["clientSeed"] == "my-client-seed"
    for pack in grant_packs(rpc, player.id, 3):
        player.ok("POST", f"/{GAME}/packs/{pack}/open", key=key())
    everything_a_player_reads(player)
    first_seed = active_seed(cards_db, player.id)
    assert seed_hash(bytes.fromhex(first_seed)) == state["serverSeedHash"]
    assert_never_answered(player, first_seed)

    pending = player.ok("GET", "/me/fairness/export")
    assert [r["nonce"] for r in pending["items"]] == [2, 1, 0] and pending["next"] is None
    assert {v.status for v in verify_history(rolls_of(pending))} == {"pending"}
    page = player.ok("GET", "/me/fairness/rolls?limit=2")
    assert [r["nonce"] for r in page["items"]] == [2, 1]
    rest = player.ok("GET", f"/me/fairness/rolls?limit=2&cursor={page['next']}")
    assert [r["nonce"] for r in rest["items"]] == [0] and rest["next"] is None

    rotated = player.ok("POST", "/me/fairness/rotate")
    assert rotated["revealed"]["serverSeed"] == first_seed
    assert rotated["revealed"]["rolls"] == 3
    assert rotated["active"]["nonce"] == 0
    assert rotated["active"]["clientSeed"] == "my-client-seed"
    second_seed = active_seed(cards_db, player.id)
    [pack] = grant_packs(rpc, player.id)
    player.ok("POST", f"/{GAME}/packs/{pack}/open", key=key())
    everything_a_player_reads(player)
    assert_never_answered(player, second_seed)

    export = player.call("GET", "/me/fairness/export")
    assert "attachment" in export.headers["Content-Disposition"]
    history = export.json()
    verdicts = verify_history(rolls_of(history))
    assert [v.status for v in verdicts] == ["pending", "ok", "ok", "ok"]
    path = tmp_path / "rolls.json"
    path.write_text(export.text, encoding="utf-8")
    with open(tmp_path / "out.txt", "w") as out:
        assert verify_file(path, out=out) == 0

    # A tampered outcome fails, with a sentence saying so.
    draw = history["items"][1]["draws"][0]
    draw["outcome"] = next(o for o in draw["options"] if o != draw["outcome"])
    path.write_text(json.dumps(history), encoding="utf-8")
    with open(tmp_path / "out.txt", "w") as out:
        assert verify_file(path, out=out) == 1
    assert "was altered" in (tmp_path / "out.txt").read_text()

"""Battle migration 0004 carries existing matches over: each becomes a Quest CPU match with
a player seat and a CPU seat, and the service reads, plays and finishes it as before.

The rows before the upgrade are written as the release before 0004 wrote them (its
columns, a real engine state, its action log); so is a row written after the upgrade by
a pod of that release still running during the rolling update.
"""

import uuid
from dataclasses import replace
from datetime import timedelta
from functools import partial

import pytest
import sqlalchemy as sa

from games.quest import QUEST, Side, new_match
from games.quest.cpu import CPU_DECK, cpu_action
from services.battle import handlers
from services.battle.games import quest
from services.battle.orm import plumbing
from services.battle.purge import purge_player
from services.battle.repository import unit_of_work
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.errors import Conflict
from shared.migrations import drop_database, upgrade
from shared.randomness import SeededRandomSource
from tests.random_refs import random_suffix
from tests.unit.battle.support import T0, FakeCards

pytestmark = pytest.mark.integration

MATCH = """INSERT INTO matches (id, player_id, deck_id, deck_version, status, state,
    initial_state, seed, version, outcome, deadline, created_at, updated_at, finished_at)
    VALUES (:id, :player_id, :deck_id, 3, :status, :state, :initial, :seed, :version,
    :outcome, :deadline, :at, :at, :finished_at)"""
ACTION = """INSERT INTO match_actions (match_id, seq, side, action, at, idempotency_key,
    response, events) VALUES (:match_id, :seq, :side, :action, :at, NULL, NULL, :events)"""


@pytest.fixture
def own(settings):
    own = replace(settings, database_prefix=f"{settings.database_prefix}_m{random_suffix()}")
    yield own
    drop_database(own, "battle")


def old_match(conn, player_id, forfeited=False, seed=7):
    """A Quest CPU match as the previous release stored it: started (the CPU selected),
    and forfeited by the player if asked -> (match id, deck id)."""
    cards = FakeCards()
    player = quest.player_deck(cards.deck_for_match("p", "d")["cards"])
    cpu = quest.cpu_deck(
        CPU_DECK,
        cards.active_definitions_named("quest", "creature", list(CPU_DECK.creatures)),
        cards.active_definitions_named("quest", "power_card", list(CPU_DECK.power_cards)),
    )
    initial = new_match(player, cpu, seed, T0)
    log = [(Side.CPU, cpu_action(initial, Side.CPU))]
    state, _ = QUEST.apply(initial, "cpu", log[0][1], T0)
    if forfeited:
        log.append((Side.PLAYER, QUEST.action_from_json({"kind": "forfeit"})))
        state, _ = QUEST.apply(state, "player", log[1][1], T0)
    match_id, deck_id = uuid.uuid4(), uuid.uuid4()
    conn.execute(
        sa.text(MATCH).bindparams(
            sa.bindparam("state", type_=sa.JSON), sa.bindparam("initial", type_=sa.JSON)
        ),
        {
            "id": match_id,
            "player_id": player_id,
            "deck_id": deck_id,
            "status": "finished" if forfeited else "active",
            "state": state.to_dict(),
            "initial": initial.to_dict(),
            "seed": seed,
            "version": state.version,
            "outcome": "forfeit" if forfeited else None,
            "deadline": None,
            "at": T0,
            "finished_at": T0 if forfeited else None,
        },
    )
    for seq, (side, action) in enumerate(log, start=1):
        conn.execute(
            sa.text(ACTION).bindparams(
                sa.bindparam("action", type_=sa.JSON), sa.bindparam("events", type_=sa.JSON)
            ),
            {
                "match_id": match_id,
                "seq": seq,
                "side": str(side),
                "action": action.to_dict(),
                "at": T0,
                "events": [],
            },
        )
    return match_id, deck_id


def seats(engine):
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT match_id, seat, kind, player_id, ref_id, ref_version, result, game,"
                " mode, one_active FROM match_seats ORDER BY match_id, seat"
            )
        ).all()
    return {(r.match_id, r.seat): tuple(r)[2:] for r in rows}


def test_existing_matches_get_their_game_mode_and_seats_and_play_on(own):
    upgrade(own, "battle", "0003")
    engine = make_engine(own.database_url_for("battle"), pool_size=2)
    active_player, finished_player = uuid.uuid4(), uuid.uuid4()
    with engine.begin() as conn:
        active, active_deck = old_match(conn, active_player)
        finished, finished_deck = old_match(conn, finished_player, forfeited=True, seed=8)

    upgrade(own, "battle")

    with engine.connect() as conn:
        kinds = dict(conn.execute(sa.text("SELECT id, (game, mode)::text FROM matches")).all())
    assert kinds == {active: "(quest,cpu)", finished: "(quest,cpu)"}
    assert seats(engine) == {
        (active, "cpu"): ("cpu", None, None, None, None, "quest", "cpu", False),
        (active, "player"): (
            *("player", active_player, active_deck, 3, None),
            *("quest", "cpu", True),
        ),
        (finished, "cpu"): ("cpu", None, None, None, "victory", "quest", "cpu", False),
        (finished, "player"): (
            *("player", finished_player, finished_deck, 3, "forfeit"),
            *("quest", "cpu", False),
        ),
    }

    # The service reads both, keeps the one-active rule, and finishes the active one.
    db = Database(engine, plumbing, lambda: T0)
    clock = FixedClock(T0 + timedelta(minutes=1))
    with unit_of_work(db) as uow:
        done = handlers.get_match(finished_player, finished, uow, clock)
        assert (done["status"], done["outcome"], done["deck_id"]) == (
            "finished",
            "forfeit",
            str(finished_deck),
        )
        seen = handlers.active_match(active_player, uow, clock)
    assert (seen["id"], seen["version"], seen["phase"]) == (str(active), 1, "initial_selection")
    with pytest.raises(Conflict) as caught:
        handlers.start_match(
            handlers.StartMatch(active_player, uuid.uuid4()),
            FakeCards(),
            partial(unit_of_work, db),
            clock,
            SeededRandomSource(1),
        )
    assert caught.value.details == {"match_id": str(active)}
    with unit_of_work(db) as uow:
        cmd = handlers.Act(active_player, active, 1, {"kind": "select_creature", "index": 0})
        version = handlers.act(cmd, uow, clock)["version"]
    with unit_of_work(db) as uow:
        cmd = handlers.Act(active_player, active, version, {"kind": "forfeit"})
        view = handlers.act(cmd, uow, clock)
    assert (view["status"], view["outcome"]) == ("finished", "forfeit")
    assert seats(engine)[(active, "player")][4:] == ("forfeit", "quest", "cpu", False)
    with engine.connect() as conn:
        legacy = conn.execute(
            sa.text("SELECT outcome, player_id FROM matches WHERE id = :id"), {"id": active}
        ).one()
        [event] = conn.execute(
            sa.select(plumbing.outbox.c.payload).where(
                plumbing.outbox.c.routing_key == "MatchFinished"
            )
        ).scalars()
    assert tuple(legacy) == ("forfeit", active_player)  # the previous release can still read it
    assert (event["version"], event["data"]["game"]) == (2, "quest")
    engine.dispose()


def test_a_match_the_previous_release_starts_during_the_rollout_is_served_and_purged(own):
    upgrade(own, "battle")
    engine = make_engine(own.database_url_for("battle"), pool_size=2)
    player_id = uuid.uuid4()
    with engine.begin() as conn:
        match_id, deck_id = old_match(conn, player_id)  # no seats: that release knows none
    db = Database(engine, plumbing, lambda: T0)
    clock = FixedClock(T0)

    with unit_of_work(db) as uow:
        assert handlers.active_match(player_id, uow, clock)["deck_id"] == str(deck_id)
    with unit_of_work(db) as uow:
        cmd = handlers.Act(player_id, match_id, 1, {"kind": "select_creature", "index": 0})
        handlers.act(cmd, uow, clock)
    assert seats(engine)[(match_id, "player")][:2] == ("player", player_id)  # written on save

    with db.transaction() as tx:
        purge_player(tx.session, player_id, T0)
    with engine.connect() as conn:
        left = conn.execute(sa.text("SELECT count(*) FROM matches")).scalar_one()
    assert (left, seats(engine)) == (0, {})
    engine.dispose()

"""``deckyard verify`` on Chronovore matches across the CPU policy upgrade (docs/fairness.md,
"CPU policy versions"): a match the release before stored (its states without
``cpu_policy``) plays on with CPU policy 1 and verifies, its export of then too; a new
match records policy 2 and verifies; the policy a record names is the one checked."""

from __future__ import annotations

import io
import json
import uuid
from dataclasses import replace

from deckyard.verify import verify_file
from games.chronovore import CHRONOVORE, Settings, cpu, cpu_v1
from gateway.casing import camelize
from services.battle import handlers, host, match_seeds
from services.battle.games import chronovore
from shared.clock import FixedClock
from shared.randomness import SeededRandomSource
from tests.unit.battle import test_chronovore_host as cv
from tests.unit.battle.support import T0, FakeStore

POLICY_TAKES = "is not the one its policy takes here"


def _as_stored_before_policies(state):
    """A state as the release before CPU policy versions stored it, loaded as the
    service loads it (``ENGINES[game].from_json``)."""
    data = json.loads(json.dumps(CHRONOVORE.to_json(state)))
    del data["settings"]["cpu_policy"]
    return CHRONOVORE.from_json(data)


def _started_before_policies(seed):
    """A CPU match the release before started (its CPU played policy 1: its first row is
    logged) and stored, found by this release's handlers."""
    store, clock, player = FakeStore(), FixedClock(T0), uuid.uuid4()
    deck = chronovore.CPU_DECKS[chronovore.STANDARD]
    seats, brings = chronovore.cpu_match_setup(cv.FakeCards(), deck, player, uuid.uuid4())
    then = Settings(cpu_policy=cpu_v1.VERSION)
    match, initial, steps = host.start(
        chronovore.HOSTED, uuid.uuid4(), chronovore.CPU_MODE, seats, brings, then, seed, T0
    )
    match = match_seeds.salted(match, SeededRandomSource(seed))
    match = replace(match, state=_as_stored_before_policies(match.state))
    with store.uow() as uow:
        assert uow.matches.add_if_no_active(match, _as_stored_before_policies(initial))
        uow.matches.add_steps(match.id, steps)
        view = handlers.get_match(player, match.id, uow, clock, cv.GAME)
    return store, clock, player, view


def _export(tmp_path, store, clock, player, change=None):
    """The finished match's history as the API answers it, through ``deckyard verify``."""
    [match] = store.matches.rows.values()
    with store.uow() as uow:
        history = handlers.history(player, match.id, uow, clock, cv.GAME)
    document = camelize(json.loads(json.dumps(history)))
    if change:
        change(document["replay"]["setup"]["settings"])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    return verify_file(path, out), out.getvalue(), document


def test_a_match_started_before_cpu_policies_plays_on_with_policy_1_and_verifies(tmp_path):
    store, clock, player, view = _started_before_policies(seed=4)
    assert store.matches.rows[uuid.UUID(view["id"])].state.settings.cpu_policy == 1
    cv.play_to_the_end(store, clock, player, view)
    status, text, document = _export(tmp_path, store, clock, player)
    assert document["replay"]["setup"]["settings"]["cpuPolicy"] == cpu_v1.VERSION
    assert status == 0 and "verified" in text, text

    def exported_then(settings):  # the export of the release before: no policy named
        del settings["cpuPolicy"]

    status, text, _ = _export(tmp_path, store, clock, player, exported_then)
    assert status == 0 and "verified" in text, text

    def policy_2(settings):  # the same log checked against the policy it was not played by
        settings["cpuPolicy"] = cpu.VERSION

    status, text, _ = _export(tmp_path, store, clock, player, policy_2)
    assert status == 1 and POLICY_TAKES in text, text


def test_a_new_match_records_policy_2_and_verifies_but_not_as_policy_1(tmp_path):
    store, clock, player, view = cv.start(seed=4)
    cv.play_to_the_end(store, clock, player, view)
    status, text, document = _export(tmp_path, store, clock, player)
    assert document["replay"]["setup"]["settings"]["cpuPolicy"] == cpu.VERSION
    assert status == 0 and "verified" in text, text

    def unnamed(settings):  # read as a record of the release before: policy 1
        del settings["cpuPolicy"]

    status, text, _ = _export(tmp_path, store, clock, player, unnamed)
    assert status == 1 and POLICY_TAKES in text, text

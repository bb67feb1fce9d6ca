"""Match seeds committed from the first answer and revealed at the end (issue 22): the
commitment in every answer, the seed and salt only once finished, and the finished
match's history replayed and verified by ``games.kit.fair.verify_match`` (what
``deckyard verify`` runs), a tampered history failing with a sentence that says what."""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import replace

import pytest

from games.kit.fair import match_commitment, verify_match
from services.battle import handlers
from services.battle.host import SeatKind
from services.battle.match_seeds import REPLAYABLE, replay_view, seed_view
from tests.unit.battle import test_chronovore_host as cv
from tests.unit.battle.support import started
from tests.unit.battle.test_handlers import act, only, player_of

HEX64 = 64


def _history(store, clock, game="quest", player=None):
    match = only(store)
    with store.uow() as uow:
        return handlers.history(player or player_of(match), match.id, uow, clock, game)


def _finished_quest(seed=7, pick=0):
    store, clock, view = started(seed=seed)
    answers = [view]
    for _ in range(500):
        if view["status"] == "finished":
            break
        legal = [a for a in view["legal_actions"] if a["kind"] != "forfeit"]
        view = act(store, clock, view, legal[min(pick, len(legal) - 1)])
        answers.append(view)
        clock.advance(1)
    return store, clock, answers


def test_every_answer_of_a_running_match_shows_the_commitment_and_never_the_seed():
    store, _clock, answers = _finished_quest()
    match = only(store)
    commitment = match_commitment(match.seed, match.seed_salt)
    assert len(match.seed_salt) == HEX64
    running = [a for a in answers if a["status"] == "active"]
    assert running and answers[0]["version"] == 1  # the start answer, the CPU's move made
    for answer in running:
        assert answer["fairness"] == {"commitment": commitment, "seed": None, "salt": None}
        text = json.dumps(answer)
        assert str(match.seed) not in text and match.seed_salt not in text
    assert answers[-1]["fairness"] == {
        "commitment": commitment,
        "seed": str(match.seed),
        "salt": match.seed_salt,
    }


def test_the_commitment_is_sha256_of_the_decimal_seed_a_colon_and_the_salt():
    salt = "00" * 32
    expected = hashlib.sha256(f"12345:{salt}".encode()).hexdigest()
    assert match_commitment(12345, salt) == expected


def test_a_running_match_s_history_has_no_seed_and_no_replay():
    store, clock, _view = started()
    history = _history(store, clock)
    assert history["fairness"]["seed"] is None and history["replay"] is None


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_a_finished_quest_match_replays_from_its_seed_and_log(seed):
    store, clock, answers = _finished_quest(seed)
    history = _history(store, clock)
    verdict = verify_match(json.loads(json.dumps(history)), REPLAYABLE)
    assert (verdict.status, verdict.replayed, verdict.problems) == ("ok", True, ())
    assert history["replay"]["results"]["player"] == answers[-1]["outcome"]


def test_a_finished_chronovore_match_replays_from_its_seed_and_log():
    store, clock, player, view = cv.start(seed=4)
    end = cv.play_to_the_end(store, clock, player, view)
    history = _history(store, clock, cv.GAME, player)
    assert history["fairness"]["seed"] == str(only(store).seed)
    verdict = verify_match(json.loads(json.dumps(history)), REPLAYABLE)
    assert (verdict.status, verdict.replayed) == ("ok", True), verdict.problems
    assert history["replay"]["results"]["player"] == end["result"]


def test_a_finished_match_between_two_players_shows_its_seed_but_no_one_s_deck():
    store, clock, player, view = cv.start(seed=4)
    cv.play_to_the_end(store, clock, player, view)
    match = only(store)
    two_players = replace(
        match, seats=[replace(seat, kind=SeatKind.PLAYER) for seat in match.seats]
    )
    assert replay_view(two_players, None, []) is None
    assert seed_view(two_players)["seed"] == str(match.seed)


def _tampered(history, change):
    document = copy.deepcopy(history)
    change(document)
    return verify_match(json.loads(json.dumps(document)), REPLAYABLE)


def test_a_tampered_seed_outcome_or_cpu_action_fails_with_a_clear_message():
    store, clock, _ = _finished_quest()
    history = _history(store, clock)
    assert verify_match(history, REPLAYABLE).status == "ok"

    def seed(d):
        d["fairness"]["seed"] = str(int(d["fairness"]["seed"]) + 1)

    verdict = _tampered(history, seed)
    assert verdict.status == "failed" and "the seed was altered" in verdict.problems[0]

    def outcome(d):
        d["replay"]["results"] = {"player": "victory", "cpu": "defeat"}
        if history["replay"]["results"]["player"] == "victory":
            d["replay"]["results"] = {"player": "defeat", "cpu": "victory"}

    verdict = _tampered(history, outcome)
    assert verdict.status == "failed" and "the outcome or the log" in verdict.problems[0]

    def cpu_move(d):
        entry = next(e for e in d["replay"]["log"] if e["seat"] == "cpu")
        entry["action"] = {"kind": "select_creature", "index": (entry["action"]["index"] + 1) % 3}

    verdict = _tampered(history, cpu_move)
    assert verdict.status == "failed" and "log entry" in verdict.problems[0]


def test_a_match_started_before_salts_shows_no_commitment_and_reveals_nothing():
    store, clock, _view = started()
    match = only(store)
    store.matches.rows[match.id] = replace(match, seed_salt=None)
    history = _history(store, clock)
    assert history["fairness"] == {"commitment": None, "seed": None, "salt": None}
    assert verify_match(history, REPLAYABLE).status == "failed"


def test_a_running_match_is_pending_for_the_verifier():
    store, clock, _view = started()
    assert verify_match(_history(store, clock), REPLAYABLE).status == "pending"


def test_every_finished_match_reveals_a_different_salt():
    salts = {only(started(seed=s)[0]).seed_salt for s in (1, 2)}
    assert len(salts) == 2

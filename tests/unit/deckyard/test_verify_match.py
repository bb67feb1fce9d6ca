"""``deckyard verify`` on a finished match's history, as the API answers it (camelCase):
verified, pending while the match runs, and a tampered file failing with a sentence."""

from __future__ import annotations

import io
import json

from deckyard.verify import verify_file
from gateway.casing import camelize
from services.battle import handlers
from tests.unit.battle.support import started
from tests.unit.battle.test_handlers import only, play_to_the_end, player_of


def _export(tmp_path, store, clock, change=None):
    match = only(store)
    with store.uow() as uow:
        history = handlers.history(player_of(match), match.id, uow, clock)
    document = camelize(json.loads(json.dumps(history)))
    if change:
        change(document)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    return verify_file(path, out), out.getvalue()


def test_a_finished_match_verifies_and_a_running_one_is_pending(tmp_path):
    store, clock, view = started(seed=5)
    status, text = _export(tmp_path, store, clock)
    assert status == 0 and "pending" in text
    play_to_the_end(store, clock, view)
    status, text = _export(tmp_path, store, clock)
    assert status == 0 and "verified" in text, text


def test_a_tampered_log_or_salt_fails_with_a_clear_message(tmp_path):
    store, clock, view = started(seed=5)
    play_to_the_end(store, clock, view)

    def salt(document):
        document["fairness"]["salt"] = "0" * 64

    status, text = _export(tmp_path, store, clock, salt)
    assert status == 1 and "FAILED" in text and "the seed was altered" in text

    def drop_last(document):
        document["replay"]["log"].pop()

    status, text = _export(tmp_path, store, clock, drop_last)
    assert status == 1 and "the outcome or the log was altered" in text

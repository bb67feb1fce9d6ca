"""MatchFinished messages as producers wrote them: v2 (battle now) and v1 (battle before
migration 0004; still in outboxes and queues at an upgrade, and still read)."""

from __future__ import annotations

import uuid
from datetime import datetime

from shared.events import MATCH_FINISHED, EventContract, MatchFinishedV1, new_event

# The v1 contract as its producer held it: for building old messages only.
MATCH_FINISHED_V1 = EventContract(
    MATCH_FINISHED.name, 1, MATCH_FINISHED.source, MatchFinishedV1, MATCH_FINISHED.consumers
)


def quest_cpu_finished(player_id, outcome, match_id=None, at=None, version=2):
    """A Quest CPU match's MatchFinished, in the shape of ``version``."""
    at = at or datetime.now().astimezone()
    match_id = match_id or uuid.uuid4()
    if version == 1:
        data = {
            "match_id": match_id,
            "player_id": player_id,
            "mode": "cpu",
            "outcome": outcome,
            "finished_at": at,
        }
        return new_event(MATCH_FINISHED_V1, data, occurred_at=at)
    cpu = "defeat" if outcome == "victory" else "victory"
    seats = [
        {"seat": "player", "kind": "player", "player_id": player_id, "result": outcome},
        {"seat": "cpu", "kind": "cpu", "player_id": None, "result": cpu},
    ]
    data = {"match_id": match_id, "game": "quest", "mode": "cpu", "seats": seats,
            "finished_at": at}  # fmt: skip
    return new_event(MATCH_FINISHED, data, occurred_at=at)

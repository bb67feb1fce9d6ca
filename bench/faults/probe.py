"""After a fault: one new player through the RPC and the event paths."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from faults.config import PROBE_TIMEOUT
from faults.load import Client, FlowFailed, Player, Recorder, run_flow


@dataclass
class Probe:
    ok: bool
    text: str
    reward_s: float | None = None  # attempt completed -> its reward shown
    points_s: float | None = None  # both entries in the player's progression


def probe(
    port: int, settings: Any, event_id: str, recorder: Recorder, halt: threading.Event
) -> Probe:
    """A new player after a fault: starter, a battle forfeited, an attempt; then wait for
    the attempt's reward and both progression entries (the event paths)."""
    rng = random.Random()
    client = Client(port, "127.0.0.2", recorder, "probe")
    try:
        battler = Player(client, settings, rng, halt, think=False)
        match = run_flow("battle", battler, event_id, rng, recorder)
        quester = Player(client, settings, rng, halt, think=False)
        attempt = run_flow("attempt", quester, event_id, rng, recorder)
        completed = time.monotonic()
        reward_s = points_s = None
        deadline = completed + PROBE_TIMEOUT
        while time.monotonic() < deadline and (reward_s is None or points_s is None):
            if reward_s is None:
                _, view = quester.call("GET", f"/quest/attempts/{attempt['id']}")
                if view.get("result", {}).get("reward", {}).get("status") == "granted":
                    reward_s = time.monotonic() - completed
            if points_s is None:
                sources = set()
                for player in (battler, quester):
                    _, progression = player.call("GET", "/me/progression")
                    sources |= {e["sourceId"] for e in progression.get("entries", [])}
                if {match["id"], attempt["id"]} <= sources:
                    points_s = time.monotonic() - completed
            time.sleep(0.2)
    except FlowFailed as exc:
        return Probe(False, f"failed: {exc}")
    finally:
        client.close()
    if reward_s is None or points_s is None:
        return Probe(False, f"effects missing after {PROBE_TIMEOUT:.0f}s", reward_s, points_s)
    return Probe(
        True,
        f"starter, battle, attempt ok; reward shown {reward_s:.1f}s and points "
        f"{points_s:.1f}s after completion",
        reward_s,
        points_s,
    )

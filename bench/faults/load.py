"""The load: players on their own connections, each a flow retried as an app would."""

from __future__ import annotations

import argparse
import contextlib
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from harness import (
    HOST,
)

from deckyard.api_client import ApiClient
from faults.config import (
    AFFINITIES,
    FLOW_WEIGHTS,
    HTTP_TIMEOUT,
    MAX_ACTIONS,
    PLAY_OUT_SHARE,
    RETRY_STATUSES,
    RIGHT_ANSWER_SHARE,
    STEP_TIMEOUT,
    THINK,
)


class Client:
    """One keep-alive connection to the gateway from one loopback source address."""

    def __init__(self, port: int, source: str, recorder: Recorder, label: str) -> None:
        # The API client the e2e tests use (deckyard/api_client.py).
        self._api = ApiClient(f"http://{HOST}:{port}", timeout=HTTP_TIMEOUT, source_address=source)
        self._recorder = recorder
        self._label = label

    def request(
        self, method: str, path: str, token: str, body: Any = None
    ) -> tuple[int, Any, dict[str, str]]:
        answer = self._api.call(method, path, token, body)
        self._recorder.response(self._label, answer.status)
        return answer.status, answer.body, answer.headers

    def close(self) -> None:
        self._api.close()


class FlowFailed(Exception):
    """A step gave up: a refusal it cannot retry, or the platform did not answer in time."""


class Stopped(Exception):
    """The run is over (Ctrl-C or the end of the load's grace time)."""


@dataclass
class Recorder:
    """What the clients saw, shared by every thread."""

    started: float = field(default_factory=time.monotonic)
    wall_started: float = field(default_factory=time.time)
    responses: list[tuple[float, str, int]] = field(default_factory=list)
    flows: Counter[tuple[str, str]] = field(default_factory=Counter)
    failures: list[tuple[float, str, str]] = field(default_factory=list)
    completed_attempts: dict[str, str] = field(default_factory=dict)  # attempt -> player
    finished_matches: dict[str, str] = field(default_factory=dict)  # match -> player
    starters: dict[str, str] = field(default_factory=dict)  # player -> affinity

    def __post_init__(self) -> None:
        self.lock = threading.Lock()

    def now(self) -> float:
        return time.monotonic() - self.started

    def response(self, label: str, status: int) -> None:
        with self.lock:
            self.responses.append((self.now(), label, status))

    def flow(self, kind: str, outcome: str) -> None:
        with self.lock:
            self.flows[(kind, outcome)] += 1

    def failed(self, kind: str, reason: str) -> None:
        with self.lock:
            self.flows[(kind, "failed")] += 1
            self.failures.append((self.now(), kind, reason[:300]))


class Player:
    """One new player: a development token, a client, retries of each step."""

    def __init__(
        self,
        client: Client,
        settings: Any,
        rng: random.Random,
        halt: threading.Event,
        think: bool = True,
    ) -> None:
        from gateway.devauth import mint_token

        self.sub = f"auth0|faults-{uuid.uuid4().hex}"
        self.token = mint_token(
            self.sub,
            audience=settings.auth0_audience,
            roles_claim=settings.auth0_roles_claim,
            ttl_seconds=3600,
        )
        self.client = client
        self.rng = rng
        self.halt = halt
        self.think = think
        self.id = ""

    def call(
        self,
        method: str,
        path: str,
        body: Any | Callable[[], Any] = None,
        ok: Sequence[int] = (200, 201),
        also: Sequence[int] = (),
    ) -> tuple[int, Any]:
        """Retry while the platform is away (0, 429, 5xx) for at most STEP_TIMEOUT."""
        deadline = time.monotonic() + STEP_TIMEOUT
        pause = 0.25
        while True:
            if self.halt.is_set():
                raise Stopped
            if self.think:
                time.sleep(self.rng.uniform(*THINK))
            payload = body() if callable(body) else body
            status, data, headers = self.client.request(method, path, self.token, payload)
            if status in ok or status in also:
                return status, data
            if status not in RETRY_STATUSES or time.monotonic() > deadline:
                raise FlowFailed(f"{method} {_shape(path)} -> {status} {str(data)[:200]}")
            wait = pause
            if status == 429:
                with contextlib.suppress(ValueError):
                    wait = max(wait, float(headers.get("retry-after", "1")))
            time.sleep(min(wait, 5.0))
            pause = min(pause * 2, 2.0)

    def me(self) -> None:
        _, body = self.call("GET", "/me")
        self.id = body["id"]

    def starter(self) -> dict[str, Any]:
        affinity = self.rng.choice(AFFINITIES)
        _, grant = self.call("POST", "/quest/starter", {"affinity": affinity})
        return dict(grant)

    def attempt(self, event_id: str) -> dict[str, Any]:
        def location() -> dict[str, Any]:
            return {
                "location": {
                    "lat": CENTRE[0],
                    "lon": CENTRE[1],
                    "accuracyM": 10.0,
                    "acquiredAt": datetime.now(UTC).isoformat(),
                }
            }

        _, view = self.call("POST", f"/quest/events/{event_id}/attempt", location)
        attempt_id = view["id"]
        for question in view["questions"]:
            options = question["options"]
            right = [o for o in options if o["text"] == "right"]
            if right and self.rng.random() < RIGHT_ANSWER_SHARE:
                choice = right[0]["id"]
            else:
                choice = self.rng.choice(options)["id"]
            path = f"/quest/attempts/{attempt_id}/answers/{question['index']}"
            _, view = self.call("PUT", path, {"choice": choice})
        return dict(view)

    def battle(self, play_out: bool) -> dict[str, Any]:
        grant = self.starter()
        cards = sorted(grant["cards"], key=lambda c: (c["kind"], c["name"]))
        body = {"name": "Faults", "cards": [c["id"] for c in cards]}
        _, deck = self.call("POST", "/quest/decks", body)
        status, view = self.call("POST", "/quest/battles", {"deckId": deck["id"]}, also=(409,))
        if status == 409:  # a retried start whose first reply was lost
            match_id = view.get("matchId") if isinstance(view, dict) else None
            if not match_id:
                raise FlowFailed(f"POST /quest/battles -> 409 {view}")
            _, view = self.call("GET", f"/quest/battles/{match_id}")
        path = f"/quest/battles/{view['id']}"
        actions = 0
        budget = MAX_ACTIONS if play_out else self.rng.randint(0, 3)
        while view["status"] != "finished" and actions < budget:
            action = choose(view)
            if action is None:
                break
            version = view["version"]
            body = {
                "expectedVersion": version,
                "action": action,
                "idempotencyKey": f"{view['id']}-{version}",
            }
            status, answer = self.call("POST", path + "/actions", body, also=(409,))
            if status == 409:  # stale: read the match again
                _, view = self.call("GET", path)
            else:
                view = answer
            actions += 1
        if view["status"] != "finished":
            version = view["version"]
            body = {"expectedVersion": version, "idempotencyKey": f"{view['id']}-forfeit"}
            status, answer = self.call("POST", path + "/forfeit", body, also=(409,))
            view = answer if status == 200 else self.call("GET", path)[1]
        return dict(view)


def _shape(path: str) -> str:
    """The path with ids replaced, for error messages."""
    return "/".join("{id}" if len(part) == 36 else part for part in path.split("/"))


def damage(view: dict[str, Any], action: dict[str, Any]) -> int:
    you = view["you"]
    move = you["creatures"][you["active"]]["moves"][action["index"]]
    return int(sum(e.get("amount", 0) for e in move["effects"] if e["type"] == "damage"))


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    """A greedy player (as tests/e2e/quest/test_battle_api.py): the hardest-hitting
    move, else a Power card, else a selection."""
    legal = [a for a in view.get("legalActions", []) if a["kind"] != "forfeit"]
    moves = [a for a in legal if a["kind"] == "use_move"]
    if moves:
        try:
            return max(moves, key=lambda a: damage(view, a))
        except (KeyError, IndexError, TypeError):
            return moves[0]
    for kind in ("play_power_card", "select_creature"):
        options = [a for a in legal if a["kind"] == kind]
        if options:
            return options[0]
    return legal[0] if legal else None


CENTRE = (51.5080, -0.1281)  # bench/answers.py's event


class Load:
    """``workers`` threads, each playing one new player after the other."""

    def __init__(
        self, args: argparse.Namespace, settings: Any, event_id: str, recorder: Recorder
    ) -> None:
        self._args = args
        self._settings = settings
        self._event_id = event_id
        self.recorder = recorder
        self.stop_new = threading.Event()  # finish the current flow, start no other
        self.halt = threading.Event()  # give up at once
        self._threads = [
            threading.Thread(target=self._work, args=(n,), name=f"load-{n}", daemon=True)
            for n in range(args.workers)
        ]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float) -> int:
        """Let each thread finish its flow (at most ``timeout``); how many did not."""
        self.stop_new.set()
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        self.halt.set()
        for thread in self._threads:
            thread.join(5)
        return sum(thread.is_alive() for thread in self._threads)

    def _work(self, n: int) -> None:
        rng = random.Random()
        # 127.0.0.0/8 is loopback: each thread is another client address for the gateway.
        client = Client(
            self._args.base_port, f"127.0.{1 + n // 200}.{10 + n % 200}", self.recorder, "load"
        )
        kinds = list(FLOW_WEIGHTS)
        weights = [FLOW_WEIGHTS[k] for k in kinds]
        while not self.stop_new.is_set():
            kind = rng.choices(kinds, weights)[0]
            player = Player(client, self._settings, rng, self.halt)
            try:
                run_flow(kind, player, self._event_id, rng, self.recorder)
            except Stopped:
                return
            except FlowFailed as exc:
                self.recorder.failed(kind, str(exc))
            except Exception as exc:  # a bug of this script: note it, keep the load going
                self.recorder.failed(kind, f"{type(exc).__name__}: {exc}")
        client.close()


def run_flow(
    kind: str, player: Player, event_id: str, rng: random.Random, recorder: Recorder
) -> dict[str, Any]:
    """One player's flow; what the client was told is noted in ``recorder``."""
    player.me()
    if kind == "attempt":
        view = player.attempt(event_id)
        if view["status"] != "completed":
            raise FlowFailed(f"the attempt is {view['status']} after five answers")
        with recorder.lock:
            recorder.completed_attempts[view["id"]] = player.id
        recorder.flow(kind, "completed")
        return view
    if kind == "starter":
        grant = player.starter()
        with recorder.lock:
            recorder.starters[player.id] = grant["affinity"]
        recorder.flow(kind, "completed")
        return grant
    view = player.battle(rng.random() < PLAY_OUT_SHARE)
    if view["status"] != "finished":
        raise FlowFailed(f"the match is {view['status']} after forfeit")
    with recorder.lock:
        recorder.finished_matches[view["id"]] = player.id
        recorder.starters[player.id] = "battle"
    recorder.flow(kind, "completed")
    return view

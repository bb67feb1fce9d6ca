"""The platform as separate processes: start, SIGKILL, readiness."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import time
from collections import Counter
from collections.abc import Sequence

from harness import (
    Child,
    Children,
    http_get,
)

from faults.config import SERVICES


class Platform(Children):
    """The service processes; one of them can be killed and started again."""

    def __init__(self, deckyard: Sequence[str], env: dict[str, str], args: argparse.Namespace):
        super().__init__("faults")
        self._deckyard = list(deckyard)
        self._env = env
        self._args = args
        self.current: dict[str, Child] = {}
        self.starts: Counter[str] = Counter()

    def health_port(self, service: str) -> int:
        return self._args.base_port + 81 + SERVICES.index(service)

    def start_service(self, service: str) -> Child:
        self.starts[service] += 1
        env = dict(self._env)
        if service != "gateway":
            env["HEALTH_PORT"] = str(self.health_port(service))
        name = service if self.starts[service] == 1 else f"{service}-{self.starts[service]}"
        child = self.start(
            name, [*self._deckyard, "run", "--service", service], env, self._args.source
        )
        self.current[service] = child
        return child

    def sigkill(self, service: str) -> int:
        child = self.current.pop(service)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.process.pid, signal.SIGKILL)
        child.process.wait(timeout=10)
        child.log_file.close()
        self._children.remove(child)
        return child.process.pid

    def dead(self) -> list[str]:
        return [s for s, c in self.current.items() if not c.running()]


def ready_states(platform: Platform, gateway_port: int) -> dict[str, int]:
    """The status of every service's /ready and of the gateway's (0: no answer)."""
    states = {s: http_get(platform.health_port(s), "/ready")[0] for s in SERVICES}
    states["gateway"] = http_get(gateway_port, "/ready")[0]
    return states


def wait_ready(platform: Platform, gateway_port: int, timeout: float) -> dict[str, int]:
    """Until every /ready is 200 (returns {}) or ``timeout``: the last states otherwise
    (-1: the process exited, which nothing here repairs)."""
    deadline = time.monotonic() + timeout
    states: dict[str, int] = {}
    while time.monotonic() < deadline:
        dead = platform.dead()
        if dead:
            return {service: -1 for service in dead}
        states = ready_states(platform, gateway_port)
        if all(status == 200 for status in states.values()):
            return {}
        time.sleep(0.5)
    return states

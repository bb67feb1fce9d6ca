"""Injecting a fault, then waiting for the platform to recover by itself."""

from __future__ import annotations

import argparse
import threading
import time
from dataclasses import dataclass
from typing import Any

from faults.config import READY_TIMEOUT
from faults.load import Recorder
from faults.platform import Platform, wait_ready
from faults.probe import Probe, probe
from faults.push import PushWatch
from faults.servers import Servers


@dataclass
class FaultRecord:
    name: str
    at: float  # seconds into the load
    injected: str = ""
    back_at: float | None = None  # the process or server is up again
    ready_at: float | None = None  # every /ready answers 200
    probe: Probe | None = None
    probe_at: float | None = None
    skipped: str = ""

    @property
    def recovered(self) -> bool:
        return self.skipped != "" or (self.probe is not None and self.probe.ok)


class Timeline:
    def __init__(self, recorder: Recorder) -> None:
        self._recorder = recorder
        self.entries: list[tuple[float, str]] = []

    def note(self, text: str) -> None:
        at = self._recorder.now()
        self.entries.append((at, text))
        print(f"  [{at:7.1f}s] {text}", flush=True)


def inject(
    name: str,
    record: FaultRecord,
    platform: Platform,
    srv: Servers,
    args: argparse.Namespace,
    timeline: Timeline,
    push: PushWatch | None = None,
) -> None:
    rec = timeline._recorder
    if name == "gateway":
        sockets = push.open_sockets() if push is not None else 0
        pid = platform.sigkill("gateway")
        record.injected = f"SIGKILL gateway (pid {pid}, {sockets} push sockets open)"
        timeline.note(record.injected)
        time.sleep(args.downtime)
        child = platform.start_service("gateway")
        record.back_at = rec.now()
        timeline.note(f"gateway started again (pid {child.process.pid})")
        return
    if name == "cards":
        pid = platform.sigkill("cards")
        record.injected = f"SIGKILL cards (pid {pid})"
        timeline.note(record.injected)
        time.sleep(args.downtime)
        child = platform.start_service("cards")
        record.back_at = rec.now()
        timeline.note(f"cards started again (pid {child.process.pid})")
        return
    restart = srv.restart_postgres if name == "postgres" else srv.restart_rabbitmq
    what = "PostgreSQL" if name == "postgres" else "RabbitMQ"
    if restart is None:
        record.skipped = f"no --{name}-restart command for the given server"
        timeline.note(f"{what} restart skipped: {record.skipped}")
        return
    record.injected = f"{what} stopped"
    timeline.note(f"{what} stopping (down for {args.downtime:.0f}s, then started)")
    restart(args.downtime)
    record.back_at = rec.now()
    timeline.note(f"{what} accepts connections again")


def recover(
    record: FaultRecord,
    platform: Platform,
    args: argparse.Namespace,
    settings: Any,
    event_id: str,
    timeline: Timeline,
    halt: threading.Event,
) -> None:
    if record.skipped:
        return
    rec = timeline._recorder
    states = wait_ready(platform, args.base_port, READY_TIMEOUT)
    if states:
        exited = sorted(s for s, status in states.items() if status == -1)
        text = (
            f"{', '.join(exited)} exited (nothing restarts it)"
            if exited
            else f"not ready after {READY_TIMEOUT:.0f}s: {states}"
        )
        timeline.note(text)
        record.probe = Probe(False, text)
        return
    record.ready_at = rec.now()
    timeline.note("every /ready answers 200 (gateway and the five services)")
    record.probe = probe(args.base_port, settings, event_id, rec, halt)
    record.probe_at = rec.now()
    timeline.note(f"probe as a new player: {record.probe.text}")

"""What the pure-engine throughput scripts share (``chronovore_engine.py``,
``terrakard_engine.py``): a seed per game, a timed loop, a digest, the report lines
and the row of ``make bench``. Reports, never asserts: the goal is printed as met or not.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness import Result, add_source_option, engines_built, percentile, resolve_source_option


def game_seed(seed: int, label: str, index: int) -> int:
    """Game ``index``'s engine seed: ``sha256("<seed>:<label>:<index>")``, 63 bits."""
    digest = hashlib.sha256(f"{seed}:{label}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class Timed:
    """Whole games played in one loop: each one's summary and wall time, and the loop's
    wall and CPU time (this process only: one core, no threads)."""

    summaries: list[str] = field(default_factory=list)  # one line a game, for the digest
    game_ms: list[float] = field(default_factory=list)
    wall_s: float = 0.0
    cpu_s: float = 0.0

    @property
    def games(self) -> int:
        return len(self.summaries)

    def digest(self) -> str:
        h = hashlib.sha256()
        for line in self.summaries:
            h.update(f"{line};".encode())
        return h.hexdigest()[:16]

    def rate(self) -> float:
        return self.games / self.wall_s if self.wall_s else 0.0

    def cpu_rate(self) -> float:
        return self.games / self.cpu_s if self.cpu_s else 0.0


def timed(count: int, play: Callable[[int], str]) -> Timed:
    """``play(0) .. play(count - 1)`` in turn, each returning its summary line."""
    result = Timed()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for index in range(count):
        started = time.perf_counter()
        result.summaries.append(play(index))
        result.game_ms.append((time.perf_counter() - started) * 1000)
    result.wall_s = time.perf_counter() - wall0
    result.cpu_s = time.process_time() - cpu0
    return result


def goal_line(rate: float, goal: float, unit: str) -> str:
    verdict = "met" if rate >= goal else "not met"
    return f"goal >= {goal:,.0f} {unit} on one core: {verdict} ({rate:,.0f} {unit} by CPU time)"


def report_lines(played: Timed, noun: str, unit: str, goal: float) -> list[str]:
    """``noun`` is one game's name ("match", "attack"); ``unit`` its rate's."""
    times = played.game_ms
    return [
        f"{played.games} played in {played.wall_s:.2f} s wall, {played.cpu_s:.2f} s CPU: "
        f"{played.rate():,.0f} {unit} (wall), {played.cpu_rate():,.0f} {unit} (CPU)",
        f"one {noun}, wall time: p50 {percentile(times, 50):.3f} ms, "
        f"p99 {percentile(times, 99):.3f} ms, max {max(times):.3f} ms",
        goal_line(played.cpu_rate(), goal, unit),
        f"results digest: {played.digest()}",
    ]


def bench_result(
    scenario: str, played: Timed, unit: str, goal: float, failures: int, notes: Sequence[str]
) -> Result:
    """The row of ``make bench``: the rate by wall time, one game's p50/p99."""
    wall = played.wall_s
    return Result(
        scenario=scenario,
        requests=played.games,
        duration_s=round(wall, 2),
        rps=round(played.rate(), 1),
        p50_ms=round(percentile(played.game_ms, 50), 3),
        p99_ms=round(percentile(played.game_ms, 99), 3),
        non2xx=0,
        socket_errors=0,
        cpu_percent={"engine": round(played.cpu_s / wall * 100, 1) if wall else 0.0},
        topology="one process, one thread",
        unit=unit,
        failures=failures,
        notes=[
            *notes,
            goal_line(played.cpu_rate(), goal, unit),
            f"digest {played.digest()}",
            engines_built(),
        ],
    )


def parser_of(doc: str, count: str, default: int, what: str) -> argparse.ArgumentParser:
    """The options every such script takes: ``--<count>`` games, ``--seed``, ``--source``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(f"--{count}", type=int, default=default, help=f"{what} to play")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (reproducible)")
    add_source_option(parser)
    return parser


def parsed(parser: argparse.ArgumentParser, argv: Sequence[str] | None, count: str) -> Any:
    args = parser.parse_args(argv)
    if not (1 <= getattr(args, count) <= 10_000_000):
        parser.error(f"--{count} must be in 1..10000000")
    resolve_source_option(parser, args)
    return args


def print_report(args: argparse.Namespace, setup: Sequence[str], lines: Sequence[str]) -> None:
    """The code measured, the run's seed and what was played, then the figures."""
    print(f"code: {args.code}; {engines_built()}")
    print(f"--seed {args.seed}; {setup[0]}")
    for line in (*setup[1:], *lines):
        print(line)

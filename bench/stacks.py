"""Summarise a py-spy ``--format raw`` profile: where a process spends its CPU.

    py-spy record --nonblocking -r 100 -d 25 -f raw -o gateway.raw -p <pid>
    python bench/stacks.py gateway.raw [--top 25] [--match gateway/ --match services/]

Prints, as a share of all samples: the functions with the most time *inside*
them (inclusive), the lines that were on the CPU (self), and, with
``--match``, the inclusive time of frames whose location contains one of the
given strings (the project's own code, say). py-spy records only samples where
the process was not idle, so 100% is the process's CPU time, not wall time.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

FRAME = re.compile(r"^(?P<func>.*?) \((?P<where>[^()]*)\)$")


def parse(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks.append((stack.split(";"), int(count)))
    return stacks


def function_of(frame: str) -> str:
    """``func (file.py:123)`` -> ``func (file.py)``: one entry per function."""
    match = FRAME.match(frame)
    if not match:
        return frame
    return f"{match['func']} ({match['where'].rsplit(':', 1)[0]})"


def summarise(stacks: list[tuple[list[str], int]], top: int, matches: Sequence[str]) -> str:
    total = sum(count for _, count in stacks) or 1
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    for frames, count in stacks:
        for name in {function_of(f) for f in frames}:
            inclusive[name] += count
        if frames:
            own[frames[-1]] += count

    def block(title: str, counter: Counter[str], keep: bool = True) -> list[str]:
        rows = [f"{title}:"]
        for name, count in counter.most_common():
            if not keep and not any(m in name for m in matches):
                continue
            rows.append(f"  {count / total * 100:5.1f}%  {name}")
            if len(rows) > top:
                break
        return rows

    out = [f"{total} samples"]
    out += block("inclusive (time inside the function)", inclusive)
    out += block("self (the line on the CPU)", own)
    if matches:
        out += block(f"inclusive, frames matching {list(matches)}", inclusive, keep=False)
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path, help="py-spy record -f raw output")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--match", action="append", default=[], help="location substring")
    args = parser.parse_args(argv)
    print(summarise(parse(args.profile), args.top, args.match))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``deckyard verify HISTORY.json``: check an exported roll history offline (issue 22).

The file is what the roll history gives (``{"items": [...]}``, pages joined, or a plain
list of rolls, camelCase or snake_case members). Each roll under a revealed server seed
is recomputed with ``games.kit.fair``; one under a seed still secret is counted as
pending (rotate, then export again). Exit status 0 when nothing failed, 1 when a roll
failed (each problem printed as a sentence), 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from games.kit.fair import verify_history

_CAMEL = re.compile(r"(?<!^)([A-Z])")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("history", type=Path, help="an exported roll history (JSON)")


def _snake(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {_CAMEL.sub(r"_\1", str(k)).lower(): _snake(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_snake(item) for item in value]
    return value


def rolls_of(document: Any) -> list[dict[str, Any]]:
    """The rolls of an export: a page (``items``), pages, or a list of rolls."""
    if isinstance(document, Mapping):
        document = document.get("items", [])
    if not isinstance(document, list):
        raise ValueError("expected a list of rolls or an object with 'items'")
    rolls: list[dict[str, Any]] = []
    for item in document:
        if isinstance(item, Mapping) and "items" in item:
            rolls += rolls_of(item)
        else:
            rolls.append(_snake(item))
    return rolls


def verify_file(path: Path, out: TextIO = sys.stdout) -> int:
    try:
        rolls = rolls_of(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        print(f"deckyard verify: cannot read {path}: {exc}", file=out)
        return 2
    verdicts = verify_history(rolls)
    counts = {status: 0 for status in ("ok", "pending", "failed")}
    for verdict in verdicts:
        counts[verdict.status] += 1
        for problem in verdict.problems:
            print(f"FAILED {problem}", file=out)
    print(
        f"{len(verdicts)} rolls: {counts['ok']} verified, {counts['failed']} failed, "
        f"{counts['pending']} pending (their server seed is not revealed yet: rotate it)",
        file=out,
    )
    return 1 if counts["failed"] else 0


def run(args: argparse.Namespace) -> int:
    return verify_file(args.history)

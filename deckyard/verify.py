"""``deckyard verify HISTORY.json``: check an exported history offline (issue 22).

Two kinds of file (docs/fairness.md):

- a roll history (``{"items": [...]}``, pages joined, or a plain list of rolls): each
  roll under a revealed server seed is recomputed with ``games.kit.fair``; one under a
  seed still secret is counted as pending (rotate, then export again);
- a match history (the history answer of a match: ``fairness`` and ``matchId``): the
  revealed seed and salt are checked against the commitment shown from the first move,
  then the match is replayed from its seed, setup and action log with the game's pure
  engine (``services.battle.match_seeds.REPLAYABLE``) and must give the logged results.

camelCase (as the API answers) or snake_case members. Exit status 0 when nothing
failed, 1 when something failed (each problem printed as a sentence), 2 when the file
cannot be read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from games.kit.fair import verify_history, verify_match

# The inverse of the API's camelCase (gateway/casing.py): only names it makes change.
_CAMEL = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")
_UPPER = re.compile(r"([A-Z])")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "history", type=Path, help="an exported roll history or a finished match's history (JSON)"
    )


def _name(key: Any) -> str:
    key = str(key)
    return _UPPER.sub(lambda m: "_" + m.group(1).lower(), key) if _CAMEL.fullmatch(key) else key


def _snake(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {_name(k): _snake(v) for k, v in value.items()}
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


def is_match(document: Any) -> bool:
    """A match's history (its ``fairness`` part), not a roll history."""
    return (
        isinstance(document, Mapping)
        and "fairness" in document
        and ("matchId" in document or "match_id" in document)
    )


def verify_match_file(document: Mapping[str, Any], out: TextIO) -> int:
    from services.battle.match_seeds import REPLAYABLE  # the games' engines: only here

    verdict = verify_match(_snake(document), REPLAYABLE)
    for problem in verdict.problems:
        print(f"FAILED {problem}", file=out)
    where = f"match {verdict.match_id}"
    if verdict.status == "pending":
        print(f"{where}: pending (its seed is revealed when the match is over)", file=out)
    elif verdict.status == "ok" and verdict.replayed:
        print(f"{where}: verified (the seed matches its commitment; the replay of its "
              "seed and action log gives the logged results)", file=out)  # fmt: skip
    elif verdict.status == "ok":
        print(f"{where}: the seed matches its commitment (no replay: this game's setup "
              "stays secret)", file=out)  # fmt: skip
    return 1 if verdict.status == "failed" else 0


def verify_file(path: Path, out: TextIO = sys.stdout) -> int:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if is_match(document):
            return verify_match_file(document, out)
        rolls = rolls_of(document)
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

"""``deckyard terrakard draft <file.jsonl>``: the card pipeline into authoring.

Each line of the file is an article (games/terrakard/articles.py): its card (the
formula's ATK, DEF and rarity) and its knowledge question are created as drafts, by
``--actor``, through authoring's ``create`` RPC, so they go through the same lifecycle
(review by another Author, then publication) as anything written by hand.

The file is read line by line, so a full dump works as the sample does. Drafting the
same file again creates nothing twice: a card whose name another card already has
(authoring refuses it, ``duplicate_name``) is counted as already drafted and its
question is not drafted again. A malformed line is reported with its number and
skipped; the others are drafted.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from games.kit.refusal import Refusal
from games.terrakard.articles import parse_line
from games.terrakard.content import GAME
from games.terrakard.drafts import CARD_KIND, QUESTION_KIND, card_body, question_body
from shared.errors import Conflict

# (kind, body) -> the created content, as authoring's ``create`` answers
Create = Callable[[str, dict[str, Any]], dict[str, Any]]


@dataclass
class DraftReport:
    cards: int = 0
    questions: int = 0
    already: int = 0  # cards whose name was already taken (drafted before)
    problems: list[str] = field(default_factory=list)  # "line N: what is wrong"


def draft(lines: Iterable[str], create: Create, latest_year: int) -> DraftReport:
    """Draft every article of ``lines``; ``latest_year`` bounds the questions' wrong years."""
    report = DraftReport()
    for number, line in enumerate(lines, start=1):
        try:
            article = parse_line(line)
        except Refusal as exc:
            report.problems.append(f"line {number}: {exc.message}")
            continue
        if article is None:
            continue
        try:
            card = create(CARD_KIND, card_body(article))
        except Conflict as exc:
            if exc.code != "duplicate_name":
                raise
            report.already += 1
            continue
        report.cards += 1
        question = question_body(article, latest_year, str(card["lineageId"]))
        if question is not None:
            create(QUESTION_KIND, question)
            report.questions += 1
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="terrakard_command", required=True)
    drafting = commands.add_parser(
        "draft", help="draft cards and knowledge questions from articles (JSON lines)"
    )
    drafting.add_argument("file", help="one JSON object per article (docs/terrakard.md)")
    drafting.add_argument(
        "--actor", required=True, help="the Author who drafts them, e.g. auth0|alice"
    )


def run(args: argparse.Namespace) -> int:
    from nameko.standalone.rpc import ClusterRpcProxy

    from deckyard.preflight import require_rabbitmq
    from shared.clock import SystemClock
    from shared.config import load_settings

    settings = load_settings()
    require_rabbitmq(settings)
    latest_year = SystemClock().now().year
    with (
        ClusterRpcProxy(settings.nameko_config(), timeout=30) as proxy,
        open(args.file, encoding="utf-8") as lines,
    ):

        def create(kind: str, body: dict[str, Any]) -> dict[str, Any]:
            created: dict[str, Any] = proxy.authoring.create(
                actor=args.actor, kind=kind, game=GAME, body=body
            )
            return created

        report = draft(lines, create, latest_year)
    for problem in report.problems:
        print(problem)
    print(
        f"drafted {report.cards} cards and {report.questions} questions; "
        f"{report.already} cards were already drafted; {len(report.problems)} lines refused"
    )
    return 1 if report.problems else 0

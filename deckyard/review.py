"""``deckyard review list | approve``: the review queue for an Author at a terminal.

The same service path as the API's (``GET /authoring/review-queue``, ``POST
/authoring/review-queue/approvals``): authoring's ``review_queue`` and
``approve_batch`` RPCs, as ``--actor`` (the Author's subject, as ``deckyard terrakard
draft`` takes it), so the four-eyes rule, the expected versions and the per-item
outcomes are the service's (services/authoring/review.py), not this command's.

``approve ID@VERSION ...`` approves those versions; a bare ``ID`` approves the version
the queue shows now (or the one it has, when it is not in your queue: the service then
says why); ``--all`` approves everything the queue holds for you now, a
page (100) at a time. Each item is approved or refused on its own; the command prints
one line per item and exits 1 when any was refused.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from shared.errors import NotFound

BATCH = 100  # the service's bound on a batch (services/authoring/review.py, MAX_BATCH)


class Authoring(Protocol):
    """The RPCs this command uses (nameko's proxy to the authoring service)."""

    def review_queue(self, **payload: Any) -> dict[str, Any]: ...

    def approve_batch(self, **payload: Any) -> list[dict[str, Any]]: ...

    def get(self, content_id: str) -> dict[str, Any]: ...


def queued(authoring: Authoring, actor: str, limit: int = BATCH) -> Iterator[dict[str, Any]]:
    """Every item of ``actor``'s queue, oldest submission first, page after page."""
    cursor = None
    while True:
        page = authoring.review_queue(actor=actor, cursor=cursor, limit=limit)
        yield from page["items"]
        cursor = page["next"]
        if cursor is None:
            return


def title_of(content: dict[str, Any]) -> str:
    body = content.get("body") or {}
    return str(body.get("name") or body.get("title") or body.get("prompt") or "")


def queue_line(content: dict[str, Any]) -> str:
    return "\t".join(
        [
            content["id"],
            f"v{content['version']}",
            f"{content['game']}/{content['kind']}",
            f"by {content['submittedBy']}",
            title_of(content)[:60],
        ]
    )


def outcome_line(outcome: dict[str, Any]) -> str:
    if outcome["outcome"] == "approved":
        return f"approved\t{outcome['id']}\tnow v{outcome['version']}"
    problem = outcome["problem"]
    return f"refused\t{outcome['id']}\t{problem['code']}: {problem['detail']}"


def named_items(authoring: Authoring, actor: str, names: Sequence[str]) -> list[dict[str, Any]]:
    """``ID@VERSION`` as given; a bare ``ID`` at the version the queue shows now."""
    items, bare = [], []
    for name in names:
        content_id, _, version = name.partition("@")
        items.append({"content_id": content_id, "expected_version": int(version or 0)})
        if not version:
            bare.append(content_id)
    if bare:
        shown = {c["id"]: c["version"] for c in queued(authoring, actor)}
        for item in items:
            if not item["expected_version"]:
                content_id = str(item["content_id"])
                item["expected_version"] = shown.get(content_id) or _current(authoring, content_id)
    return items


def _current(authoring: Authoring, content_id: str) -> int:
    """The version of content that is not in your queue (yours, or no longer in review),
    so the service's refusal says which, not ``stale_version``; 1 for no such content."""
    try:
        return int(authoring.get(content_id=content_id)["version"])
    except NotFound:
        return 1


def approve(
    authoring: Authoring,
    actor: str,
    names: Sequence[str],
    every: bool,
    key: str | None,
    say: Callable[[str], None] = print,
) -> int:
    """Approve the named items (one batch) or every queued one (a batch a page); 0 when
    every item was approved, 1 when any was refused."""
    outcomes: list[dict[str, Any]] = []
    if every:
        page: list[dict[str, Any]] = []
        for content in queued(authoring, actor):
            page.append({"content_id": content["id"], "expected_version": content["version"]})
            if len(page) == BATCH:
                outcomes += _batch(authoring, actor, page, None, say)
                page = []
        if page:
            outcomes += _batch(authoring, actor, page, None, say)
    else:
        outcomes = _batch(authoring, actor, named_items(authoring, actor, names), key, say)
    approved = sum(1 for outcome in outcomes if outcome["outcome"] == "approved")
    say(f"{approved} approved, {len(outcomes) - approved} refused")
    return 0 if approved == len(outcomes) else 1


def _batch(
    authoring: Authoring,
    actor: str,
    items: list[dict[str, Any]],
    key: str | None,
    say: Callable[[str], None],
) -> list[dict[str, Any]]:
    outcomes = authoring.approve_batch(actor=actor, items=items, idempotency_key=key)
    for outcome in outcomes:
        say(outcome_line(outcome))
    return outcomes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="review_command", required=True)
    listing = commands.add_parser("list", help="content in review that you did not submit")
    listing.add_argument("--actor", required=True, help="you, the Author, e.g. auth0|bob")
    approving = commands.add_parser(
        "approve", help="approve items of your queue, each approved or refused on its own"
    )
    approving.add_argument("--actor", required=True, help="you, the Author, e.g. auth0|bob")
    approving.add_argument(
        "--all", action="store_true", help="everything your queue holds now (no IDs then)"
    )
    approving.add_argument("ids", nargs="*", metavar="ID[@VERSION]", help=f"at most {BATCH}")
    approving.add_argument(
        "--idempotency-key",
        help="with ID@VERSION items: the same key and items again answer what the "
        "first run answered",
    )


def _wrong_selection(ids: Sequence[str], every: bool, key: str | None) -> str | None:
    """What is wrong with the items named on the command line, if anything."""
    if every == bool(ids):
        return "name the items (ID or ID@VERSION) or --all, not both, not neither"
    if every and key:
        return "--idempotency-key goes with IDs, not --all"
    if len(ids) > BATCH:
        return f"at most {BATCH} IDs at once (or --all)"
    for name in ids:
        content_id, _, version = name.partition("@")
        try:
            uuid.UUID(content_id)
        except ValueError:
            return f"{name!r}: an ID is a content id (a UUID)"
        if version and not (version.isascii() and version.isdigit() and int(version) > 0):
            return f"{name!r}: a version is a whole number from 1"
        if key and not version:
            # A bare ID stands for the version of the moment: sent again, another batch.
            return f"{name!r}: with --idempotency-key, name each version (ID@VERSION)"
    return None


def run(args: argparse.Namespace) -> int:
    from nameko.standalone.rpc import ClusterRpcProxy

    from deckyard.preflight import require_rabbitmq
    from shared.config import load_settings

    if args.review_command == "approve":
        wrong = _wrong_selection(args.ids, args.all, args.idempotency_key)
        if wrong:
            print(f"deckyard review approve: {wrong}", file=sys.stderr)
            return 2
    settings = load_settings()
    require_rabbitmq(settings)
    with ClusterRpcProxy(settings.nameko_config(), timeout=120) as proxy:
        authoring: Authoring = proxy.authoring
        if args.review_command == "list":
            count = 0
            for content in queued(authoring, args.actor):
                print(queue_line(content))
                count += 1
            print(f"{count} in your review queue")
            return 0
        return approve(authoring, args.actor, args.ids, args.all, args.idempotency_key)

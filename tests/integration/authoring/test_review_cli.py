"""`deckyard review list | approve` on the real authoring service, as a command run in a
process of its own: the same queue and batch approval as the API's (issue 30)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.integration.authoring.test_review_queue import authoring, submitted  # noqa: F401
from tests.random_refs import random_sub

pytestmark = pytest.mark.integration


def deckyard(settings, *args):
    env = {
        **os.environ,
        "AMQP_URI": settings.amqp_uri,
        "RPC_EXCHANGE": settings.rpc_exchange,
        "DATABASE_URL": settings.database_url,
    }
    return subprocess.run(
        [sys.executable, "-m", "deckyard.cli", "review", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_author_lists_the_queue_and_approves_items_by_id(authoring, settings):  # noqa: F811
    alice, bob = random_sub("alice"), random_sub("bob")
    first, second, stale = (submitted(authoring, alice, n) for n in range(3))
    own = submitted(authoring, bob, 3)

    listed = deckyard(settings, "list", "--actor", bob)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    ours = [
        line.split("\t")[0]
        for line in lines
        if line.split("\t")[0] in {first["id"], second["id"], stale["id"], own["id"]}
    ]
    assert ours == [first["id"], second["id"], stale["id"]]
    assert f"{first['id']}\tv2\tquest/question\tby {alice}\t" in listed.stdout
    assert lines[-1].endswith("in your review queue")

    named = [f"{first['id']}@2", f"{second['id']}@2", f"{stale['id']}@1", f"{own['id']}@2"]
    approved = deckyard(settings, "approve", "--actor", bob, *named, "--idempotency-key", "cli-1")
    assert approved.returncode == 1  # some were refused
    out = approved.stdout.splitlines()
    assert out[0] == f"approved\t{first['id']}\tnow v3"
    assert out[1] == f"approved\t{second['id']}\tnow v3"
    assert out[2].startswith(f"refused\t{stale['id']}\tstale_version: ")
    assert out[3].startswith(f"refused\t{own['id']}\town_submission: ")
    assert out[4] == "2 approved, 2 refused"
    assert authoring.get(content_id=first["id"])["state"] == "approved"
    assert authoring.get(content_id=stale["id"])["state"] == "in_review"

    again = deckyard(settings, "approve", "--actor", bob, *named, "--idempotency-key", "cli-1")
    assert again.stdout == approved.stdout  # the first run's answer, nothing approved twice

    unseen = deckyard(settings, "list", "--actor", bob).stdout
    assert first["id"] not in unseen and stale["id"] in unseen

    # A bare ID: the version of the moment; one not in the queue, its own refusal.
    bare = deckyard(settings, "approve", "--actor", bob, stale["id"], own["id"], first["id"])
    assert bare.stdout.splitlines() == [
        f"approved\t{stale['id']}\tnow v3",
        f"refused\t{own['id']}\town_submission: "
        "another Author must approve or return your submission",
        f"refused\t{first['id']}\tnot_in_review: this content is approved, not in review",
        "1 approved, 2 refused",
    ]


def test_a_wrong_selection_is_refused_before_anything_is_sent(settings):
    some_id = "0f3c5b3e-9a62-4a0f-8f5e-3f9a0d7c1b2e"
    for args in (
        [],
        ["--all", some_id],
        ["not-an-id"],
        [f"{some_id}@0"],
        [some_id, "--idempotency-key", "k"],
        ["--all", "--idempotency-key", "k"],
    ):
        done = deckyard(settings, "approve", "--actor", "auth0|bob", *args)
        assert done.returncode == 2 and "deckyard review approve:" in done.stderr

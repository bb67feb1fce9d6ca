"""`deckyard migrate` under ``LOG_FORMAT=json`` writes only JSON lines (its own and
alembic's), as the Kubernetes migration Job's log collector reads them."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest

from shared.config import SERVICE_NAMES
from shared.migrations import drop_database
from tests.random_refs import random_suffix

DECKYARD = [sys.executable, "-m", "deckyard.cli"]


@pytest.fixture
def prefix(settings):
    """A prefix no database has yet: the migrations really run (and log that they do)."""
    own = f"jsonlog_{random_suffix()}"
    yield own
    for service in SERVICE_NAMES:
        drop_database(dataclasses.replace(settings, database_prefix=own), service)


def test_migrate_with_json_logs_writes_only_json_lines(settings, prefix):
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "DATABASE_PREFIX": prefix,
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "INFO",
    }

    done = subprocess.run(
        [*DECKYARD, "migrate"], env=env, capture_output=True, text=True, timeout=300
    )

    assert done.returncode == 0, done.stdout + done.stderr
    lines = (done.stdout + done.stderr).splitlines()
    entries = [json.loads(line) for line in lines]  # a plain line fails here, naming it
    assert all({"time", "level", "logger", "message"} <= set(entry) for entry in entries)
    said = [entry["message"] for entry in entries if entry["logger"] == "deckyard.cli"]
    assert said == [f"migrated {s} ({prefix}_{s})" for s in SERVICE_NAMES]
    assert any(
        entry["logger"].startswith("alembic") and entry["message"].startswith("Running upgrade")
        for entry in entries
    )

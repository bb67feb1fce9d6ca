"""The compiled engines (``make engines``, deckyard/engines.py) give what their Python
sources give: seeded whole games of the three engines (play_seeded.py: every action,
event, state, view, the final state and its replay) played once on the compiled
modules and once on a copy of the sources alone, compared byte for byte."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckyard import engines

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path(__file__).with_name("play_seeded.py")
MATCHES = 12  # of each game


def _played(pythonpath: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(ROOT), str(MATCHES)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def compiled_state():
    found = engines.state()
    if found == "absent":
        message = "games/ is not compiled here: `make engines` (python -m deckyard.engines)"
        if os.environ.get("REQUIRE_SERVICES") == "1":  # the whole environment is asked for
            pytest.fail(message)
        pytest.skip(message)
    return found


def test_the_compiled_modules_are_built_from_these_sources(compiled_state):
    assert compiled_state == "compiled", "stale compiled engines: run `make engines`"


def test_compiled_and_python_engines_play_the_same_games_byte_for_byte(compiled_state, tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(ROOT / "games", sources / "games", ignore=shutil.ignore_patterns("*.so"))
    compiled = _played(ROOT)
    python = _played(sources)

    assert compiled[0].startswith('{"compiled":true,'), compiled[0]
    assert python[0].startswith('{"compiled":false,'), python[0]
    assert str(sources) in python[0]
    assert len(compiled) > 3 * MATCHES * 5
    assert compiled[1:] == python[1:]

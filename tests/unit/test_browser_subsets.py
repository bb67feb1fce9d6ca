"""`make test` runs the browser journeys not marked ``browser_full`` (the smoke subset);
`make test-browser` runs them all. The smoke subset keeps the first visit and at least one
journey of each game, and every file is in one subset or the other."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "tests" / "e2e" / "web"
GAMES = ("quest", "terrakard", "chronovore")


def marked_full(path: Path) -> bool:
    return bool(re.search(r"^pytestmark = .*pytest\.mark\.browser_full", path.read_text(), re.M))


def test_the_smoke_subset_keeps_the_first_visit_and_a_journey_of_each_game():
    smoke = {path.stem for path in WEB.glob("test_*.py") if not marked_full(path)}
    assert "test_first_visit" in smoke
    for game in GAMES:
        assert any(name.startswith(f"test_{game}_") for name in smoke), game


def test_make_test_leaves_out_the_full_journeys_and_make_test_browser_runs_every_one():
    def recipe(target: str) -> str:
        shown = subprocess.run(
            ["make", "-n", "-s", target, "BIN=.venv/bin"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        return next(line for line in shown.splitlines() if "scripts/run-tests" in line)

    assert recipe("test").endswith('scripts/run-tests -m "not browser_full"')
    assert recipe("test-browser").endswith("scripts/run-tests tests/e2e/web")

"""games/ is pure: standard library only (besides games itself), and no module of the
standard library that reaches outside (clock, global random, files, network, processes).
The allowlist behind import-linter's "games-pure" contract (pyproject.toml)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).parents[3] / "games"
IMPURE = {
    "random",
    "time",
    "os",
    "sys",
    "socket",
    "subprocess",
    "threading",
    "secrets",
    "pathlib",
    "io",
    "shutil",
    "tempfile",
    "urllib",
    "http",
    "logging",
    "asyncio",
}
MODULES = sorted(GAMES.rglob("*.py"))


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(GAMES)))
def test_a_game_module_imports_only_the_standard_library_and_games(path):
    for name in _imports(path):
        top = name.split(".")[0]
        assert top == "games" or top in sys.stdlib_module_names, f"{path.name} imports {name}"
        assert top not in IMPURE, f"{path.name} imports {name}: not pure"
        if path.is_relative_to(GAMES / "kit"):
            assert not name.startswith("games.") or name.startswith("games.kit"), name


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(GAMES)))
def test_a_game_module_never_reads_the_clock_nor_makes_random_ids(path):
    text = path.read_text(encoding="utf-8")
    for call in (".now(", ".utcnow(", ".today(", "uuid1(", "uuid4("):
        assert call not in text, f"{path.name} calls {call}"


def test_the_allowlist_catches_a_third_party_import(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text("import marshmallow\nfrom shared.errors import Conflict\n")
    tops = {name.split(".")[0] for name in _imports(module)}
    assert not tops <= set(sys.stdlib_module_names) | {"games"}

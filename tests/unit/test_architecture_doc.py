"""Every module docs/architecture.md names exists (issue 31: the page a newcomer reads
first must describe what is there).

The rule, kept simple:
- a backticked path with a ``/`` that is a module (ends in ``.py``) or a folder (ends in
  ``/``, or its last name has no dot: ``games/kit/``, ``services/authoring``) exists from
  the repository's root; ``{a,b}`` stands for each of its names
  (``gateway/routes/quest/{events,pvp}.py``). URLs and routes (``/v1/...``, ``https:``)
  are not paths;
- a bare backticked ``name.py`` exists in the folder of a path named before it in the same
  block (a table row, or a paragraph or list item), as in "``games/quest/rewards.py``, the
  pool in ``collection.py``";
- a path with a placeholder (``<g>``, ``*``) is a pattern, not a module, and is left
  alone, with the bare names after it in its block (``games/<g>/``: its ``game.py``).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "architecture.md"
CODE = re.compile(r"`([^`\s]+)`")
BRACES = re.compile(r"\{([^{}]*)\}")


def _blocks(text: str) -> list[str]:
    """Table rows one by one; otherwise runs of lines, a list item starting a new one."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        stripped = line.strip()
        row_or_item = stripped.startswith("|") or re.match(r"(-|\d+\.) ", stripped)
        after_row = bool(blocks[-1]) and blocks[-1][-1].lstrip().startswith("|")
        if not stripped or row_or_item or after_row:
            blocks.append([])
        if stripped:
            blocks[-1].append(line)
    return ["\n".join(block) for block in blocks if block]


def _expanded(path: str) -> list[str]:
    parts = BRACES.split(path)  # text, choices, text, choices, ...
    choices = [[part] if i % 2 == 0 else part.split(",") for i, part in enumerate(parts)]
    return ["".join(names) for names in itertools.product(*choices)]


PATH = re.compile(r"[\w.{},/-]+")


def _kind(name: str) -> str:
    """ "path", "pattern", "bare" (a module without a folder) or "" (not a module)."""
    if any(c in name for c in "<>*"):
        return "pattern" if "/" in name else ""
    if not PATH.fullmatch(name) or name.startswith("/"):
        return ""
    if "/" not in name:
        return "bare" if name.endswith(".py") else ""
    last = name.rstrip("/").rsplit("/", 1)[-1]
    return "path" if name.endswith((".py", "/")) or "." not in last else ""


def missing_modules(text: str) -> list[str]:
    missing = []
    for block in _blocks(text):
        folders: list[Path] = []
        patterned = False
        for name in CODE.findall(block):
            kind = _kind(name)
            if kind == "pattern":
                patterned = True
            elif kind == "path":
                paths = [ROOT / expanded for expanded in _expanded(name)]
                missing += [str(p.relative_to(ROOT)) for p in paths if not p.exists()]
                folders += [p if p.suffix != ".py" else p.parent for p in paths]
            elif (
                kind == "bare"
                and not patterned
                and not any((folder / name).exists() for folder in folders)
            ):
                missing.append(
                    f"{name} (after {sorted({str(f.relative_to(ROOT)) for f in folders})})"
                )
    return missing


def test_every_module_the_architecture_page_names_exists():
    assert missing_modules(DOC.read_text(encoding="utf-8")) == []


def test_the_rule_finds_a_module_that_is_not_there():
    text = (
        "| Saved decks | `games/quest/decks.py`, `nowhere.py` |\n"
        "| PvP | `services/battle/{pvp,gone}.py` |\n"
        "`handlers.py` alone, with no path before it.\n"
    )
    assert missing_modules(text) == [
        "nowhere.py (after ['games/quest'])",
        "services/battle/gone.py",
        "handlers.py (after [])",
    ]

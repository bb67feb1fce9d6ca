"""The author screens offer each game's kinds of content (web/src/screens/author/
lifecycle.ts, ``KINDS_BY_GAME``): the same games and kinds authoring accepts, so a kind
added to a game shows up in the browser, and the browser never offers one it refuses."""

from __future__ import annotations

import re
from pathlib import Path

from services.authoring.kinds import GAME_KINDS

LIFECYCLE = Path(__file__).parents[3] / "web/src/screens/author/lifecycle.ts"


def _offered() -> dict[str, list[str]]:
    source = LIFECYCLE.read_text(encoding="utf-8")
    block = re.search(r"KINDS_BY_GAME[^=]*=\s*\{(.*?)\n\};", source, re.S)
    assert block, "lifecycle.ts no longer declares KINDS_BY_GAME"
    return {
        game: re.findall(r'"([a-z_]+)"', kinds)
        for game, kinds in re.findall(r"(\w+):\s*\[(.*?)\]", block.group(1), re.S)
    }


def test_the_author_screens_offer_exactly_the_kinds_authoring_accepts():
    accepted = {str(game): sorted(str(k) for k in kinds) for game, kinds in GAME_KINDS.items()}
    assert {game: sorted(kinds) for game, kinds in _offered().items()} == accepted

"""`python -m deckyard.engines` (make install) hides mypyc's known harmless warnings and
shows every other line it prints, an error above all."""

from __future__ import annotations

import io

from deckyard import engines

HARMLESS = "games/quest/rules.py:202: warning: Treating generator comprehension as list"
ERROR = 'games/quest/rules.py:9: error: Name "x" is not defined'


def printed_during_build(*chunks: str) -> str:
    out = io.StringIO()
    real = engines.sys.stdout
    engines.sys.stdout = out
    try:
        with engines.harmless_warnings_hidden():
            for chunk in chunks:
                print(chunk, end="")
    finally:
        engines.sys.stdout = real
    return out.getvalue()


def test_the_known_harmless_warning_is_hidden_and_an_error_shown():
    shown = printed_during_build(f"{HARMLESS}\n{ERROR}\n{HARMLESS}\n")

    assert shown == f"{ERROR}\n"


def test_a_line_printed_in_pieces_or_left_unfinished_is_still_shown():
    shown = printed_during_build("games/x.py:1: warn", "ing: something else\n", "last words")

    assert shown == "games/x.py:1: warning: something else\nlast words"


def test_another_warning_is_shown():
    other = "games/kit/packs.py:90: warning: Unsupported something"

    assert printed_during_build(other + "\n") == other + "\n"

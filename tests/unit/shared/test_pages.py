import uuid
from datetime import UTC, datetime

import pytest

from shared import pages
from shared.errors import InvalidInput

AT = datetime(2026, 12, 2, 1, 30, 15, 123456, tzinfo=UTC)


def test_a_cursor_stands_for_the_position_of_the_last_row_shown():
    row_id = uuid.uuid4()
    assert pages.position(pages.cursor_of(AT, row_id)) == (AT, row_id)
    assert pages.position(None) is None


@pytest.mark.parametrize(
    "cursor",
    ["", "12", "12-zz", "-1-" + "0" * 32, "1-" + "0" * 31, "1" * 20 + "-" + "0" * 32,
     "1." + "0" * 32, "9" * 18 + "-" + "0" * 32],  # the last well-formed, but after 9999
)  # fmt: skip
def test_a_cursor_not_given_by_a_list_is_refused(cursor):
    with pytest.raises(InvalidInput) as refused:
        pages.position(cursor)
    assert refused.value.code == "invalid_cursor"


ZEROS = "0" * 32


@pytest.mark.parametrize(
    "cursor",
    ["\u0661\u0662\u0663-" + ZEROS, "\uff11-" + ZEROS, "\u00b2-" + ZEROS, "1\u0969-" + ZEROS],
    ids=["arabic-indic", "full-width", "superscript", "devanagari-in-ascii"],
)
def test_a_keyset_cursor_s_digits_are_ascii_digits(cursor):
    """``\\d`` took any script's digits: ``\u0661\u0662\u0663-...`` read as 123 microseconds,
    an empty page instead of a refusal."""
    with pytest.raises(InvalidInput) as refused:
        pages.position(cursor)
    assert refused.value.code == "invalid_cursor"


def test_a_page_has_a_next_cursor_only_when_more_rows_came_back():
    rows = [(AT, uuid.UUID(int=n)) for n in range(3)]
    more = pages.page(rows, 2, lambda row: row, lambda row: row[1].int)
    assert more == {"items": [0, 1], "next": pages.cursor_of(*rows[1])}
    assert pages.page(rows[:2], 2, lambda row: row, lambda row: row[1].int)["next"] is None
    assert pages.page([], 2, lambda row: row, lambda row: row) == {"items": [], "next": None}

"""The cursors of the append-only histories (ledger entries, fair rolls): the ``seq`` of
the last item shown, read by shared/pages.py like every other cursor."""

import pytest

from services.cards.pages import after
from shared.errors import InvalidInput


def test_a_history_cursor_is_the_seq_of_the_last_item_shown():
    assert after("41") == 41
    assert after(str(2**63 - 1)) == 2**63 - 1  # the last a bigint holds
    assert after(None) is None


@pytest.mark.parametrize(
    "cursor",
    [
        str(2**63),  # one past a bigint: the query failed (NumericValueOutOfRange), a 500
        "9" * 19,
        "1" * 20,
        "-1",
        "+1",
        " 1",
        "1.0",
        "",
        "\u0661\u0662\u0663",  # Arabic-Indic digits: isdigit() took them as 123
        "\u00b2",  # a superscript two: isdigit() took it, int() refused it (a 500)
        "\uff11",  # a full-width one
    ],
    ids=repr,
)
def test_a_history_cursor_past_a_bigint_or_not_ascii_digits_is_refused(cursor):
    with pytest.raises(InvalidInput) as refused:
        after(cursor)
    assert refused.value.code == "invalid_cursor"

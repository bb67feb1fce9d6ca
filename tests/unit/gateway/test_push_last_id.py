"""Where a push client resumes (``lastId``, ``Last-Event-ID``): the id of a message the
stream sent, in ASCII digits."""

import pytest

from gateway.push.routes import _last_id
from shared.errors import InvalidInput


def test_a_message_id_resumes_after_that_message():
    assert _last_id("41") == 41
    assert _last_id("9" * 20) == 10**20 - 1
    assert _last_id(None) is _last_id("") is None


@pytest.mark.parametrize(
    "raw",
    [
        "\u0661\u0662\u0663",  # Arabic-Indic digits: isdigit() took them as message 123
        "\u00b2",  # a superscript two: isdigit() took it and int() refused it (a 500)
        "\uff11",
        "-1",
        "1" * 21,
        41,
    ],
    ids=repr,
)
def test_anything_else_is_invalid_last_id(raw):
    with pytest.raises(InvalidInput) as refused:
        _last_id(raw)
    assert refused.value.code == "invalid_last_id"

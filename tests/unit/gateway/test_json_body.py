"""Reading a JSON request body: a clear 400 for anything that is not JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import Request

from gateway.http import BODY_STATE, json_body
from shared.errors import BadRequest


def request_with(body: bytes | str, content_type: str | None = "application/json") -> Request:
    """A request as the app hands it to a route: its body already read (gateway/asgi.py)."""
    if isinstance(body, str):
        body = body.encode()
    headers = [] if content_type is None else [(b"content-type", content_type.encode())]
    request = Request({"type": "http", "method": "POST", "headers": headers, "path": "/"})
    setattr(request.state, BODY_STATE, body)
    return request


def refusal(request: Request) -> BadRequest:
    with pytest.raises(BadRequest) as caught:
        json_body(request)
    return caught.value


def test_json_object_is_returned():
    assert json_body(request_with('{"name": "Ember", "cost": 3}')) == {"name": "Ember", "cost": 3}


def test_content_type_parameters_are_allowed():
    request = request_with('{"a": 1}', "application/json; charset=utf-8")

    assert json_body(request) == {"a": 1}


def test_any_json_value_is_returned_as_is():
    assert json_body(request_with("[1, 2, 3]")) == [1, 2, 3]
    assert json_body(request_with('"text"')) == "text"


def test_empty_body_is_null():
    assert json_body(request_with(b"")) is None


def test_body_can_be_read_again_after_parsing():
    request = request_with('{"a": 1}')

    json_body(request)

    assert json_body(request) == {"a": 1}


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "text/json"],
)
def test_body_that_is_not_declared_json_is_unsupported_media_type(content_type):
    error = refusal(request_with('{"a": 1}', content_type))

    assert error.code == "unsupported_media_type"
    assert error.status == 400


@pytest.mark.parametrize(
    "body",
    [b"{", b"{'a': 1}", b'{"a": 1,}', b"not json", b"\xff\xfe\x00garbage", b'{"a": "\xff"}'],
    ids=["unclosed", "single_quotes", "trailing_comma", "bare_words", "bad_bytes", "bad_utf8"],
)
def test_malformed_json_is_malformed_json(body):
    assert refusal(request_with(body)).code == "malformed_json"


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5)
    ),
    max_leaves=20,
)


@given(value=json_values)
def test_any_json_document_round_trips(value):
    assert json_body(request_with(json.dumps(value))) == value


def test_deeply_nested_body_is_refused_as_a_bad_request():
    assert refusal(request_with("[" * 50_000 + "]" * 50_000)).code == "malformed_json"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_standard_number_constants_are_malformed_json(constant):
    assert refusal(request_with(f'{{"power": {constant}}}')).code == "malformed_json"

"""How a route's return value becomes the HTTP response."""

from __future__ import annotations

import json

import pytest
from werkzeug.wrappers import Response

from gateway.entrypoints import ApiEntrypoint, RouteDoc


def entrypoint(status: int = 200) -> ApiEntrypoint:
    return ApiEntrypoint("GET", "/things", RouteDoc("Things", status=status))


def test_plain_result_is_json_with_the_documented_status():
    response = entrypoint(status=201).response_from_result({"id": "abc", "n": [1, 2]})

    assert response.status_code == 201
    assert response.mimetype == "application/json"
    assert json.loads(response.get_data(as_text=True)) == {"id": "abc", "n": [1, 2]}


@pytest.mark.parametrize("payload", [[1, 2], "text", 3, None, True])
def test_any_json_value_is_a_valid_body(payload):
    response = entrypoint().response_from_result(payload)

    assert response.status_code == 200
    assert json.loads(response.get_data(as_text=True)) == payload


def test_status_and_payload_tuple_sets_the_status():
    response = entrypoint().response_from_result((503, {"ready": False}))

    assert response.status_code == 503
    assert response.mimetype == "application/json"
    assert json.loads(response.get_data(as_text=True)) == {"ready": False}


def test_a_ready_made_response_is_passed_through_untouched():
    ready_made = Response("<p>hi</p>", status=202, content_type="text/html")

    assert entrypoint().response_from_result(ready_made) is ready_made


def test_unexpected_exception_becomes_problem_json_without_its_text():
    response = entrypoint().response_from_exception(RuntimeError("password=hunter2"))

    assert response.status_code == 500
    assert response.mimetype == "application/problem+json"
    assert "hunter2" not in response.get_data(as_text=True)


def test_the_internal_status_names_each_service():
    from gateway.routes.platform import ready_body, status_body

    names = ("accounts", "battle", "cards")
    results = {"accounts": {"ok": True}, "battle": RuntimeError("timeout"), "cards": {"ok": False}}

    assert status_body(True, results, names) == {
        "ok": False,
        "broker": "ok",
        "services": {"accounts": "ok", "battle": "unavailable", "cards": "unavailable"},
    }
    assert status_body(True, {n: {"ok": True} for n in names}, names)["ok"] is True
    assert status_body(False, {}, names) == {
        "ok": False,
        "broker": "unavailable",
        "services": dict.fromkeys(names, "unknown"),
    }
    assert ready_body(True) == {"ready": True, "broker": "ok"}
    assert ready_body(False) == {"ready": False, "broker": "unavailable"}

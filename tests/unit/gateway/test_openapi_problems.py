"""One problem type in the OpenAPI document: every error response of every operation
refers to the one ``Problem`` schema and lists its own codes beside it (``x-codes``), so a
generated client has one error type, not one per operation and status (issue 33)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gateway.app import Gateway
from gateway.openapi import build_spec
from gateway.problem_codes import GATEWAY, RETRYABLE, every_code

ROOT = Path(__file__).resolve().parents[3]
PROBLEM = {"$ref": "#/components/schemas/Problem"}
PROBLEM_JSON = "application/problem+json"
# A bare 503 of its own: readiness answers its checks as JSON, not as a problem.
NOT_PROBLEMS = {("get", "/ready", "503")}
# The distinct schemas written inline in responses (today only ``{}``, the body of a
# route that answers any JSON, HTML or a stream): a new one is a shape to name.
MAX_INLINE_RESPONSE_SCHEMAS = 3


@pytest.fixture(scope="module")
def spec():
    return build_spec(Gateway)


def _responses(spec):
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                yield (method, path, status), response


def _is_error(status: str) -> bool:
    return status == "default" or status[0] in "45"


def test_every_error_response_refers_to_the_one_problem_schema_and_adds_nothing(spec):
    for where, response in _responses(spec):
        if not _is_error(where[2]) or where in NOT_PROBLEMS:
            continue
        assert list(response["content"]) == [PROBLEM_JSON], where
        assert response["content"][PROBLEM_JSON]["schema"] == PROBLEM, where


def test_few_schemas_are_written_inline_in_responses(spec):
    inline = {
        json.dumps(media["schema"], sort_keys=True)
        for _, response in _responses(spec)
        for media in response.get("content", {}).values()
        if "$ref" not in media.get("schema", {"$ref": ""})
    }

    assert len(inline) <= MAX_INLINE_RESPONSE_SCHEMAS, sorted(inline)


def test_each_problem_response_lists_its_codes_in_x_codes_and_its_description(spec):
    for where, response in _responses(spec):
        if PROBLEM_JSON not in response.get("content", {}):
            continue
        codes = response["x-codes"]
        assert codes and codes == sorted(set(codes)), where
        for code in codes:
            assert f"`{code}`" in response["description"], (where, code)


def test_the_problem_code_enum_is_every_code_and_holds_every_operations_codes(spec):
    enum = spec["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    documented = {code for _, r in _responses(spec) for code in r.get("x-codes", ())}

    assert enum == every_code()
    assert documented <= set(enum), documented - set(enum)
    # Answered at the edge of any route, outside each route's own list.
    assert {"method_not_allowed", "cors_origin_not_allowed"} <= set(enum) - documented


def test_the_problem_schema_names_the_extension_members_clients_read(spec):
    problem = spec["components"]["schemas"]["Problem"]

    assert set(problem["properties"]) >= {
        "retryAfter",
        "scope",
        "currentVersion",
        "fields",
        "errorId",
        "requestId",
    }
    assert problem["additionalProperties"] is True


def test_the_retryable_codes_are_marked_on_the_problem_schema(spec):
    problem = spec["components"]["schemas"]["Problem"]

    assert problem["x-retryable"] == sorted(RETRYABLE)
    assert set(RETRYABLE) <= set(every_code())
    assert set(GATEWAY[503]) | {"rate_limited"} <= set(RETRYABLE)
    # Sending these again changes nothing until content is published.
    waiting = {"pack_pool_incomplete", "starter_cards_unavailable", "cpu_deck_unavailable"}
    assert not waiting & set(RETRYABLE)
    for code in RETRYABLE:
        assert f"`{code}`" in problem["description"], code


def _retry_table() -> dict[str, str]:
    """code -> status of the table under "Safe to send again" in docs/api.md."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    table = text.split("| code | status |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:
        codes, status = line.split("|")[1:3]
        for code in re.findall(r"`([a-z_]+)`", codes):
            rows[code] = status.strip()
    return rows


def test_docs_list_exactly_the_retryable_codes_under_a_status_they_are_answered_with(spec):
    table = _retry_table()

    assert set(table) == set(RETRYABLE)
    answered = {
        (code, where[2])
        for where, response in _responses(spec)
        for code in response.get("x-codes", ())
    }
    for code, status in table.items():
        assert (code, status) in answered, (code, status)

"""The OpenAPI 3.1 document generated from the gateway's routes, and the docs page."""

from __future__ import annotations

import html
import json
import re

import pytest
from marshmallow import Schema, fields
from openapi_spec_validator import validate

from gateway.app import Gateway
from gateway.http import RouteDoc, api
from gateway.openapi import api_routes, build_spec, render_docs_page

EXPECTED_PATHS = {"/me", "/health", "/ready", "/openapi.json", "/docs"}
PROBLEM = {"$ref": "#/components/schemas/Problem"}


@pytest.fixture(scope="module")
def spec():
    return build_spec(Gateway)


def test_spec_is_a_valid_openapi_3_1_document(spec):
    validate(spec)

    assert spec["openapi"] == "3.1.0"


def test_spec_is_plain_json(spec):
    assert json.loads(json.dumps(spec)) == spec


def test_spec_lists_every_public_route(spec):
    assert set(spec["paths"]) >= EXPECTED_PATHS
    for path in EXPECTED_PATHS:
        assert "get" in spec["paths"][path]


def test_spec_lists_exactly_the_api_routes_of_the_service(spec):
    from gateway.openapi import _openapi_path

    routes = {_openapi_path(route.url) for route in api_routes(Gateway)}

    assert set(spec["paths"]) == routes


def test_me_requires_a_bearer_token(spec):
    me = spec["paths"]["/me"]["get"]

    assert me["security"] == [{"bearerAuth": []}]
    assert spec["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
    }


def test_me_documents_401_403_503_as_problem_json(spec):
    responses = spec["paths"]["/me"]["get"]["responses"]

    for status in ("401", "403", "503"):
        content = responses[status]["content"]
        assert list(content) == ["application/problem+json"]
        assert content["application/problem+json"]["schema"] == PROBLEM


def _operations(spec):
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            yield f"{method.upper()} {path}", operation


def _codes(response):
    return response["x-codes"]


def test_every_operation_has_a_unique_camel_case_operation_id(spec):
    ids = {label: operation.get("operationId") for label, operation in _operations(spec)}

    assert all(ids.values()), [label for label, name in ids.items() if not name]
    assert len(set(ids.values())) == len(ids)
    for name in ids.values():
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z0-9]*)*", name), name
    assert ids["GET /me"] == "getMe"
    assert ids["POST /quest/events/{event_id}/attempt"] == "startQuestAttempt"


def test_every_operation_has_a_default_problem_response_for_500(spec):
    for label, operation in _operations(spec):
        default = operation["responses"]["default"]
        assert _codes(default) == ["internal_error"], label
        assert default["content"]["application/problem+json"]["schema"] == PROBLEM, label


def test_every_problem_response_enumerates_its_codes(spec):
    for label, operation in _operations(spec):
        for status, response in operation["responses"].items():
            if "application/problem+json" in response.get("content", {}):
                assert _codes(response), f"{label} {status}"


def test_the_codes_are_those_of_the_route(spec):
    me = spec["paths"]["/me"]["get"]["responses"]
    assert set(_codes(me["401"])) >= {"missing_token", "invalid_token", "token_expired"}
    assert "account_locked" in _codes(me["403"])
    assert "author_role_required" not in _codes(me["403"])
    authoring = spec["paths"]["/authoring/content/{content_id}"]["put"]["responses"]
    assert {"author_role_required", "own_submission"} <= set(_codes(authoring["403"]))
    assert "stale_version" in _codes(authoring["409"])
    action = spec["paths"]["/quest/battles/{match_id}/actions"]["post"]["responses"]
    assert {"not_your_turn", "stale_version"} <= set(_codes(action["409"]))
    assert "deck_not_found" not in _codes(
        spec["paths"]["/quest/attempts/{attempt_id}"]["get"]["responses"]["404"]
    )


def test_servers_default_to_the_version_on_the_serving_host_and_follow_the_setting(spec):
    assert spec["servers"] == [{"url": "/v1"}]

    urls = ["https://api.deckyard.example.com", "https://staging.deckyard.example.com"]
    configured = build_spec(Gateway, servers=urls)

    assert configured["servers"] == [{"url": url} for url in urls]
    validate(configured)


def test_the_internal_status_route_is_not_in_the_public_document(spec):
    assert "/internal/status" not in spec["paths"]


def test_me_success_response_uses_the_me_schema(spec):
    schema = spec["paths"]["/me"]["get"]["responses"]["200"]["content"]["application/json"]
    ref = schema["schema"]["$ref"].rsplit("/", 1)[-1]

    assert set(spec["components"]["schemas"][ref]["properties"]) >= {"id", "roles", "status"}


def test_problem_schema_has_the_rfc_9457_members_and_our_code(spec):
    properties = spec["components"]["schemas"]["Problem"]["properties"]

    assert set(properties) >= {"type", "title", "status", "code", "detail"}


@pytest.mark.parametrize("path", ["/health", "/openapi.json", "/docs"])
def test_public_routes_need_no_token(spec, path):
    operation = spec["paths"][path]["get"]

    assert "security" not in operation
    assert "401" not in operation["responses"]


def test_docs_route_is_documented_as_html(spec):
    assert "text/html" in spec["paths"]["/docs"]["get"]["responses"]["200"]["content"]


def test_ready_503_is_documented_with_the_body_it_really_has(spec):
    not_ready = spec["paths"]["/ready"]["get"]["responses"]["503"]["content"]

    assert "application/json" in not_ready


class _ThingSchema(Schema):
    name = fields.String(required=True)


class _DocumentedService:
    name = "documented"

    @api(
        "POST",
        "/things/<uuid:thing_id>",
        RouteDoc(
            "Edit a thing", _ThingSchema, _ThingSchema, auth="author", status=201, errors=(404, 422)
        ),
    )
    def edit(self, request, thing_id):
        return {}


def test_werkzeug_rule_becomes_an_openapi_path_with_the_route_documentation():
    spec = build_spec(_DocumentedService)

    operation = spec["paths"]["/things/{thing_id}"]["post"]

    assert operation["requestBody"]["required"] is True
    assert set(operation["responses"]) == {
        "201",
        "401",
        "403",
        "404",
        "422",
        "429",
        "503",
        "default",
    }
    assert operation["operationId"] == "edit"
    assert operation["description"] == "Requires the author role."


def test_route_with_a_path_parameter_still_gives_a_valid_document():
    spec = build_spec(_DocumentedService)

    validate(spec)

    (parameter,) = spec["paths"]["/things/{thing_id}"]["post"]["parameters"]
    assert parameter["in"] == "path"
    assert parameter["required"] is True


def test_docs_page_lists_every_path_of_the_spec(spec):
    page = render_docs_page(spec)

    for path, operations in spec["paths"].items():
        assert f"<code>{path}</code>" in page
        for operation in operations.values():
            assert html.escape(operation["summary"]) in page
    assert "<a href=/openapi.json>" in page


def test_docs_page_marks_protected_routes(spec):
    page = render_docs_page(spec)
    me_row = next(row for row in page.split("<tr>") if "<code>/me</code>" in row)

    assert "bearer token" in me_row


def test_docs_page_escapes_html_from_the_spec():
    hostile = {
        "info": {"title": "<script>alert(1)</script>", "version": "1<b>"},
        "paths": {
            "/x/<img src=x onerror=alert(2)>": {
                "get": {
                    "summary": 'Say "hi" & <i>leave</i>',
                    "responses": {"200<svg>": {}},
                }
            }
        },
    }

    page = render_docs_page(hostile)

    for raw in ("<script>", "<img", "<i>", "<svg>", "<b>"):
        assert raw not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "/x/&lt;img src=x onerror=alert(2)&gt;" in page
    assert "Say &quot;hi&quot; &amp; &lt;i&gt;leave&lt;/i&gt;" in page
    assert "200&lt;svg&gt;" in page


def _schema_classes(root: type[Schema], seen: dict[type[Schema], None]) -> None:
    """``root`` and every schema nested in it, at any depth."""
    if root in seen:
        return
    seen[root] = None
    for field in root._declared_fields.values():
        inner = getattr(field, "inner", field)  # a List's element
        nested = getattr(inner, "nested", None)
        if isinstance(nested, type) and issubclass(nested, Schema):
            _schema_classes(nested, seen)


def test_no_two_schemas_share_a_name_in_the_document():
    # apispec names a component after its class (``DeckSchema`` -> ``Deck``) and, when two
    # different classes share a name, calls the second ``Deck1``: a name that moves when a
    # route is added, and two shapes a reader takes for one.
    seen: dict[type[Schema], None] = {}
    for route in api_routes(Gateway):
        for schema in (route.doc.response, route.doc.request, route.doc.query):
            if schema is not None:
                _schema_classes(schema, seen)
    by_name: dict[str, list[str]] = {}
    for cls in seen:
        name = cls.__name__.removesuffix("Schema")
        by_name.setdefault(name, []).append(f"{cls.__module__}.{cls.__qualname__}")
    assert {name: where for name, where in by_name.items() if len(where) > 1} == {}


def test_no_component_name_carries_a_collision_suffix(spec):
    names = set(spec["components"]["schemas"])
    suffixed = {
        n for n in names if re.fullmatch(r"(.+?)\d+", n) and re.sub(r"\d+$", "", n) in names
    }
    assert suffixed == set()


# Lists of the PvP module (services/battle/pvp.py), capped at their newest 20 or 50 and
# not yet paged: issue 16's remaining item.
def test_every_list_is_a_page_never_a_bare_array(spec):
    components = spec["components"]["schemas"]
    for label, operation in _operations(spec):
        for status, response in operation["responses"].items():
            schema = response.get("content", {}).get("application/json", {}).get("schema")
            if not status.startswith("2") or not schema:
                continue
            assert schema.get("type") != "array", label
            if "$ref" in schema:
                schema = components[schema["$ref"].rsplit("/", 1)[1]]
            if "items" in schema.get("properties", {}):
                assert set(schema["properties"]) >= {"items", "next"}, label


def test_a_growing_list_takes_a_cursor_and_a_limit(spec):
    for path in ("/authoring/content", "/quest/battles", "/chronovore/matches"):
        parameters = {p["name"] for p in spec["paths"][path]["get"]["parameters"]}
        assert {"cursor", "limit"} <= parameters, path

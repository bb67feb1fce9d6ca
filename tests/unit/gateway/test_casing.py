"""The public API's one casing (gateway/casing.py): camelCase member names."""

from __future__ import annotations

import json
from typing import Any

import pytest
from marshmallow import Schema, ValidationError, fields

from gateway.app import Gateway
from gateway.casing import CamelSchema, camel, camel_schema, camelize, load, snake, snakeize
from gateway.openapi import build_spec
from gateway.problems import response_for_exception
from shared.errors import InvalidInput


@pytest.mark.parametrize(
    ("snake_name", "camel_name"),
    [
        ("accuracy_m", "accuracyM"),
        ("legal_actions", "legalActions"),
        ("hp_at_most_percent", "hpAtMostPercent"),
        ("id", "id"),
    ],
)
def test_camel_and_snake_are_inverses(snake_name, camel_name):
    assert camel(snake_name) == camel_name
    assert snake(camel_name) == snake_name


@pytest.mark.parametrize("kept", ["Wit", "7f0c-aa", "eventId", "q_1", "_private", "from"])
def test_names_that_are_not_lower_snake_case_are_kept(kept):
    assert camel(kept) == kept


def test_camelize_renames_members_at_any_depth_but_never_values():
    view = {"legal_actions": [{"kind": "use_move", "index": 0}], "you": {"must_select": True}}

    assert camelize(view) == {
        "legalActions": [{"kind": "use_move", "index": 0}],
        "you": {"mustSelect": True},
    }
    assert snakeize(camelize(view)) == view


class Claim(CamelSchema):
    accuracy_m = fields.Float(required=True)


def test_a_camel_schema_reads_camel_case_and_refuses_snake_case():
    assert Claim().load({"accuracyM": 5}) == {"accuracy_m": 5}
    with pytest.raises(ValidationError) as refused:
        Claim().load({"accuracy_m": 5})
    assert set(refused.value.messages) == {"accuracy_m", "accuracyM"}


class Setting(CamelSchema):
    questions_on = fields.Boolean(required=True)


@pytest.mark.parametrize("garbage", ["no", "true", "1", 0, 1, 1.0, None, [], {}])
def test_a_boolean_is_json_true_or_false_and_nothing_else(garbage):
    assert Setting().load({"questionsOn": True}) == {"questions_on": True}
    assert Setting().load({"questionsOn": False}) == {"questions_on": False}
    with pytest.raises(ValidationError) as refused:
        Setting().load({"questionsOn": garbage})
    assert set(refused.value.messages) == {"questionsOn"}


class Inner(Schema):
    acquired_at = fields.String()


class Shared(Schema):
    player_id = fields.String()
    copies = fields.List(fields.Nested(Inner))


def test_camel_schema_shows_a_shared_schema_and_its_nested_ones_camel_case():
    public = camel_schema(Shared)

    assert public().load({"playerId": "p", "copies": [{"acquiredAt": "now"}]}) == {
        "player_id": "p",
        "copies": [{"acquired_at": "now"}],
    }
    assert camel_schema(Shared) is public


def test_the_openapi_document_names_every_member_camel_case():
    spec = build_spec(Gateway)
    names = [
        name
        for schema in spec["components"]["schemas"].values()
        for name in schema.get("properties", {})
    ]
    query = [
        parameter["name"]
        for operations in spec["paths"].values()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query"
    ]

    assert names and all("_" not in name for name in names), names
    assert "expectedVersion" in query and all("_" not in name for name in query), query


def test_camelize_answers_a_body_as_deep_as_json_allows():
    deep: Any = {"max_hp": 1}
    for _ in range(5000):
        deep = [deep]

    renamed = camelize({"effects": deep})["effects"]

    for _ in range(5000):
        renamed = renamed[0]
    assert renamed == {"maxHp": 1}


def test_a_refusal_names_the_fields_as_the_client_sent_them():
    with pytest.raises(InvalidInput) as refused:
        load(Claim(), {"accuracy_m": 5})

    problem = json.loads(response_for_exception(refused.value).body)
    assert problem["fields"] == {
        "accuracy_m": ["Unknown field."],
        "accuracyM": ["Missing data for required field."],
    }

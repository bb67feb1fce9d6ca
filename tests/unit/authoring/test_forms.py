"""The editor's form of each kind is read from the schema authoring validates it with
(services/authoring/forms.py): the same fields, the same choices and bounds, and what
the form asks for is enough for a draft authoring accepts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from marshmallow import validate

from gateway.problem_codes import AUTHORING, codes_for
from gateway.routes.authoring_schemas import MAX_BATCH, REVIEW_ITEM_CODES
from services.authoring import kinds, review
from services.authoring.forms import form_of

EVERY_KIND = [(game, kind) for game, found in kinds.GAME_KINDS.items() for kind in found]
WIKIDATA_ID = "Q42"  # the one pattern a kind's text has (games/terrakard/articles.py)


@pytest.mark.parametrize(("game", "kind"), EVERY_KIND)
def test_a_form_has_exactly_the_fields_its_schema_loads(game, kind):
    rules = kinds.rules_for(kind, game)
    by_wire_name = {f.data_key or name: f for name, f in rules.schema().fields.items()}
    form = form_of(rules)
    assert [field["name"] for field in form] == list(by_wire_name)
    for field in form:
        assert field["required"] == by_wire_name[field["name"]].required
        assert field["private"] == (field["name"] in rules.private_fields)


def test_choices_and_bounds_are_the_validators_own():
    creature = {f["name"]: f for f in form_of(kinds.rules_for("creature", "quest"))}
    rarity = next(
        v for v in kinds.rules_for("creature", "quest").schema().fields["rarity"].validators
    )
    assert isinstance(rarity, validate.OneOf)
    assert creature["rarity"]["type"] == "choice"
    assert creature["rarity"]["choices"] == list(rarity.choices)
    assert (creature["hp"]["min"], creature["hp"]["max"]) == (1, 500)
    move = creature["moves"]["item"]
    assert creature["moves"]["type"] == "list" and creature["moves"]["max_items"] == 4
    assert [f["name"] for f in move["fields"]] == [
        "name",
        "type",
        "power_cost",
        "conditions",
        "effects",
    ]
    assert {f["name"]: f["type"] for f in move["fields"]}["effects"] == "json"
    event = {f["name"]: f for f in form_of(kinds.rules_for("event", "quest"))}
    assert event["location"]["type"] == "object"
    assert (event["radius_m"]["min"], event["radius_m"]["max"]) == (5, 500)
    assert event["starts_at"]["type"] == "datetime"
    question = {f["name"]: f for f in form_of(kinds.rules_for("question", "quest"))}
    assert question["prompt"]["multiline"] and not question["topic"].get("multiline")
    assert question["choices"]["private"] and question["choices"]["item"]["label"] == "Choice"


def _value(field: dict[str, Any], at: datetime) -> Any:
    """What an Author would enter in one required field, knowing only the form."""
    kind = field["type"]
    if kind == "choice":
        return field["choices"][0]
    if kind in ("integer", "number"):
        return field["min"] if field.get("min") is not None else 1
    if kind == "text":
        if field.get("pattern"):
            return WIKIDATA_ID
        return "A name"
    if kind == "datetime":
        return at.isoformat()
    if kind == "object":
        return _body(field["fields"], at)
    if kind == "boolean":
        return False
    return field["default"]


def _body(form: list[dict[str, Any]], start: datetime) -> dict[str, Any]:
    body = {}
    for n, field in enumerate(form):
        if field["required"]:
            body[field["name"]] = _value(field, start + timedelta(days=n))
    return body


@pytest.mark.parametrize(("game", "kind"), EVERY_KIND)
def test_the_required_fields_of_a_form_make_a_draft_authoring_accepts(game, kind):
    form = form_of(kinds.rules_for(kind, game))
    body = _body(form, datetime(2027, 1, 1, tzinfo=UTC))
    assert kinds.load_body(kind, game, body)


def test_the_route_and_the_service_bound_a_batch_alike_and_list_its_codes():
    assert MAX_BATCH == review.MAX_BATCH
    for status, codes in REVIEW_ITEM_CODES.items():
        assert set(codes) <= set(codes_for(status, AUTHORING, author=True))

"""Authoring's kinds are keyed by (game, kind): a fake second game, registered here only,
has its bodies loaded, judged ready and shown by its own rules, and Quest's are untouched."""

from __future__ import annotations

from typing import Any

import pytest
from marshmallow import fields, validate

from games.kit.refusal import Refusal
from services.authoring import kinds
from services.authoring.kind_rules import Body, KindRules
from services.authoring.quest_kinds import QUEST_KINDS
from shared.errors import InvalidInput


class UnitBody(Body):
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    atk = fields.Integer(strict=True, required=True, validate=validate.Range(0, 12))
    secret = fields.String(load_default="")


def _ready(body: dict[str, Any]) -> list[str]:
    return [] if body["atk"] else ["a unit needs some attack"]


def _no_thirteen(body: dict[str, Any]) -> dict[str, Any]:
    if body["name"] == "Thirteen":
        raise Refusal("unlucky_name", "no unit is called Thirteen")
    return body


@pytest.fixture(autouse=True)
def two_games(monkeypatch):
    unit = KindRules(UnitBody, _ready, ("secret",), is_card=True, validate=_no_thirteen)
    monkeypatch.setattr(kinds, "GAME_KINDS", {"quest": QUEST_KINDS, "duelkit": {"unit": unit}})


def test_a_kind_is_loaded_by_its_own_game_s_schema_and_validators():
    assert kinds.load_body("unit", "duelkit", {"name": " Wolf ", "atk": 3}) == {
        "name": "Wolf",
        "atk": 3,
        "secret": "",
    }
    with pytest.raises(InvalidInput) as refused:
        kinds.load_body("unit", "duelkit", {"name": "Thirteen", "atk": 3})
    assert refused.value.code == "unlucky_name"
    with pytest.raises(InvalidInput) as malformed:
        kinds.load_body("unit", "duelkit", {"name": "Wolf", "atk": 30})
    assert malformed.value.code == "invalid_content"


def test_readiness_privacy_and_card_names_are_the_game_s():
    body = {"name": "Wolf", "atk": 0, "secret": "x"}
    assert kinds.readiness_problems("unit", "duelkit", body) == ["a unit needs some attack"]
    assert kinds.public_view("unit", "duelkit", body) == {"name": "Wolf", "atk": 0}
    assert kinds.is_card("duelkit", "unit") and kinds.card_name("unit", body, "duelkit") == "wolf"


def test_a_kind_belongs_to_its_game_only():
    for kind, game in (("unit", "quest"), ("creature", "duelkit"), ("unit", "chess")):
        with pytest.raises(InvalidInput) as refused:
            kinds.rules_for(kind, game)
        assert refused.value.code == "unknown_kind"
    assert not kinds.is_card("duelkit", "creature")
    assert kinds.is_card("quest", "creature") and not kinds.is_card("quest", "question")

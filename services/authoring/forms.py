"""Each kind's form, read from the schema authoring validates its body with.

An Author's editor shows a form per kind (its fields, choices as selects, bounds as
hints), not an empty JSON box; and so that the form never says something authoring
does not check, it is not written a second time for the browser: it is read here from
the kind's marshmallow schema (services/authoring/*_kinds.py), the one that refuses a
body (422 ``invalid_content``, its messages keyed by the same field names). A field
added to a kind's schema appears in the form; a bound changed there changes the hint.

What a schema cannot say stays free: a Quest move's conditions and effects and a
Chronovore card's rewards are lists of the game's vocabulary (``type`` and its
parameters), checked by the game's own validator; the form gives them as JSON text
(``"type": "json"``), and the validator's refusal names their path.

Readiness (what must hold before review: four choices, exactly one correct) is not a
field's bound: a submission refused ``not_ready`` lists it in words.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, missing, validate

from services.authoring.kind_rules import KindRules

# Long text is edited in a text area; shorter text in one line.
LONG_TEXT_FROM = 1000

# Names whose words alone read badly as a label (ours).
LABELS = {
    "hp": "HP",
    "atk": "ATK",
    "def": "DEF",
    "lat": "Latitude",
    "lon": "Longitude",
    "radius_m": "Radius (metres)",
    "max_power": "Max power",
    "question_ids": "Question ids",
    "event_ids": "Event ids",
    "challenge_id": "Challenge id",
    "reward_definition_id": "Reward card id",
    "card_lineage_id": "Card lineage id",
    "wikidata": "Wikidata id",
    "monthly_views": "Monthly views",
    "age_years": "Age (years)",
    "formula_version": "Formula version",
    "card_class": "Class",
    "reward_eligible": "Reward eligible",
    "starts_at": "Starts at",
    "ends_at": "Ends at",
    "power_cost": "Power cost",
    "card_rarity": "Card rarity",
}
# One element of a list, for "Choice 2" and "Add a choice" (ours).
ITEM_LABELS = {
    "choices": "Choice",
    "items": "Item",
    "moves": "Move",
    "question_ids": "Question id",
    "event_ids": "Event id",
}


def label_of(name: str) -> str:
    return LABELS.get(name) or name.replace("_", " ").capitalize()


def form_of(rules: KindRules) -> list[dict[str, Any]]:
    """The fields of a kind's body, in the order its schema declares them."""
    return _fields_of(rules.schema(), frozenset(rules.private_fields))


def _fields_of(schema: Schema, private: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    found = []
    for attribute, field in schema.fields.items():
        name = field.data_key or attribute
        described = _described(name, field)
        described["private"] = attribute in private
        found.append(described)
    return found


def _described(name: str, field: fields.Field[Any]) -> dict[str, Any]:
    """One field: its name on the wire, what it holds, and the bounds the schema checks."""
    described: dict[str, Any] = {
        "name": name,
        "label": label_of(name),
        "required": bool(field.required),
        "nullable": bool(field.allow_none),
        "default": _default(field),
        "private": False,
    }
    described.update(_kind_of(name, field))
    for validator in field.validators:
        described.update(_bounds(validator, described["type"]))
    return described


def _default(field: fields.Field[Any]) -> Any:
    default = field.load_default
    if default is missing:
        return None
    return default() if callable(default) else default


def _kind_of(name: str, field: fields.Field[Any]) -> dict[str, Any]:
    if isinstance(field, fields.Nested):
        nested = field.schema
        return {"type": "object", "fields": _fields_of(nested)}
    if isinstance(field, fields.List):
        inner = field.inner
        item = _described(name, inner)
        item["label"] = ITEM_LABELS.get(name, label_of(name))
        if item["type"] == "json":  # a list of the game's vocabulary: JSON as a whole
            return {"type": "json"}
        return {"type": "list", "item": item}
    if isinstance(field, fields.Boolean):
        return {"type": "boolean"}
    if isinstance(field, fields.Integer):
        return {"type": "integer"}
    if isinstance(field, fields.Float):
        return {"type": "number"}
    if isinstance(field, fields.DateTime):
        return {"type": "datetime"}
    if isinstance(field, fields.UUID):
        return {"type": "id"}
    if isinstance(field, fields.String):
        return {"type": "text"}
    return {"type": "json"}  # Dict, Raw: free-form, the game's validator judges it


def _bounds(validator: Any, kind: str) -> dict[str, Any]:
    if isinstance(validator, validate.OneOf):
        return {"type": "choice", "choices": [str(choice) for choice in validator.choices]}
    if isinstance(validator, validate.Range):
        return {"min": validator.min, "max": validator.max}
    if isinstance(validator, validate.Regexp):
        return {"pattern": validator.regex.pattern}
    if isinstance(validator, validate.Length):
        low = validator.equal if validator.equal is not None else validator.min
        high = validator.equal if validator.equal is not None else validator.max
        if kind in ("list", "json"):  # a list's bounds count its elements
            return {"min_items": low, "max_items": high}
        bounds: dict[str, Any] = {"min_length": low, "max_length": high}
        if kind == "text" and high is not None and high >= LONG_TEXT_FROM:
            bounds["multiline"] = True
        return bounds
    return {}

"""Loading payloads through marshmallow schemas, with our error type."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import date
from typing import Any

from marshmallow import Schema, ValidationError

from shared.errors import InvalidInput


def load(schema: Schema, data: Any) -> dict[str, Any]:
    """Validate and deserialise ``data``; refuse it with the field errors."""
    if not isinstance(data, Mapping):
        raise InvalidInput("invalid_body", "the body must be a JSON object")
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as exc:
        raise InvalidInput(
            "validation_failed", "some fields are invalid", {"fields": exc.messages_dict}
        ) from exc
    return loaded


def jsonable(value: Any) -> Any:
    """A plain answer as JSON can carry it: ids and times as strings (ISO 8601), dates
    too; mappings and sequences converted all the way down. For answers that are plain
    dicts built by handlers rather than dumped by a schema."""
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, (uuid.UUID, date)):  # datetime is a date
        return value.isoformat() if isinstance(value, date) else str(value)
    return value

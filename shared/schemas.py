"""Loading payloads through marshmallow schemas, with our error type."""

from __future__ import annotations

from collections.abc import Mapping
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

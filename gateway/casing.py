"""The public API's one JSON casing: camelCase member names (docs/api.md).

The services speak snake_case among themselves; the gateway converts at its edge,
here and nowhere else:

- request and documented response schemas derive from ``CamelSchema``, whose field
  names are snake_case attributes and whose wire names (``data_key``) are generated:
  a snake_case request member is an unknown field, refused with the usual 422;
- shapes that a service also uses (``shared/``) are documented through
  ``camel_schema(SharedSchema)``, the same fields under their camelCase names;
- every JSON answer (bodies and problem extension members) passes ``camelize``,
  which renames member names at any depth, including inside free-form members
  such as a battle view's ``you`` or a content ``body``; values are never touched,
  so codes and enum values (``use_move``, ``in_review``) stay as they are; a
  refusal's ``fields`` name what the client sent (``load``), not a renaming of it.

Only names that are lower snake_case change, so ids, affinities ("Wit") and keys that
are already camelCase pass through as they came.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from marshmallow import Schema, fields

from shared.errors import InvalidInput
from shared.schemas import load as shared_load

# A segment starts with a letter, so every name ``camel`` makes goes back by ``snake``.
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)+")
_CAMEL = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")
_AFTER_UNDERSCORE = re.compile(r"_([a-z])")
_UPPER = re.compile(r"([A-Z])")


# Answers repeat the same few hundred names; bounded, as a body's names are the client's.
@lru_cache(maxsize=4096)
def camel(name: str) -> str:
    """``accuracy_m`` -> ``accuracyM``; anything that is not lower snake_case is kept."""
    if not _SNAKE.fullmatch(name):
        return name
    return _AFTER_UNDERSCORE.sub(lambda match: match.group(1).upper(), name)


@lru_cache(maxsize=4096)
def snake(name: str) -> str:
    """``accuracyM`` -> ``accuracy_m``: the inverse of ``camel`` on the names it makes."""
    if not _CAMEL.fullmatch(name):
        return name
    return _UPPER.sub(lambda match: "_" + match.group(1).lower(), name)


def camelize(value: Any) -> Any:
    """``value`` with every object member name in camelCase, at any depth."""
    return _renamed(value, camel)


def snakeize(value: Any) -> Any:
    """``value`` with every object member name back in snake_case, for a service."""
    return _renamed(value, snake)


class AsSent(dict[str, Any]):
    """Member names that stay as they are: the fields a client sent and we refused
    (``{"expected_version": ["Unknown field."]}`` must name what was sent)."""


def _renamed(value: Any, rename: Callable[[str], str]) -> Any:
    """A copy of ``value`` with its member names renamed. Iterative, so that a body as
    deep as ``json.loads`` allowed is answered, not a RecursionError (a 500)."""
    if not _renamable(value):
        return value
    top: list[Any] = [None]
    pending: list[tuple[Any, Any, Any]] = [(value, top, 0)]
    while pending:
        source, parent, slot = pending.pop()
        copy: Any
        if isinstance(source, dict):
            copy = {}
            for key, item in source.items():
                name = rename(key) if isinstance(key, str) else key
                copy[name] = item
                if _renamable(item):
                    pending.append((item, copy, name))
        else:
            copy = list(source)
            pending.extend((item, copy, i) for i, item in enumerate(source) if _renamable(item))
        parent[slot] = copy
    return top[0]


def _renamable(value: Any) -> bool:
    return isinstance(value, dict | list | tuple) and not isinstance(value, AsSent)


def load(schema: Schema, data: Any) -> dict[str, Any]:
    """``shared.schemas.load`` for a request: a refusal names the fields as they were sent."""
    try:
        return shared_load(schema, data)
    except InvalidInput as exc:
        if isinstance(exc.details, dict) and isinstance(exc.details.get("fields"), dict):
            exc.details = {**exc.details, "fields": AsSent(exc.details["fields"])}
        raise


class _Only:
    """A one-value "set" by identity: ``1 in {True}`` holds in Python, ``1 in _Only(True)``
    does not."""

    def __init__(self, value: bool) -> None:
        self._value = value

    def __contains__(self, candidate: object) -> bool:
        return candidate is self._value

    def __bool__(self) -> bool:
        return True


class CamelSchema(Schema):
    """A schema whose snake_case field names are camelCase on the wire (and in OpenAPI).

    Its booleans take JSON's ``true`` and ``false`` only: marshmallow's own would read
    ``"no"``, ``"off"``, ``0`` or ``"1"`` as one, and a garbage type is refused (422)."""

    def on_bind_field(self, field_name: str, field_obj: fields.Field[Any]) -> None:
        if field_obj.data_key is None:
            field_obj.data_key = camel(field_name)
        if isinstance(field_obj, fields.Boolean):
            field_obj.truthy, field_obj.falsy = _Only(True), _Only(False)  # type: ignore[assignment]


@cache
def camel_schema(schema_cls: type[Schema]) -> type[Schema]:
    """``schema_cls`` as the public API shows it: the same fields, camelCase names,
    nested schemas converted too. For shapes a service shares from ``shared/``."""
    if issubclass(schema_cls, CamelSchema):
        return schema_cls
    nested: dict[str, fields.Field[Any]] = {}
    for name, field in schema_cls._declared_fields.items():
        converted = _camel_field(field)
        if converted is not field:
            nested[name] = converted
    return type(schema_cls.__name__, (CamelSchema, schema_cls), nested)


def _camel_field(field: fields.Field[Any]) -> fields.Field[Any]:
    if isinstance(field, fields.Nested) and isinstance(field.nested, type):
        copy = fields.Nested(camel_schema(field.nested), many=field.many, **_options(field))
        return copy
    if isinstance(field, fields.List) and isinstance(field.inner, fields.Nested):
        return fields.List(_camel_field(field.inner), **_options(field))
    return field


def _options(field: fields.Field[Any]) -> dict[str, Any]:
    return {"allow_none": field.allow_none, "metadata": dict(field.metadata)}

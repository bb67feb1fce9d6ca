"""Every list the API answers is a page: ``{"items": [...], "next": cursor | null}``
(docs/api.md, "Lists"). A list that can grow is read a page at a time with ``?cursor=``
and ``?limit=`` (the services' keyset, shared/pages.py); a list bounded by the rules (a
player's 20 decks, a game's pack kinds) comes whole, ``next`` null, so a client reads
every list the same way and a bound may grow into pages without a new shape."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import Schema, fields, validate

from gateway.casing import CamelSchema
from shared.pages import DEFAULT_PAGE, MAX_PAGE

NEXT_DESCRIPTION = "The cursor of the next page; null at the end"


class PageQuery(CamelSchema):
    # Query parameters are text: "20" is the number 20. The cursor's form is the
    # service's to judge (422 invalid_cursor): here only a bound against abuse.
    cursor = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=60),
        metadata={"description": "The previous page's next"},
    )
    limit = fields.Integer(
        load_default=DEFAULT_PAGE,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": f"At most {MAX_PAGE} (default {DEFAULT_PAGE})"},
    )


def page_schema(
    name: str, item: type[Schema] | fields.Field[Any], order: str, **more: fields.Field[Any]
) -> type[Schema]:
    """``{items: [item], next}``, named ``name`` in the OpenAPI document (``QuestDeckPage``:
    ``name`` must be unique there); ``order`` says how the items come; ``more``: fields
    the list gives beside its page (your pseudonym, your record), on every page."""
    inner = item if isinstance(item, fields.Field) else fields.Nested(item)
    members: dict[str, Any] = {
        # Required: every page has both (a typed client need not guess).
        "items": fields.List(inner, required=True, metadata={"description": order}),
        "next": fields.String(
            required=True, allow_none=True, metadata={"description": NEXT_DESCRIPTION}
        ),
        "__doc__": f"A page of a list: {order.lower()}.",
        **more,
    }
    return type(f"{name}Schema", (CamelSchema,), members)


def whole(items: Iterable[Any]) -> dict[str, Any]:
    """A list bounded by the rules, as its one page."""
    return {"items": list(items), "next": None}

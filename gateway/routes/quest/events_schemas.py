"""Schemas of Quest's events and the location a player claims.

The challenge service shares the shapes of ``shared/quest_schemas.py``; the API
shows them camelCase (``camel_schema``) and reads numbers strictly as JSON numbers.
"""

from typing import Any

from marshmallow import fields, validate

from gateway.casing import CamelSchema, camel_schema
from gateway.routes.pages import page_schema
from shared.quest_schemas import LocationClaimSchema, NearbyEventSchema, PointSchema

NearbyEvent = camel_schema(NearbyEventSchema)
PointQuery = camel_schema(PointSchema)


class JsonNumber(fields.Float):
    """A JSON number: marshmallow's Float would also take the string "51.5" (or " 5 ")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class LocationClaimRequest(CamelSchema, LocationClaimSchema):
    """The claim as the body carries it: numbers are JSON numbers, as documented."""

    lat = JsonNumber(required=True, allow_nan=False, validate=validate.Range(-90, 90))
    lon = JsonNumber(required=True, allow_nan=False, validate=validate.Range(-180, 180))
    accuracy_m = JsonNumber(required=True, allow_nan=False, validate=validate.Range(min=0))


NearbyEventPage = page_schema(
    "NearbyEventPage", NearbyEvent, "Nearest first: the nearest 100 open within 5 km"
)

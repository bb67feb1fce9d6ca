"""Payload schemas the gateway and the challenge service share: points and location claims."""

from marshmallow import Schema, fields, validate


class PointSchema(Schema):
    lat = fields.Float(required=True, allow_nan=False, validate=validate.Range(-90, 90))
    lon = fields.Float(required=True, allow_nan=False, validate=validate.Range(-180, 180))


class LocationClaimSchema(PointSchema):
    """What the phone reports: where, how accurately, and when it measured it."""

    accuracy_m = fields.Float(required=True, allow_nan=False, validate=validate.Range(min=0))
    acquired_at = fields.AwareDateTime(required=True)


class EventSchema(Schema):
    """A published event as anyone may see it: no answer data."""

    id = fields.UUID()
    name = fields.String()
    description = fields.String()
    lat = fields.Float()
    lon = fields.Float()
    radius_m = fields.Integer()
    starts_at = fields.AwareDateTime()
    ends_at = fields.AwareDateTime()


class NearbyEventSchema(EventSchema):
    """An event with its distance from the asker."""

    distance_m = fields.Float()

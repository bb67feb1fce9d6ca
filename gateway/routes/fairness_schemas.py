"""Schemas of a player's provably fair rolls (docs/fairness.md): seeds, rolls, export."""

from __future__ import annotations

from marshmallow import fields, validate

from gateway.casing import CamelSchema

HASH_HELP = "SHA-256 of the active server seed (64 hex digits), shown before any roll"


class FairnessStateSchema(CamelSchema):
    server_seed_hash = fields.String(metadata={"description": HASH_HELP})
    client_seed = fields.String(metadata={"example": "my-client-seed"})
    nonce = fields.Integer(metadata={"description": "The next roll's nonce"})
    since = fields.AwareDateTime(metadata={"description": "When this server seed began"})


class ClientSeedRequest(CamelSchema):
    # The rule (1-64 of A-Z a-z 0-9 _ . -) is the cards service's: 422 invalid_client_seed.
    client_seed = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"example": "my-client-seed", "description": "1-64 of A-Z a-z 0-9 _ . -"},
    )


class RevealedSeedSchema(CamelSchema):
    server_seed = fields.String(metadata={"description": "The old seed, 64 hex digits"})
    server_seed_hash = fields.String()
    client_seed = fields.String()
    rolls = fields.Integer(metadata={"description": "How many rolls it made (nonces 0..n-1)"})
    since = fields.AwareDateTime()
    revealed_at = fields.AwareDateTime()


class RotationSchema(CamelSchema):
    revealed = fields.Nested(RevealedSeedSchema)
    active = fields.Nested(FairnessStateSchema)


class DrawSchema(CamelSchema):
    key = fields.String(metadata={"example": "rarity.0", "description": "What it decided"})
    options = fields.List(fields.String())
    weights = fields.List(fields.Integer())
    outcome = fields.String()


class RollSourceSchema(CamelSchema):
    type = fields.String(
        metadata={"example": "pack", "description": "reward | pack | starter | terrain"}
    )
    id = fields.String(
        metadata={"description": "The attempt, the pack, the player (starter) or the attack"}
    )


class RollSchema(CamelSchema):
    id = fields.UUID()
    purpose = fields.String(metadata={"example": "chronovore.pack.core"})
    source = fields.Nested(RollSourceSchema)
    server_seed_hash = fields.String()
    server_seed = fields.String(
        allow_none=True, metadata={"description": "null until the seed is rotated"}
    )
    client_seed = fields.String()
    nonce = fields.Integer()
    draws = fields.List(fields.Nested(DrawSchema), metadata={"description": "In order"})
    rolled_at = fields.AwareDateTime()


class RollPageSchema(CamelSchema):
    items = fields.List(fields.Nested(RollSchema), metadata={"description": "Newest first"})
    next = fields.String(
        allow_none=True, metadata={"description": "The cursor of the next page; null at the end"}
    )


class ExportQuery(CamelSchema):
    cursor = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=20),
        metadata={"description": "Continue a long history from the previous export's next"},
    )


# -- match seeds (docs/fairness.md, "Match seeds") ------------------------------------------


class MatchSeedSchema(CamelSchema):
    """A match's seed, committed from the first answer and revealed once it is over."""

    commitment = fields.String(
        allow_none=True,
        metadata={
            "description": 'SHA-256 of "{seed}:{salt}" (64 hex digits), from the first '
            "answer on; null for a match started before commitments"
        },
    )
    seed = fields.String(
        allow_none=True,
        metadata={"description": "The match seed in decimal; null until the match is over"},
    )
    salt = fields.String(
        allow_none=True, metadata={"description": "64 hex digits; null until the match is over"}
    )


class MatchSeatSchema(CamelSchema):
    seat = fields.String(metadata={"example": "cpu"})
    kind = fields.String(metadata={"description": "player | cpu | plan"})


class MatchLogEntrySchema(CamelSchema):
    seq = fields.Integer(metadata={"description": "The match version this action produced"})
    seat = fields.String()
    action = fields.Dict(metadata={"description": "The action as logged (the engine's JSON)"})
    at = fields.AwareDateTime()


class MatchReplaySchema(CamelSchema):
    """What `deckyard verify` replays a finished match from (docs/fairness.md)."""

    game = fields.String(metadata={"example": "quest"})
    mode = fields.String(metadata={"example": "cpu"})
    started_at = fields.AwareDateTime()
    seats = fields.List(fields.Nested(MatchSeatSchema))
    setup = fields.Dict(metadata={"description": "The settings and each seat's deck as brought"})
    log = fields.List(fields.Nested(MatchLogEntrySchema))
    results = fields.Dict(metadata={"description": "Each seat's result"})


def match_seed() -> fields.Nested:
    return fields.Nested(MatchSeedSchema)


def match_replay() -> fields.Nested:
    return fields.Nested(
        MatchReplaySchema,
        allow_none=True,
        metadata={"description": "Once the match is over (not for TerraKard attacks)"},
    )

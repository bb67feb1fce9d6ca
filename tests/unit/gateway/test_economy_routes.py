"""The economy routes' own rules: the games a path may name, the Idempotency-Key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.requests import Request

from gateway.app import Gateway
from gateway.http import ECONOMY_GAMES, path_pattern
from gateway.openapi import build_spec, named_api_routes
from gateway.routes.economy import client_key
from shared.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[3]


def test_the_economy_games_are_the_games_that_keep_a_ledger():
    currencies = json.loads(
        (ROOT / "services/cards/economy_data/currencies.json").read_text(encoding="utf-8")
    )
    assert set(ECONOMY_GAMES) == {game for game in currencies if not game.startswith("_")}


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        ("/chronovore/wallet", True),
        ("/terrakard/wallet", True),
        ("/quest/wallet", False),  # Quest keeps no currency: no such route
        ("/Chronovore/wallet", False),
        ("/chronovoreX/wallet", False),
        ("/chronovore|terrakard/wallet", False),
    ],
)
def test_an_economy_path_names_one_of_those_games(path, matches):
    assert (path_pattern("/<economy:game>/wallet").fullmatch(path) is not None) is matches


def test_no_public_route_grants_currency_and_every_operation_id_is_unique():
    spec = build_spec(Gateway)
    ids = [op["operationId"] for ops in spec["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids))
    handlers = {name for name, _ in named_api_routes(Gateway)}
    assert not [name for name in handlers if "grant" in name]
    assert not [path for path in spec["paths"] if "grant" in path]
    game = spec["paths"]["/{game}/wallet"]["get"]["parameters"][0]
    assert game["schema"] == {"type": "string", "enum": list(ECONOMY_GAMES)}


def _request(key: str | None) -> Request:
    headers = [] if key is None else [(b"idempotency-key", key.encode("latin-1"))]
    return Request({"type": "http", "method": "POST", "path": "/", "headers": headers})


def test_a_client_key_is_required_printable_at_most_64_and_kept_apart():
    assert client_key(_request("k-1")) == "api:k-1"
    assert client_key(_request("x" * 64)) == "api:" + "x" * 64
    for key, code in (
        (None, "idempotency_key_required"),
        ("", "invalid_idempotency_key"),
        ("x" * 65, "invalid_idempotency_key"),
        ("with space", "invalid_idempotency_key"),
        ("caf\xe9", "invalid_idempotency_key"),
    ):
        with pytest.raises(InvalidInput) as refused:
            client_key(_request(key))
        assert refused.value.code == code, key

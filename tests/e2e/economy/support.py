"""What the economy's end-to-end tests share: the published Chronovore Core Set (packs
draw from it), a player that remembers every answer it was given, and packs and
currency given the server's way (over RPC: no public route grants anything)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.e2e.quest import test_cards_api as cards_api
from tests.helpers import wait_for
from tests.random_refs import random_sub

starters = cards_api.starters  # the seed: Quest's catalogue and Chronovore's Core Set
GAME = "chronovore"
RARITIES = {"common", "uncommon", "rare", "epic", "mythic"}


@pytest.fixture
def core_set(api, starters):
    """The Core Set as the cards service offers it: every rarity a pack can give."""

    def every_rarity() -> bool:
        seen = {d["rarity"] for d in api.get(f"/cards/catalogue?game={GAME}").json()["items"]}
        return seen >= RARITIES

    wait_for(every_rarity, timeout=60)


class Player:
    def __init__(self, api: Any) -> None:
        self.api = api
        self.token = api.token(random_sub("economy"))
        self.answers: list[str] = []  # every body this player was sent, to search
        self.id = self.call("GET", "/me").json()["id"]

    def call(self, method: str, path: str, body: Any = None, key: str | None = None):
        headers = {"Authorization": f"Bearer {self.token}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        extra = {} if body is None else {"json": body}
        response = self.api.request(method, path, headers=headers, **extra)
        self.answers.append(response.text)
        return response

    def ok(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        response = self.call(method, path, body, key)
        assert response.status_code in (200, 201), (method, path, response.text)
        return response.json()


def grant_packs(rpc: Any, player_id: str, quantity: int = 1, kind: str = "core") -> list[str]:
    """Packs as a reward gives them: a server-side grant."""
    grant = rpc.cards.grant_packs(
        player_id=player_id,
        game=GAME,
        kind=kind,
        quantity=quantity,
        source_type="test",
        source_id="e2e",
        idempotency_key=f"test:{uuid.uuid4().hex}",
    )
    return list(grant["packs"])


def grant_gold(rpc: Any, player_id: str, amount: int, currency: str = "gold") -> None:
    rpc.cards.grant(
        player_id=player_id,
        game=GAME,
        currency=currency,
        amount=amount,
        reason="test reward",
        idempotency_key=f"test:{uuid.uuid4().hex}",
    )


def grant_fragments(rpc: Any, player_id: str, amount: int) -> None:
    grant_gold(rpc, player_id, amount, currency="fragments")


def key() -> str:
    return f"k-{uuid.uuid4().hex}"

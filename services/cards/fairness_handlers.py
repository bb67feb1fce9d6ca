"""Provably fair rolls in cards: the player's seeds, their rolls, rotation (issue 22).

A player's first roll (or first look at their fairness state) creates their seed pair:
32 bytes from the service's random source as the server seed, whose SHA-256 is shown
from then on, and a generated client seed. Each roll that decides what the player gets
(a Quest reward, a pack opening) takes the seed's next nonce and is stored with the seed,
client seed, nonce, purpose and every draw, in the transaction that grants its result,
so it exists before anyone sees it. A retried reward or opening finds its result first
and takes no nonce. Rotation reveals the seed and starts a new one with the same client
seed. The derivation and the verifier are ``games/kit/fair.py``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from games.kit.fair import SEED_BYTES, Roller, check_client_seed, check_purpose, seed_hash
from services.cards.fairness_store import Seed, SqlFairness
from services.cards.pages import DEFAULT_PAGE, after, page
from shared.clock import Clock
from shared.errors import Conflict, InvalidInput
from shared.player_gate import PlayerGate
from shared.randomness import RandomSource

T = TypeVar("T")

CLIENT_SEED_BYTES = 16  # the default client seed: 32 hex digits


def new_seed(
    player_id: uuid.UUID, rng: RandomSource, clock: Clock, client_seed: str | None = None
) -> Seed:
    server_seed = rng.token_bytes(SEED_BYTES)
    return Seed(
        id=uuid.uuid4(),
        player_id=player_id,
        server_seed=server_seed.hex(),
        server_seed_hash=seed_hash(server_seed),
        client_seed=client_seed or rng.token_bytes(CLIENT_SEED_BYTES).hex(),
        next_nonce=0,
        created_at=clock.now(),
    )


def active_seed(
    player_id: uuid.UUID, fairness: SqlFairness, rng: RandomSource, clock: Clock
) -> Seed:
    """The player's active seed, made on first need (the caller holds the player's gate,
    so two first needs cannot both make one)."""
    seed = fairness.active(player_id)
    if seed is None:
        seed = new_seed(player_id, rng, clock)
        fairness.add_active(seed)
    return seed


def state_view(seed: Seed) -> dict[str, Any]:
    """What a player may know of the active seed: never the seed itself."""
    return {
        "server_seed_hash": seed.server_seed_hash,
        "client_seed": seed.client_seed,
        "nonce": seed.next_nonce,
        "since": seed.created_at,
    }


@dataclass
class PlayerDraws:
    """The fair draws of one roll for one player: the nonce is taken at the first draw
    (a roll that draws nothing, such as a score that earns no card, takes none)."""

    player_id: uuid.UUID
    purpose: str
    fairness: SqlFairness
    rng: RandomSource
    clock: Clock
    _roller: Roller | None = None
    _seed: Seed | None = None

    def _current(self) -> Roller:
        if self._roller is None:
            seed = active_seed(self.player_id, self.fairness, self.rng, self.clock)
            nonce = self.fairness.take_nonce(seed.id)
            self._seed = seed
            self._roller = Roller(
                bytes.fromhex(seed.server_seed), seed.client_seed, nonce, self.purpose
            )
        return self._roller

    def weighted(
        self,
        key: str,
        options: Sequence[T],
        weights: Sequence[int],
        label: Callable[[T], str] = str,
    ) -> T:
        return self._current().weighted(key, options, weights, label)

    def choice(self, key: str, options: Sequence[T], label: Callable[[T], str] = str) -> T:
        return self._current().choice(key, options, label)

    def record(self, source_type: str, source_id: object) -> uuid.UUID | None:
        """Store the roll (in the caller's transaction); its id, or None if nothing was drawn."""
        if self._roller is None or self._seed is None:
            return None
        roll_id = uuid.uuid4()
        self.fairness.add_roll(
            {
                "id": roll_id,
                "player_id": self.player_id,
                "seed_id": self._seed.id,
                "nonce": self._roller.nonce,
                "client_seed": self._roller.client_seed,
                "purpose": self.purpose,
                "source_type": source_type,
                "source_id": str(source_id),
                "draws": [draw.to_dict() for draw in self._roller.draws],
                "rolled_at": self.clock.now(),
            }
        )
        return roll_id

    def receipt(self) -> dict[str, Any] | None:
        """What the player is shown with the result: enough to find the roll again."""
        if self._roller is None or self._seed is None:
            return None
        return {
            "server_seed_hash": self._seed.server_seed_hash,
            "client_seed": self._roller.client_seed,
            "nonce": self._roller.nonce,
            "purpose": self.purpose,
        }


def roll_view(roll: dict[str, Any]) -> dict[str, Any]:
    """A stored roll with everything needed to verify it; the server seed only once it
    has been revealed by a rotation (the export ``deckyard verify`` reads)."""
    revealed = roll["revealed_at"] is not None
    return {
        "id": roll["id"],
        "purpose": roll["purpose"],
        "source": {"type": roll["source_type"], "id": roll["source_id"]},
        "server_seed_hash": roll["server_seed_hash"],
        "server_seed": roll["server_seed"] if revealed else None,
        "client_seed": roll["client_seed"],
        "nonce": roll["nonce"],
        "draws": roll["draws"],
        "rolled_at": roll["rolled_at"],
    }


# -- the player's use cases -----------------------------------------------------------


def fairness_state(
    player_id: uuid.UUID,
    fairness: SqlFairness,
    players: PlayerGate,
    rng: RandomSource,
    clock: Clock,
) -> dict[str, Any]:
    players.admit(player_id)  # may create the seed: a write for the player
    return state_view(active_seed(player_id, fairness, rng, clock))


def set_client_seed(
    player_id: uuid.UUID,
    client_seed: str,
    fairness: SqlFairness,
    players: PlayerGate,
    rng: RandomSource,
    clock: Clock,
) -> dict[str, Any]:
    """Any time; the nonce goes on counting under the same server seed, so no message
    is ever used twice under one seed (docs/fairness.md, "Client seed")."""
    try:
        check_client_seed(client_seed)
    except ValueError as exc:
        raise InvalidInput("invalid_client_seed", str(exc)) from None
    players.admit(player_id)
    seed = active_seed(player_id, fairness, rng, clock)
    fairness.set_client_seed(seed.id, client_seed)
    return state_view(fairness.active(player_id) or seed)


def rotate(
    player_id: uuid.UUID,
    fairness: SqlFairness,
    players: PlayerGate,
    rng: RandomSource,
    clock: Clock,
) -> dict[str, Any]:
    """Reveal the active seed and start a new one with the same client seed."""
    players.admit(player_id)
    old = active_seed(player_id, fairness, rng, clock)
    revealed = fairness.reveal(old.id, clock.now())
    new = new_seed(player_id, rng, clock, client_seed=old.client_seed)
    fairness.add_active(new)
    return {
        "revealed": {
            "server_seed": revealed.server_seed,
            "server_seed_hash": revealed.server_seed_hash,
            "client_seed": revealed.client_seed,
            "rolls": revealed.next_nonce,
            "since": revealed.created_at,
            "revealed_at": revealed.revealed_at,
        },
        "active": state_view(new),
    }


def fair_choice(
    player_id: uuid.UUID,
    purpose: str,
    key: str,
    source: tuple[str, str],
    options: Sequence[str],
    uow: Any,
    rng: RandomSource,
    clock: Clock,
) -> dict[str, Any]:
    """A uniform choice among ``options`` from the player's seeds, for another service
    (battle: a TerraKard attack's terrain, keyed by the attack), stored before it is
    answered. Asked again for the same source, it answers the stored roll and takes no
    nonce; a source already rolled for another player or purpose is refused."""
    try:
        check_purpose(purpose)
    except ValueError as exc:
        raise InvalidInput("invalid_purpose", str(exc)) from None
    uow.players.admit(player_id)
    stored = uow.fairness.roll_of(*source)
    if stored is None:
        draws = PlayerDraws(player_id, purpose, uow.fairness, rng, clock)
        draws.choice(key, list(options))
        draws.record(*source)
        stored = uow.fairness.roll_of(*source)
    elif stored["player_id"] != player_id or stored["purpose"] != purpose:
        raise Conflict("roll_source_taken", "this source was rolled for another purpose")
    return {
        "outcome": stored["draws"][0]["outcome"],
        "roll": {
            "server_seed_hash": stored["server_seed_hash"],
            "client_seed": stored["client_seed"],
            "nonce": stored["nonce"],
            "purpose": stored["purpose"],
        },
    }


def roll_history(
    player_id: uuid.UUID,
    cursor: str | None,
    fairness: SqlFairness,
    limit: int = DEFAULT_PAGE,
) -> dict[str, Any]:
    rows = fairness.rolls(player_id, after(cursor), limit + 1)
    return page(rows, limit, lambda row: row["seq"], roll_view)

"""Challenge rewards: roll once per completed attempt by its game's rules, on the
player's provably fair draws (fairness_handlers), own the cards, say so."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from services.cards.fairness_handlers import PlayerDraws
from services.cards.games import CARD_GAMES, CardGames, new_copies
from services.cards.ownership_store import OwnedCopy, RewardGrant
from services.cards.repository import CardsUnitOfWork
from shared.clock import Clock
from shared.events import REWARD_GRANTED, Event, new_event
from shared.randomness import RandomSource

ATTEMPT_COMPLETED_CONSUMER = "cards.grant_reward"
REWARD_SOURCE = "reward"
log = logging.getLogger(__name__)


def grant_reward(
    event: Event,
    uow: CardsUnitOfWork,
    rng: RandomSource,
    clock: Clock,
    games: CardGames = CARD_GAMES,
) -> bool:
    """Roll the reward of a completed attempt and grant its cards, in one transaction.

    Keyed twice: by message (a redelivery) and by attempt (the same completion
    sent again as another message). Either way the second one changes nothing,
    emits nothing and takes no nonce; the first committed roll is the only one there
    will ever be, stored with its seed hash, client seed and nonce (``fair_rolls``).
    ``rng`` only makes the player's seeds, the first time they are needed.
    Returns whether this call granted.
    """
    if not uow.inbox.first_delivery(event.event_id, ATTEMPT_COMPLETED_CONSUMER):
        return False
    data = event.data
    attempt_id: uuid.UUID = data["attempt_id"]
    player_id: uuid.UUID = data["player_id"]
    if not uow.players.admits(player_id):
        # A completion still on its way when the account was deleted: no new cards.
        log.info("no reward for attempt %s: its player's data was purged", attempt_id)
        return False
    if uow.rewards.exists(attempt_id):
        return False
    game = data["game"]
    rules = games.rules(game)
    pool = uow.definitions.pool(game, rules.reward_pool)
    draws = PlayerDraws(player_id, f"{game}.reward", uow.fairness, rng, clock)
    definitions = rules.roll_reward(data["correct_count"], pool, draws)
    now = clock.now()
    grant = RewardGrant(
        attempt_id,
        player_id,
        data["event_id"],
        data["correct_count"],
        [definition["rarity"] for definition in definitions],
        now,
    )
    if not uow.rewards.add_if_new(grant):
        # Unreachable behind the player's gate (the exists() above ran after it); if it
        # ever happened, roll back rather than commit a nonce spent on nothing.
        raise RuntimeError(f"attempt {attempt_id} was granted concurrently")
    copies = new_copies(
        rules, player_id, [d["id"] for d in definitions], (REWARD_SOURCE, attempt_id), now
    )
    uow.owned.add_all(copies)
    draws.record(REWARD_SOURCE, attempt_id)
    uow.events.add_event(
        new_event(
            REWARD_GRANTED,
            {
                "attempt_id": attempt_id,
                "player_id": player_id,
                "game": game,
                "correct_count": data["correct_count"],
                "cards": [
                    _granted_card(copy, definition)
                    for copy, definition in zip(copies, definitions, strict=True)
                ],
                "granted_at": now,
            },
            occurred_at=now,
        )
    )
    return True


def _granted_card(copy: OwnedCopy, definition: dict[str, Any]) -> dict[str, Any]:
    return {
        "owned_card_id": copy.id,
        "definition_id": definition["id"],
        "name": definition["name"],
        "kind": definition["kind"],
        "rarity": definition["rarity"],
        "finish": copy.finish,
        "attributes": definition["attributes"],
    }

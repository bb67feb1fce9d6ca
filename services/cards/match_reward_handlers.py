"""A currency for finishing a match (Chronovore's Gold), from battle's MatchFinished.

Each seated player gets the game's ``MatchRewards`` award once per match: the ledger
entry's key is ``match:<match id>:<currency>`` (unique per player), and the message is
applied once (the inbox). A seat is "against a player" when every other seat is a
player's. A completed game against players (win, draw or loss; never one left) is
counted on the UTC day of the match's ``finished_at`` (battle's clock, when the match
ended: a redelivery after midnight still counts on the day it was played), and that
count is the game's daily bonus position. A leaver gets nothing and counts no game.
"""

from __future__ import annotations

import logging
from typing import Any

from services.cards.economy import Economy
from services.cards.ledger_handlers import GRANT, LedgerChange, apply_change, utc_day
from services.cards.repository import CardsUnitOfWork
from shared.clock import Clock
from shared.events import Event

MATCH_FINISHED_CONSUMER = "cards.match_rewards"
COMPLETED_VS_PLAYERS = "games:vs_players"  # the daily counter of completed games
log = logging.getLogger(__name__)


def match_key(match_id: Any, currency: str) -> str:
    return f"match:{match_id}:{currency}"


def award_match(event: Event, uow: CardsUnitOfWork, economy: Economy, clock: Clock) -> int:
    """Grant each seated player the match's award; how many entries this call made."""
    if not uow.inbox.first_delivery(event.event_id, MATCH_FINISHED_CONSUMER):
        return 0
    data = event.data
    game = data["game"]
    if game not in economy.games or economy.games.rules(game).match_rewards is None:
        return 0
    rewards = economy.games.rules(game).match_rewards
    assert rewards is not None
    currency = economy.currency(game, rewards.currency)
    seats = data["seats"]
    day = utc_day(data["finished_at"])
    made = 0
    for seat in seats:
        player_id = seat["player_id"]
        if seat["kind"] != "player" or player_id is None:
            continue
        others = [s for s in seats if s is not seat]
        against_player = bool(others) and all(s["kind"] == "player" for s in others)
        if not uow.players.admits(player_id):
            log.info("no %s for match %s: its player's data was purged", rewards.currency,
                     data["match_id"])  # fmt: skip
            continue
        key = match_key(data["match_id"], rewards.currency)
        if uow.ledger.entry_by_key(player_id, key) is not None:
            continue  # awarded already (the same match in another message)
        result = seat["result"]
        games_today = 0
        if against_player and rewards.completed(result):
            games_today = uow.ledger.bump(player_id, game, COMPLETED_VS_PLAYERS, day)
        amount = rewards.award(result, against_player, games_today)
        if amount <= 0:
            continue
        reason = f"{data['mode']} match {result}"[:40]
        change = LedgerChange(player_id, game, rewards.currency, amount, reason, key)
        apply_change(change, GRANT, uow.ledger, currency, clock.now())
        made += 1
    return made

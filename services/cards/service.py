"""The cards nameko service: entrypoints only."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from games.quest.canonical import QUEST_CANONICAL
from services.cards import collection_handlers as collection
from services.cards import crafting_handlers as crafting
from services.cards import fairness_handlers as fairness
from services.cards import handlers, orm, purge, reward_handlers
from services.cards import ledger_handlers as ledger
from services.cards import match_reward_handlers as match_rewards
from services.cards import pack_handlers as packs
from services.cards import terrakard_handlers as terrakard
from services.cards.dependencies import EconomyProvider
from services.cards.games import card_games
from services.cards.repository import CardsUnitOfWork, unit_of_work
from services.cards.schemas import (
    ClientSeedSchema,
    CollectionSchema,
    CraftSchema,
    CreateDeckSchema,
    DeckRefSchema,
    DefinitionSchema,
    DeleteDeckSchema,
    EditDeckSchema,
    FairChoiceSchema,
    GameListSchema,
    GameSchema,
    GrantPacksSchema,
    LedgerChangeSchema,
    LedgerHistorySchema,
    LineageDefinitionSchema,
    MatchDeckSchema,
    NamedDefinitionsSchema,
    OpenPackSchema,
    PlayerGameSchema,
    PlayerIdSchema,
    RollHistorySchema,
    SellPackSchema,
    ShredSchema,
    StarterChoiceSchema,
)
from services.cards.terrakard_schemas import (
    ActivatePlanSchema,
    DeckForAttackSchema,
    DefendersSchema,
    DemoDefenderSchema,
    PlayerIdsSchema,
    PlayerLevelSchema,
    RefVersionSchema,
    SaveDeckSchema,
    SavePlanSchema,
    TargetSchema,
)
from shared.consumers import consume
from shared.db import run_unit_of_work
from shared.dependencies import (
    CanonicalCardsProvider,
    ClockProvider,
    DatabaseProvider,
    RandomProvider,
)
from shared.events import (
    ACCOUNT_DELETION_REQUESTED,
    ATTEMPT_COMPLETED,
    CONTENT_PUBLISHED,
    CONTENT_RETIRED,
    MATCH_FINISHED,
    PLAYER_REGISTERED,
)
from shared.health import HealthEndpoints
from shared.quest_card_schemas import CollectionSchema as PlayerCollectionSchema
from shared.quest_card_schemas import DeckSchema, StarterSchema
from shared.reliable_events import reliable_event_handler
from shared.rpc import rpc
from shared.schemas import jsonable, load

DEFINITIONS = DefinitionSchema(many=True)
LINEAGE_DEFINITIONS = LineageDefinitionSchema(many=True)
STARTER = StarterSchema()
PLAYER_COLLECTION = PlayerCollectionSchema()
DECK = DeckSchema()
DECKS = DeckSchema(many=True)
MATCH_DECK = MatchDeckSchema()

T = TypeVar("T")


class CardsService(HealthEndpoints):
    name = "cards"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
    random = RandomProvider()
    canonical = CanonicalCardsProvider(QUEST_CANONICAL)
    economy = EconomyProvider()

    def _uow(self) -> AbstractContextManager[CardsUnitOfWork]:
        return unit_of_work(self.db)

    def _run(self, work: Callable[[CardsUnitOfWork], T]) -> T:
        """``work`` in a unit of work, run again after a deadlock (shared/db.py)."""
        return run_unit_of_work(self._uow, work)

    @reliable_event_handler(PLAYER_REGISTERED.source, PLAYER_REGISTERED.name)
    def on_player_registered(self, message: dict[str, Any]) -> None:
        consume(
            PLAYER_REGISTERED,
            message,
            self._uow,
            lambda event, uow: handlers.welcome_player(event, uow, self.economy, self.clock),
        )

    @reliable_event_handler(CONTENT_PUBLISHED.source, CONTENT_PUBLISHED.name)
    def on_content_published(self, message: dict[str, Any]) -> None:
        consume(CONTENT_PUBLISHED, message, self._uow, handlers.record_published_definition)

    @reliable_event_handler(CONTENT_RETIRED.source, CONTENT_RETIRED.name)
    def on_content_retired(self, message: dict[str, Any]) -> None:
        consume(CONTENT_RETIRED, message, self._uow, handlers.record_retired_definition)

    @reliable_event_handler(ATTEMPT_COMPLETED.source, ATTEMPT_COMPLETED.name)
    def on_attempt_completed(self, message: dict[str, Any]) -> None:
        consume(
            ATTEMPT_COMPLETED,
            message,
            self._uow,
            lambda event, uow: reward_handlers.grant_reward(event, uow, self.random, self.clock),
        )

    @reliable_event_handler(MATCH_FINISHED.source, MATCH_FINISHED.name)
    def on_match_finished(self, message: dict[str, Any]) -> None:
        """A finished match's currency for each seated player (Chronovore's Gold), once."""
        consume(
            MATCH_FINISHED,
            message,
            self._uow,
            lambda event, uow: match_rewards.award_match(event, uow, self.economy, self.clock),
        )

    @reliable_event_handler(ACCOUNT_DELETION_REQUESTED.source, ACCOUNT_DELETION_REQUESTED.name)
    def on_account_deletion_requested(self, message: dict[str, Any]) -> None:
        """Purge the player's personal data here and answer PersonalDataPurged."""
        consume(
            ACCOUNT_DELETION_REQUESTED,
            message,
            self.db.transaction,
            lambda event, tx: purge.purge_personal_data(event, tx, self.clock),
        )

    @rpc
    def catalogue(self, game: str) -> list[dict[str, Any]]:
        """The active published card definitions of a game (``quest``), by name."""
        args = load(GameSchema(), {"game": game})
        return self._run(
            lambda uow: list(DEFINITIONS.dump(collection.catalogue(args["game"], uow)))
        )

    @rpc
    def get_collection(self, player_id: str) -> dict[str, Any]:
        """``{"player_id": "..."}`` -> ``{"player_id": "...", "created_at": "..."}``"""
        cmd = handlers.GetCollection(**load(PlayerIdSchema(), {"player_id": player_id}))
        collection = self._run(lambda uow: handlers.get_collection(cmd, uow))
        result: dict[str, Any] = CollectionSchema().dump(collection)
        return result

    # -- the player's own cards (player_id always comes from the gateway) ----------------

    @rpc
    def choose_starter(self, player_id: str, affinity: str) -> dict[str, Any]:
        """``affinity="Wit"`` ->
        ``{"created": true, "starter": {"affinity": "Wit", "cards": [...]}}``"""
        args = load(StarterChoiceSchema(), {"player_id": player_id, "affinity": affinity})
        grant, created = self._run(
            lambda uow: collection.choose_starter(
                collection.ChooseStarter(**args),
                uow,
                self.random,
                self.clock,
                card_games(self.canonical),
            )
        )
        return {"created": created, "starter": STARTER.dump(grant)}

    @rpc
    def get_starter(self, player_id: str) -> dict[str, Any]:
        args = load(PlayerIdSchema(), {"player_id": player_id})
        return self._run(
            lambda uow: dict(STARTER.dump(collection.get_starter(args["player_id"], uow)))
        )

    @rpc
    def player_collection(self, player_id: str, game: str = "quest") -> dict[str, Any]:
        """The player's copies of a game's cards grouped by definition, with counts."""
        args = load(GameListSchema(), {"player_id": player_id, "game": game})
        found = self._run(
            lambda uow: collection.get_collection_view(args["player_id"], uow, args["game"])
        )
        return dict(PLAYER_COLLECTION.dump(found))

    @rpc
    def list_decks(self, player_id: str, game: str = "quest") -> list[dict[str, Any]]:
        args = load(GameListSchema(), {"player_id": player_id, "game": game})
        return self._run(
            lambda uow: list(
                DECKS.dump(collection.list_decks(args["player_id"], uow, args["game"]))
            )
        )

    @rpc
    def get_deck(self, player_id: str, deck_id: str, game: str | None = None) -> dict[str, Any]:
        args = load(DeckRefSchema(), {"player_id": player_id, "deck_id": deck_id, "game": game})
        found = self._run(
            lambda uow: collection.get_deck(
                args["player_id"], args["deck_id"], uow, game=args["game"]
            )
        )
        return dict(DECK.dump(found))

    @rpc
    def deck_for_match(
        self, player_id: str, deck_id: str, game: str | None = None
    ) -> dict[str, Any]:
        """A legal saved deck (of ``game`` if given) with each card's full definition
        (for the battle snapshot)."""
        args = load(DeckRefSchema(), {"player_id": player_id, "deck_id": deck_id, "game": game})
        found = self._run(
            lambda uow: collection.deck_for_match(
                args["player_id"], args["deck_id"], uow, game=args["game"]
            )
        )
        return dict(MATCH_DECK.dump(found))

    @rpc
    def active_definitions_named(
        self, game: str, kind: str, names: list[str]
    ) -> list[dict[str, Any]]:
        """The active version of each lineage founded under one of ``names`` (the configured
        CPU deck, ``games.quest.canonical``), full definition and ``lineage_name`` included."""
        args = load(NamedDefinitionsSchema(), {"game": game, "kind": kind, "names": names})
        found = self._run(
            lambda uow: uow.definitions.active_in_lineages(
                args["game"], args["kind"], args["names"]
            )
        )
        return list(LINEAGE_DEFINITIONS.dump(found))

    @rpc
    def create_deck(self, **payload: Any) -> dict[str, Any]:
        """``name="Morning walk", cards=[five owned copy ids]`` -> the deck at version 1"""
        cmd = collection.SaveDeck(**load(CreateDeckSchema(), payload))
        return self._run(lambda uow: dict(DECK.dump(collection.create_deck(cmd, uow, self.clock))))

    @rpc
    def edit_deck(self, **payload: Any) -> dict[str, Any]:
        """Rename (``name``) and/or replace the cards (``cards``) at ``expected_version``."""
        cmd = collection.EditDeck(**load(EditDeckSchema(), payload))
        return self._run(lambda uow: dict(DECK.dump(collection.edit_deck(cmd, uow, self.clock))))

    @rpc
    def delete_deck(self, **payload: Any) -> None:
        args = load(DeleteDeckSchema(), payload)
        self._run(
            lambda uow: collection.delete_deck(
                args["player_id"], args["deck_id"], args["expected_version"], uow, args["game"]
            )
        )

    # -- the currency ledger (docs/economy.md); player_id always from the gateway or a
    # -- service that earned the player something ---------------------------------------

    @rpc
    def balance(self, player_id: str, game: str) -> dict[str, Any]:
        """``game="chronovore"`` -> ``{"game": ..., "balances": {"fragments": 0, "gold": 12}}``"""
        args = load(PlayerGameSchema(), {"player_id": player_id, "game": game})
        found = self._run(
            lambda uow: ledger.balance(args["player_id"], args["game"], uow.ledger, self.economy)
        )
        return dict(jsonable(found))

    @rpc
    def grant(self, **payload: Any) -> dict[str, Any]:
        """``game, currency, amount, reason, idempotency_key`` -> the entry (``replayed``
        true for a retry with the same key)."""
        return self._change(payload, ledger.GRANT)

    @rpc
    def spend(self, **payload: Any) -> dict[str, Any]:
        """As ``grant``; 409 ``insufficient_funds`` when the balance is short."""
        return self._change(payload, ledger.SPEND)

    def _change(self, payload: dict[str, Any], direction: str) -> dict[str, Any]:
        cmd = ledger.LedgerChange(**load(LedgerChangeSchema(), payload))
        entry = self._run(
            lambda uow: ledger.change(
                cmd, direction, uow.ledger, uow.players, self.economy, self.clock
            )
        )
        return dict(jsonable(entry))

    @rpc
    def ledger_history(self, **payload: Any) -> dict[str, Any]:
        """``game, currency?, cursor?, limit?`` -> ``{"items": [entries], "next": cursor}``"""
        args = load(LedgerHistorySchema(), payload)
        found = self._run(
            lambda uow: ledger.history(
                args["player_id"],
                args["game"],
                args["currency"],
                args["cursor"],
                uow.ledger,
                self.economy,
                args["limit"],
            )
        )
        return dict(jsonable(found))

    # -- packs ---------------------------------------------------------------------------

    @rpc
    def pack_odds(self, game: str) -> list[dict[str, Any]]:
        """Every pack kind of a game with its public odds (no player)."""
        args = load(GameSchema(), {"game": game})
        return list(jsonable(packs.pack_odds(args["game"], self.economy)))

    @rpc
    def grant_packs(self, **payload: Any) -> dict[str, Any]:
        """``game, kind, quantity, source_type, source_id, idempotency_key, pay?`` -> the
        grant and its pack ids (``pay``: bought at the kind's price, spent together)."""
        cmd = packs.GrantPacks(**load(GrantPacksSchema(), payload))
        return self._run(
            lambda uow: dict(jsonable(packs.grant_packs(cmd, uow, self.economy, self.clock)))
        )

    @rpc
    def pack_inventory(self, player_id: str, game: str) -> dict[str, Any]:
        args = load(PlayerGameSchema(), {"player_id": player_id, "game": game})
        found = self._run(
            lambda uow: packs.inventory(args["player_id"], args["game"], uow, self.economy)
        )
        return dict(jsonable(found))

    @rpc
    def open_pack(self, **payload: Any) -> dict[str, Any]:
        """``pack_id, idempotency_key, game?`` -> the opening (cards, rarities, finishes, the
        fair roll's seed hash, client seed and nonce), persisted before it is returned."""
        cmd = packs.OpenPack(**load(OpenPackSchema(), payload))
        opening = self._run(
            lambda uow: packs.open_pack(cmd, uow, self.economy, self.random, self.clock)
        )
        return dict(jsonable(opening))

    @rpc
    def sell_pack(self, **payload: Any) -> dict[str, Any]:
        """``pack_id, idempotency_key, game?`` -> the sale and its refund (the kind's full
        price; only kinds whose data allow it: Chronovore's Diamond pack)."""
        cmd = packs.SellPack(**load(SellPackSchema(), payload))
        return self._run(
            lambda uow: dict(jsonable(packs.sell_pack(cmd, uow, self.economy, self.clock)))
        )

    # -- shredding and crafting (Chronovore's Card Fragments) -----------------------------

    @rpc
    def crafting_prices(self, game: str) -> dict[str, Any]:
        """What a shred gives and a craft costs, per rarity and finish (public)."""
        args = load(GameSchema(), {"game": game})
        return dict(jsonable(crafting.crafting_prices(args["game"], self.economy)))

    @rpc
    def shred_copy(self, **payload: Any) -> dict[str, Any]:
        """``game, copy_id, idempotency_key`` -> the shred (its fragments' ledger entry)."""
        cmd = crafting.Shred(**load(ShredSchema(), payload))
        return self._run(
            lambda uow: dict(jsonable(crafting.shred(cmd, uow, self.economy, self.clock)))
        )

    @rpc
    def craft_copy(self, **payload: Any) -> dict[str, Any]:
        """``game, definition_id, finish, idempotency_key`` -> the craft and the new copy."""
        cmd = crafting.Craft(**load(CraftSchema(), payload))
        return self._run(
            lambda uow: dict(jsonable(crafting.craft(cmd, uow, self.economy, self.clock)))
        )

    # -- provably fair rolls (docs/fairness.md) ------------------------------------------

    @rpc
    def fairness(self, player_id: str) -> dict[str, Any]:
        """``{"server_seed_hash", "client_seed", "nonce", "since"}``: never the seed."""
        args = load(PlayerIdSchema(), {"player_id": player_id})
        state = self._run(
            lambda uow: fairness.fairness_state(
                args["player_id"], uow.fairness, uow.players, self.random, self.clock
            )
        )
        return dict(jsonable(state))

    @rpc
    def set_client_seed(self, player_id: str, client_seed: str) -> dict[str, Any]:
        args = load(ClientSeedSchema(), {"player_id": player_id, "client_seed": client_seed})
        state = self._run(
            lambda uow: fairness.set_client_seed(
                args["player_id"],
                args["client_seed"],
                uow.fairness,
                uow.players,
                self.random,
                self.clock,
            )
        )
        return dict(jsonable(state))

    @rpc
    def rotate_seed(self, player_id: str) -> dict[str, Any]:
        """Reveal the active server seed; a new one (its hash) takes over."""
        args = load(PlayerIdSchema(), {"player_id": player_id})
        rotated = self._run(
            lambda uow: fairness.rotate(
                args["player_id"], uow.fairness, uow.players, self.random, self.clock
            )
        )
        return dict(jsonable(rotated))

    @rpc
    def fair_choice(self, **payload: Any) -> dict[str, Any]:
        """``player_id, purpose, key, source_type, source_id, options`` -> ``{"outcome",
        "roll": {server_seed_hash, client_seed, nonce, purpose}}``: a fair roll of the
        player's seeds for another service (a TerraKard terrain), stored first; asked
        again for the same source, the stored one."""
        args = load(FairChoiceSchema(), payload)
        chosen = self._run(
            lambda uow: fairness.fair_choice(
                args["player_id"],
                args["purpose"],
                args["key"],
                (args["source_type"], args["source_id"]),
                args["options"],
                uow,
                self.random,
                self.clock,
            )
        )
        return dict(jsonable(chosen))

    @rpc
    def roll_history(self, **payload: Any) -> dict[str, Any]:
        """``cursor?, limit?`` -> ``{"items": [rolls], "next": cursor}``, newest first; a
        roll under a revealed seed carries the seed (``deckyard verify`` checks it)."""
        args = load(RollHistorySchema(), payload)
        found = self._run(
            lambda uow: fairness.roll_history(
                args["player_id"], args["cursor"], uow.fairness, args["limit"]
            )
        )
        return dict(jsonable(found))

    # -- TerraKard (docs/terrakard.md, "Hosting"): ``level`` is the player's, read from
    # -- accounts by the caller just before -------------------------------------------------

    @rpc
    def terrakard_start(self, player_id: str, level: int) -> dict[str, Any]:
        """The starting collection, once -> the collection."""
        args = load(PlayerLevelSchema(), {"player_id": player_id, "level": level})
        return self._run(
            lambda uow: dict(
                jsonable(terrakard.start(args["player_id"], args["level"], uow, self.clock))
            )
        )

    @rpc
    def terrakard_collection(self, player_id: str, level: int) -> dict[str, Any]:
        args = load(PlayerLevelSchema(), {"player_id": player_id, "level": level})
        return self._run(
            lambda uow: dict(jsonable(terrakard.collection(args["player_id"], args["level"], uow)))
        )

    @rpc
    def terrakard_decks(self, player_id: str, level: int) -> list[dict[str, Any]]:
        args = load(PlayerLevelSchema(), {"player_id": player_id, "level": level})
        return self._run(
            lambda uow: list(jsonable(terrakard.list_decks(args["player_id"], args["level"], uow)))
        )

    @rpc
    def terrakard_save_deck(self, **payload: Any) -> dict[str, Any]:
        """``level, name, cards`` (a new deck) or ``deck_id, expected_version`` and a new
        ``name`` and/or ``cards`` -> the deck."""
        args = load(SaveDeckSchema(), payload)
        found = self._run(
            lambda uow: terrakard.save_deck(
                args["player_id"],
                args["level"],
                args["name"],
                args["cards"],
                uow,
                self.clock,
                args["deck_id"],
                args["expected_version"],
            )
        )
        return dict(jsonable(found))

    @rpc
    def terrakard_delete_deck(self, **payload: Any) -> None:
        args = load(RefVersionSchema(), payload)
        self._run(
            lambda uow: terrakard.delete_deck(
                args["player_id"], args["ref_id"], args["expected_version"], uow
            )
        )

    @rpc
    def terrakard_plans(self, player_id: str, level: int) -> list[dict[str, Any]]:
        args = load(PlayerLevelSchema(), {"player_id": player_id, "level": level})
        return self._run(
            lambda uow: list(jsonable(terrakard.list_plans(args["player_id"], args["level"], uow)))
        )

    @rpc
    def terrakard_save_plan(self, **payload: Any) -> dict[str, Any]:
        """``level, name, rounds (5 copy ids), reserve, condition, posture, activate?``,
        with ``plan_id, expected_version`` for an edit -> the plan."""
        cmd = terrakard.SavePlan(**load(SavePlanSchema(), payload))
        return self._run(lambda uow: dict(jsonable(terrakard.save_plan(cmd, uow, self.clock))))

    @rpc
    def terrakard_activate_plan(self, **payload: Any) -> dict[str, Any]:
        args = load(ActivatePlanSchema(), payload)
        found = self._run(
            lambda uow: terrakard.activate_plan(
                args["player_id"], args["plan_id"], args["level"], uow, self.clock
            )
        )
        return dict(jsonable(found))

    @rpc
    def terrakard_delete_plan(self, **payload: Any) -> None:
        args = load(RefVersionSchema(), payload)
        self._run(
            lambda uow: terrakard.delete_plan(
                args["player_id"], args["ref_id"], args["expected_version"], uow
            )
        )

    @rpc
    def terrakard_deck_for_attack(self, **payload: Any) -> dict[str, Any]:
        """For battle: a legal attack deck as the engine's cards, with their lineages."""
        args = load(DeckForAttackSchema(), payload)
        found = self._run(
            lambda uow: terrakard.deck_for_attack(
                args["player_id"], args["deck_id"], args["level"], uow
            )
        )
        return dict(jsonable(found))

    @rpc
    def terrakard_defense_for_attack(self, player_id: str, level: int) -> dict[str, Any]:
        """For battle: the defender's active plan, or the automatic plan."""
        args = load(PlayerLevelSchema(), {"player_id": player_id, "level": level})
        found = self._run(
            lambda uow: terrakard.defense_for_attack(args["player_id"], args["level"], uow)
        )
        return dict(jsonable(found))

    @rpc
    def terrakard_defenders(self, **payload: Any) -> list[dict[str, Any]]:
        """For battle's arena: TerraKard players of a level in [low, high]."""
        args = load(DefendersSchema(), payload)
        found = self._run(
            lambda uow: terrakard.defenders(
                args["low"], args["high"], args["excluded"], args["limit"], uow
            )
        )
        return list(jsonable(found))

    @rpc
    def terrakard_target(self, target_id: str) -> dict[str, Any]:
        """For battle: the player behind an arena target id."""
        args = load(TargetSchema(), {"target_id": target_id})
        return self._run(lambda uow: dict(jsonable(terrakard.target(args["target_id"], uow))))

    @rpc
    def terrakard_targets_of(self, player_ids: list[str]) -> list[dict[str, Any]]:
        """For battle's arena: the arena ids of the players it chose, and whether a saved
        plan defends each."""
        args = load(PlayerIdsSchema(), {"player_ids": player_ids})
        return self._run(lambda uow: list(jsonable(terrakard.targets_of(args["player_ids"], uow))))

    @rpc
    def terrakard_demo_defense(self, key: str) -> dict[str, Any]:
        """For battle: a demo defender's plan, from the catalogue (no one's copies)."""
        args = load(DemoDefenderSchema(), {"key": key})
        return self._run(lambda uow: dict(jsonable(terrakard.demo_defense(args["key"], uow))))

    @rpc
    def terrakard_training_plan(self) -> dict[str, Any]:
        """For battle's tutorial: the training plan (no one's copies)."""
        return self._run(lambda uow: dict(jsonable(terrakard.training_plan(uow))))

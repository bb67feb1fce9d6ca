"""Every problem ``code`` a route can answer, by HTTP status, for the OpenAPI document.

Clients switch on ``code``: the document's one ``Problem`` schema has every code as its
``enum``, and each operation's problem responses list, per status, the codes that
operation can answer (the response's ``x-codes`` and its description).
``GATEWAY`` holds the codes the gateway itself answers on any route that documents the
status; each area's table holds its service's refusals (and the refusals of the games
that service hosts, which it passes on). A route names its area's table in its
``RouteDoc(codes=...)``; ``tests/unit/gateway/test_problem_codes.py`` reads the services'
and the games' sources and fails when a code they raise is missing here.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.quest.errors import RefusalCode

Codes = Mapping[int, tuple[str, ...]]

INTERNAL_ERROR = "internal_error"  # 500, every operation (its ``default`` response)

GATEWAY: Codes = {
    400: ("malformed_json", "unsupported_media_type", "malformed_request"),
    431: ("headers_too_large",),
    401: (
        "missing_token",
        "invalid_token",
        "token_expired",
        "token_not_yet_valid",
        "invalid_issuer",
        "invalid_audience",
        "unknown_signing_key",
    ),
    403: ("account_locked",),
    404: ("route_not_found",),
    413: ("payload_too_large",),
    422: ("validation_failed", "invalid_body", "invalid_text"),
    429: ("rate_limited",),
    503: (
        "service_unavailable",
        "service_timeout",
        "broker_unavailable",
        "identity_provider_unavailable",
        "database_unavailable",
        "transaction_conflict",  # a deadlock outlasted the retries (shared/db.py)
    ),
}
AUTHOR_ONLY = "author_role_required"  # 403 on the authoring routes

# The Quest rules' own refusals (games/quest), as the services that host them pass them on.
QUEST_CONTENT_REFUSALS = (
    "unknown_card_kind",
    "unknown_rarity",
    "unknown_affinity",
    "unknown_effect",
    "unknown_condition",
    "invalid_effect",
    "invalid_condition",
    "invalid_correct_count",
    "invalid_outcome",
)
QUEST_DECK_REFUSALS = (
    "deck_size",
    "deck_copy_repeated",
    "deck_cost_exceeded",
    "deck_copy_not_owned",
    "deck_composition",
    "deck_name_blank",
    "deck_name_invalid",
    "deck_name_too_long",
    "starter_affinity_not_offered",
    "unknown_affinity",
    "unknown_card_kind",
    "unknown_rarity",
)
QUEST_ACTION_REFUSALS = tuple(code.value for code in RefusalCode)

ACCOUNTS: Codes = {
    403: ("account_deleted", "reauthentication_required"),
    404: ("deletion_not_found", "player_not_found"),
    422: ("confirmation_required", "invalid_subject", "unknown_game", *QUEST_CONTENT_REFUSALS),
    503: ("deletion_unconfirmed",),
}

AUTHORING: Codes = {
    403: ("own_submission",),
    404: ("content_not_found", "question_not_found"),
    409: (
        "card_in_use",
        "challenge_in_use",
        "duplicate_name",
        "invalid_replacement",
        "not_a_draft",
        "not_in_review",  # a batch approval's item (services/authoring/review.py)
        "not_ready",
        "question_in_use",
        "retired_is_final",
        "stale_version",
        "transition_not_allowed",
    ),
    422: (
        "invalid_content",
        "invalid_cursor",
        "invalid_replacement",
        "reason_required",
        "reason_too_long",
        "unknown_kind",
        "unknown_state",
        "unknown_game",
        "invalid_card",
        "invalid_article",
        # Batch approval (services/authoring/review.py): the route's own check of the
        # items answers validation_failed; the service's (for the CLI), invalid_batch.
        "invalid_batch",
        "invalid_idempotency_key",
        "idempotency_key_reused",
        *QUEST_CONTENT_REFUSALS,
    ),
}

CHALLENGE: Codes = {
    404: ("attempt_not_found", "event_not_found", "question_not_in_attempt"),
    409: (
        "answer_locked",
        "attempt_completed",
        "attempt_start_in_progress",
        "challenge_not_playable",
        "deadline_passed",
        "event_not_available",
        "implausible_movement",
        "location_from_the_future",
        "location_inaccurate",
        "location_out_of_order",
        "location_too_old",
        "outside_event_area",
    ),
    422: ("invalid_cursor", "invalid_location", "invalid_order", "unknown_option"),
}

# Chronovore's deck lists and TerraKard's decks and plans (games/chronovore, games/terrakard).
OTHER_DECK_REFUSALS = (
    "deck_class_mixed",
    "deck_copy_limit",
    "deck_mythic_limit",
    "deck_list_too_long",
    "card_not_owned",
    "duplicate_card",
    "duplicate_copy",
    "over_budget",
    "plan_size",
    "invalid_reserve_condition",
)
# TerraKard's hosting (docs/terrakard.md, "Hosting"): cards' decks and plans, battle's
# attacks (the engine's refusals: games/terrakard/errors.py).
TERRAKARD_REFUSALS: Codes = {
    404: ("plan_not_found", "no_defense", "report_not_found", "target_not_found"),
    409: (
        "terrakard_not_started",
        "plan_limit_reached",
        "target_not_allowed",
        "target_under_attack",
        "target_recently_attacked",
        "target_protected",
        "tutorial_not_finished",
        "tutorial_finished",
        "no_ticket",
        "attack_finished",
        "not_your_seat",
        "wrong_phase",
        "unknown_card",
        "card_already_played",
        "unknown_choice",
        "answer_not_marked",
        "not_overdue",
    ),
    422: ("invalid_posture", "cannot_attack_yourself", "invalid_action", "invalid_cursor"),
    503: ("accounts_unavailable", "authoring_unavailable"),
}
# The ledger, packs and provably fair rolls (docs/economy.md, docs/fairness.md).
ECONOMY_REFUSALS: Codes = {
    404: (
        "pack_not_found",
        "unknown_pack_kind",
        "copy_not_found",
        "definition_not_found",
        "crafting_not_offered",
    ),
    409: (
        "balance_limit_reached",
        "daily_limit_reached",
        "insufficient_funds",
        "pack_already_opened",
        "roll_source_taken",
        "pack_room_too_small",
        "copy_in_deck",
        "craft_copy_limit",
        "card_not_craftable",
    ),
    422: (
        "idempotency_key_reused",
        "invalid_client_seed",
        "invalid_purpose",
        "invalid_cursor",
        "pack_not_for_sale",
        "pack_not_sellable",
        "finish_not_craftable",
        "unknown_currency",
    ),
    503: ("pack_pool_incomplete",),
}

CARDS: Codes = {
    404: (
        "collection_not_found",
        "deck_not_found",
        "no_starter",
        "starter_not_chosen",
        *ECONOMY_REFUSALS[404],
        *TERRAKARD_REFUSALS[404],
    ),
    409: (
        "deck_limit_reached",
        "stale_version",
        "starter_already_chosen",
        *ECONOMY_REFUSALS[409],
        *TERRAKARD_REFUSALS[409],
    ),
    422: (
        "nothing_to_change",
        "unknown_game",
        *QUEST_DECK_REFUSALS,
        *OTHER_DECK_REFUSALS,
        *ECONOMY_REFUSALS[422],
        *TERRAKARD_REFUSALS[422],
    ),
    503: ("starter_cards_unavailable", *ECONOMY_REFUSALS[503], *TERRAKARD_REFUSALS[503]),
}

# The economy and fairness routes (gateway/routes/economy.py, fairness.py): the cards
# service's economy refusals, and the gateway's own for a write without a usable key.
ECONOMY: Codes = {
    **ECONOMY_REFUSALS,
    422: (
        *ECONOMY_REFUSALS[422],
        "unknown_game",
        "idempotency_key_required",
        "invalid_idempotency_key",
    ),
}

BATTLE: Codes = {
    # A battle starts from a deck the cards service holds: its refusals come through.
    404: (
        "match_not_found",
        "no_active_match",
        "deck_not_found",
        "collection_not_found",
        # Against a player (services/battle/pvp.py).
        "not_queued",
        "invitation_not_found",
        "player_not_found",
        *TERRAKARD_REFUSALS[404],
    ),
    409: (
        "active_match_exists",
        "active_match_limit",  # Quest's asynchronous matches (docs/quest-pvp.md)
        "invitation_exists",
        "invitation_limit_reached",
        "invitation_not_pending",
        "opponent_busy",
        "pseudonym_ambiguous",
        "stale_version",
        *TERRAKARD_REFUSALS[409],
        *QUEST_ACTION_REFUSALS,
        # Chronovore's lock-in (games/chronovore).
        "already_locked",
        "card_not_in_hand",
        "choosing_time_over",
        "not_a_seat",
        "same_slot",
        "slot_empty",
        "slot_taken",
        "unknown_slot",
    ),
    422: (
        "deck_not_playable",
        "cannot_invite_yourself",
        "mode_not_offered",  # an invitation mode the game does not have
        "idempotency_key_reused",
        "idempotency_key_mismatch",
        "invalid_idempotency_key",
        "unknown_game",
        *QUEST_ACTION_REFUSALS,
        *QUEST_DECK_REFUSALS,
        *OTHER_DECK_REFUSALS,
        *TERRAKARD_REFUSALS[422],
    ),
    503: (
        "cards_unavailable",
        "cpu_deck_unavailable",
        "starter_cards_unavailable",  # TerraKard's tutorial: no training plan yet
        *TERRAKARD_REFUSALS[503],
    ),
}


# The push channel's own (gateway/push/routes.py); the WebSocket sends them in an
# "error" message before it closes, the SSE route answers them as problems.
PUSH: Codes = {
    403: ("too_many_connections", "subject_changed"),
    422: ("auth_expected", "invalid_last_id", "too_many_messages"),
}


# Answered at the gateway's edge on any route, outside a route's documentation: a method
# the route does not take (405), a browser origin not in CORS_ORIGINS (403, gateway/asgi.py).
EDGE: Codes = {403: ("cors_origin_not_allowed",), 405: ("method_not_allowed",)}

# The codes after which the same request, sent again unchanged, is safe and may succeed
# with nothing else changed; why, for docs/api.md and the Problem schema's ``x-retryable``.
# Not here: a refusal of the rules (4xx), ``internal_error`` (the failure may come back),
# and the 503s that wait on content being published (``pack_pool_incomplete``,
# ``starter_cards_unavailable``, ``cpu_deck_unavailable``): sending again changes nothing
# until an Author publishes the missing cards.
_NOT_ANSWERING = "a service or the message broker did not answer in time; nothing was refused"
RETRYABLE: Mapping[str, str] = {
    "rate_limited": "after its Retry-After seconds (the bucket refills)",
    "service_unavailable": _NOT_ANSWERING,
    "broker_unavailable": _NOT_ANSWERING,
    "accounts_unavailable": _NOT_ANSWERING,
    "authoring_unavailable": _NOT_ANSWERING,
    "cards_unavailable": _NOT_ANSWERING,
    "database_unavailable": "the service's database did not answer; nothing was changed",
    "identity_provider_unavailable": "the token's keys (JWKS) could not be fetched",
    "service_timeout": (
        "the answer did not come in time: a write may already be made, so send it with the "
        "same Idempotency-Key (or expectedVersion) to get its first outcome"
    ),
    "transaction_conflict": (
        "the change met a concurrent one and was not made (the service already retried it)"
    ),
    "deletion_unconfirmed": "the account is being locked; the same deletion is asked again",
    "attempt_start_in_progress": "another request is starting the same attempt",
}


def every_code() -> list[str]:
    """Every code any route can answer: the ``enum`` of the one Problem schema."""
    tables = (GATEWAY, EDGE, ACCOUNTS, AUTHORING, CHALLENGE, CARDS, ECONOMY, BATTLE, PUSH)
    codes = {code for table in tables for listed in table.values() for code in listed}
    return sorted({INTERNAL_ERROR, AUTHOR_ONLY, *codes})


def codes_for(status: int, route: Codes, author: bool = False) -> list[str]:
    """The codes one status of one route can carry: the gateway's and the route's own."""
    codes = [*GATEWAY.get(status, ()), *route.get(status, ())]
    if author and status == 403:
        codes.append(AUTHOR_ONLY)
    return sorted(set(codes))

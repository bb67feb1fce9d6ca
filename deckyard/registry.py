"""Where each runnable service class lives."""

from __future__ import annotations

import importlib

SERVICE_CLASSES = {
    "accounts": "services.accounts.service:AccountsService",
    "authoring": "services.authoring.service:AuthoringService",
    "challenge": "services.challenge.service:ChallengeService",
    "cards": "services.cards.service:CardsService",
    "battle": "services.battle.service:BattleService",
}


def service_class(name: str) -> type:
    module_name, _, class_name = SERVICE_CLASSES[name].partition(":")
    cls: type = getattr(importlib.import_module(module_name), class_name)
    return cls

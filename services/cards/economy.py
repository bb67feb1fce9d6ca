"""The economy's configuration: data, not code (``economy_data/*.json``).

Currencies per game with their optional limits, and every game's pack kinds with their
public odds (``games.kit.packs``). A game adds a currency or a pack kind by editing its
data; the ledger and the pack inventory never name a game. ``Economy`` is what the
cards service's ``economy`` dependency gives each worker (tests give their own).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.kit.packs import PackKind, pack_kind
from services.cards.games import CARD_GAMES, CardGames
from shared.errors import InvalidInput, NotFound

DATA = Path(__file__).with_name("economy_data")


@dataclass(frozen=True)
class CurrencyRules:
    """A currency's optional limits: per UTC day granted or spent, and at any time held."""

    daily_grant_limit: int | None = None
    daily_spend_limit: int | None = None
    max_balance: int | None = None


@dataclass(frozen=True)
class Economy:
    currencies: Mapping[str, Mapping[str, CurrencyRules]]  # game -> currency -> rules
    packs: Mapping[tuple[str, str], PackKind] = field(default_factory=dict)  # (game, kind)
    pack_daily_limits: Mapping[tuple[str, str], int] = field(default_factory=dict)
    games: CardGames = CARD_GAMES  # whose copies a pack grants

    def currency(self, game: str, currency: str) -> CurrencyRules:
        found = self.currencies.get(game, {}).get(currency)
        if found is None:
            raise InvalidInput(
                "unknown_currency", f"the game {game!r} keeps no currency {currency!r}"
            )
        return found

    def currencies_of(self, game: str) -> list[str]:
        return sorted(self.currencies.get(game, {}))

    def pack(self, game: str, kind: str) -> PackKind:
        found = self.packs.get((game, kind))
        if found is None:
            raise NotFound("unknown_pack_kind", f"the game {game!r} has no pack kind {kind!r}")
        return found

    def packs_of(self, game: str) -> list[PackKind]:
        return [kind for (g, _), kind in sorted(self.packs.items()) if g == game]


def currency_rules(data: Mapping[str, Any]) -> CurrencyRules:
    return CurrencyRules(
        daily_grant_limit=data.get("daily_grant_limit"),
        daily_spend_limit=data.get("daily_spend_limit"),
        max_balance=data.get("max_balance"),
    )


def economy_from(
    currencies: Mapping[str, Mapping[str, Mapping[str, Any]]],
    pack_data: Iterable[Mapping[str, Any]] = (),
    daily_limits: Mapping[str, Mapping[str, int]] | None = None,
    games: CardGames = CARD_GAMES,
) -> Economy:
    """An economy from plain data (the files' shape; tests build theirs this way)."""
    kinds = [pack_kind(data) for data in pack_data]
    return Economy(
        currencies={
            game: {name: currency_rules(rules) for name, rules in names.items()}
            for game, names in currencies.items()
            if not game.startswith("_")
        },
        packs={(k.game, k.kind): k for k in kinds},
        pack_daily_limits={
            (game, group): int(limit)
            for game, groups in (daily_limits or {}).items()
            for group, limit in groups.items()
        },
        games=games,
    )


def load_economy(directory: Path = DATA, games: CardGames = CARD_GAMES) -> Economy:
    """``currencies.json`` and every ``<game>_packs.json`` of ``directory``."""
    currencies = json.loads((directory / "currencies.json").read_text(encoding="utf-8"))
    packs: list[Mapping[str, Any]] = []
    limits: dict[str, Mapping[str, int]] = {}
    for path in sorted(directory.glob("*_packs.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        packs += data["packs"]
        limits[path.name.removesuffix("_packs.json")] = data.get("daily_limits", {})
    return economy_from(currencies, packs, limits, games)

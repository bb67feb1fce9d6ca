"""The cards service's own nameko dependency: the economy's configuration."""

from __future__ import annotations

from typing import Any

from nameko.extensions import DependencyProvider

from services.cards.economy import Economy, load_economy


class EconomyProvider(DependencyProvider):  # type: ignore[misc]
    """Currencies, limits and pack kinds, read once from ``economy_data`` (tests replace
    the dependency with their own ``Economy``)."""

    def setup(self) -> None:
        self.economy = load_economy()

    def get_dependency(self, worker_ctx: Any) -> Economy:
        return self.economy

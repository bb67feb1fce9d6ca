"""The card lineages the game itself depends on: the starter Power cards, the CPU deck.

A lineage is a card and all its replacements (authoring's ``lineage_id``); exactly
one version of a lineage is active at a time. Each lineage here is named by its
founding version's name: that version is published, so immutable, and its name
stays reserved to its lineage for ever (rulebook: "Retired names remain reserved"),
so the name picks one lineage in every environment while the ids differ between
databases. Each lineage is resolved to its active version when it is used (a
starter grant, a match start), so a published replacement takes its place at once.

Starter Creatures are not listed: the ``starter`` flag marks them, and a replacement
of a starter Creature must stay one (authoring checks it), so the flag belongs to
the lineage too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.kit.frozen import plain


@plain
@dataclass(frozen=True)
class CanonicalCards:
    starter_power_cards: tuple[str, ...]
    cpu_creatures: tuple[str, ...]
    cpu_power_cards: tuple[str, ...]

    def dependents(self, founding_name_key: str, key: Callable[[str], str]) -> list[str]:
        """What depends on the lineage founded under that name (``key`` normalises names)."""
        found = []
        if founding_name_key in {key(n) for n in self.starter_power_cards}:
            found.append("starter set")
        if founding_name_key in {key(n) for n in (*self.cpu_creatures, *self.cpu_power_cards)}:
            found.append("CPU deck")
        return found


# Rulebook, "Starter grant": the shared Common Power cards Field Kit and Reserve Focus.
# Rulebook, "CPU battles": the configured CPU deck contains Quillip, Voltiki, Karrik,
# Field Kit, and Reserve Focus.
QUEST_CANONICAL = CanonicalCards(
    starter_power_cards=("Field Kit", "Reserve Focus"),
    cpu_creatures=("Quillip", "Voltiki", "Karrik"),
    cpu_power_cards=("Field Kit", "Reserve Focus"),
)

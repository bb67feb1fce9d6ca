"""Pack kinds as data, their public odds, and the opening of one pack.

A pack kind is a game's data (never code): how many cards, the rarities from lowest to
highest with their integer weights, the finishes with theirs, optional guaranteed slots
(a slot with its own rarity weights) and an optional floor (if no card reaches the floor
rarity, one card drawn uniformly becomes that rarity: Chronovore's "if all 5 cards stay
Common, one of them becomes Uncommon"). The opening draws, in this order and with these
keys: ``rarity.i`` for each slot, ``floor`` when the floor applies, then ``card.i`` (a
uniform choice among the game's published definitions of the slot's rarity, by id) and
``finish.i`` for each slot. Every draw comes from the player's fair ``Draws``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.kit.fair import Draws, check_purpose
from games.kit.frozen import plain


@plain
@dataclass(frozen=True)
class Slot:
    """A guaranteed slot: its own rarity weights instead of the pack's."""

    index: int
    rarity_weights: Mapping[str, int]


@plain
@dataclass(frozen=True)
class PackKind:
    game: str
    kind: str
    name: str
    cards: int
    rarities: tuple[str, ...]  # lowest first
    rarity_weights: Mapping[str, int]
    finish_weights: Mapping[str, int]
    slots: tuple[Slot, ...] = ()
    floor: str | None = None
    card_kinds: frozenset[str] = frozenset()  # empty: every kind of the game
    daily_group: str | None = None  # packs of one group share a per-UTC-day limit
    extra: Mapping[str, Any] = field(default_factory=dict)  # shown with the odds (prices...)

    @property
    def purpose(self) -> str:
        return f"{self.game}.pack.{self.kind}"

    def weights_of(self, slot: int) -> Mapping[str, int]:
        for guaranteed in self.slots:
            if guaranteed.index == slot:
                return guaranteed.rarity_weights
        return self.rarity_weights

    def needed_rarities(self) -> set[str]:
        """The rarities an opening may need a definition of."""
        needed = {r for r, w in self.rarity_weights.items() if w > 0}
        for slot in self.slots:
            needed |= {r for r, w in slot.rarity_weights.items() if w > 0}
        if self.floor:
            needed.add(self.floor)
        return needed


def pack_kind(data: Mapping[str, Any]) -> PackKind:
    """A pack kind from its data, checked: a wrong file is refused when it is loaded."""
    rarities = tuple(str(r) for r in data["rarities"])
    kind = PackKind(
        game=str(data["game"]),
        kind=str(data["kind"]),
        name=str(data["name"]),
        cards=int(data["cards"]),
        rarities=rarities,
        rarity_weights={str(k): int(v) for k, v in data["rarity_weights"].items()},
        finish_weights={str(k): int(v) for k, v in data["finish_weights"].items()},
        slots=tuple(
            Slot(int(s["index"]), {str(k): int(v) for k, v in s["rarity_weights"].items()})
            for s in data.get("slots", ())
        ),
        floor=data.get("floor"),
        card_kinds=frozenset(data.get("card_kinds", ())),
        daily_group=data.get("daily_group"),
        extra=dict(data.get("extra", {})),
    )
    check_purpose(kind.purpose)
    tables = [kind.rarity_weights, *(s.rarity_weights for s in kind.slots)]
    if kind.cards < 1 or any(not set(t) <= set(rarities) for t in tables):
        raise ValueError(f"pack {kind.kind}: at least one card, rarities among {rarities}")
    if any(sum(t.values()) <= 0 or min(t.values()) < 0 for t in [*tables, kind.finish_weights]):
        raise ValueError(f"pack {kind.kind}: weights are >= 0 with a positive total")
    if kind.floor is not None and kind.floor not in rarities:
        raise ValueError(f"pack {kind.kind}: the floor {kind.floor!r} is not a rarity")
    if any(not 0 <= s.index < kind.cards for s in kind.slots):
        raise ValueError(f"pack {kind.kind}: a guaranteed slot is outside the pack")
    return kind


def _probabilities(weights: Mapping[str, int]) -> dict[str, Fraction]:
    total = sum(weights.values())
    return {key: Fraction(w, total) for key, w in weights.items()}


def card_rarity_odds(kind: PackKind, slot: int) -> dict[str, Fraction]:
    """The exact probability of each rarity in one slot, the floor included.

    Without a floor, a slot's own weights. With one, the floor applies when no slot
    reaches it (probability ``all_below``); it then lifts one slot, chosen uniformly,
    to the floor rarity: that slot's low rarities lose their share to the floor."""
    own = _probabilities(kind.weights_of(slot))
    if kind.floor is None:
        return own
    rank = kind.rarities.index(kind.floor)
    low = set(kind.rarities[:rank])

    def below(s: int) -> Fraction:
        probabilities = _probabilities(kind.weights_of(s))
        return sum((p for r, p in probabilities.items() if r in low), Fraction(0))

    others_below = Fraction(1)
    for s in range(kind.cards):
        if s != slot:
            others_below *= below(s)
    lift = Fraction(1, kind.cards)
    odds = {r: p for r, p in own.items() if r not in low}
    for rarity, p in own.items():
        if rarity in low:
            odds[rarity] = odds.get(rarity, Fraction(0)) + p * (1 - others_below * lift)
            odds[kind.floor] = odds.get(kind.floor, Fraction(0)) + p * others_below * lift
    return odds


def public_odds(kind: PackKind) -> dict[str, Any]:
    """What a player sees before opening: every weight, and each slot's exact odds."""
    return {
        "game": kind.game,
        "kind": kind.kind,
        "name": kind.name,
        "cards": kind.cards,
        "rarities": list(kind.rarities),
        "rarity_weights": dict(kind.rarity_weights),
        "finish_weights": dict(kind.finish_weights),
        "guaranteed_slots": [
            {"index": s.index, "rarity_weights": dict(s.rarity_weights)} for s in kind.slots
        ],
        "floor": kind.floor,
        "card_kinds": sorted(kind.card_kinds),
        "slot_rarity_odds": [
            {rarity: str(p) for rarity, p in card_rarity_odds(kind, slot).items()}
            for slot in range(kind.cards)
        ],
        "finish_odds": {k: str(p) for k, p in _probabilities(kind.finish_weights).items()},
        **dict(kind.extra),
    }


@plain
@dataclass(frozen=True)
class PackCard:
    definition: Any
    rarity: str
    finish: str


def open_pack(
    kind: PackKind, pool: Mapping[str, Sequence[Any]], draws: Draws, label: Any = str
) -> list[PackCard]:
    """The cards of one opening; ``pool`` lists the definitions of each rarity (by id).

    The caller checks first that every needed rarity has a definition; an empty one here
    is a ``ValueError`` (the odds are public: a rarity is never silently replaced)."""
    missing = sorted(r for r in kind.needed_rarities() if not pool.get(r))
    if missing:
        raise ValueError(f"no definitions of {missing} for pack {kind.kind}")
    rarities: list[str] = []
    for slot in range(kind.cards):
        weights = kind.weights_of(slot)
        ordered = [r for r in kind.rarities if r in weights]
        rarities.append(draws.weighted(f"rarity.{slot}", ordered, [weights[r] for r in ordered]))
    if kind.floor is not None:
        rank = kind.rarities.index(kind.floor)
        if all(kind.rarities.index(r) < rank for r in rarities):
            lifted = draws.choice("floor", list(range(kind.cards)))
            rarities[lifted] = kind.floor
    finishes = list(kind.finish_weights)
    cards = []
    for slot, rarity in enumerate(rarities):
        definition = draws.choice(f"card.{slot}", pool[rarity], label)
        finish = draws.weighted(
            f"finish.{slot}", finishes, [kind.finish_weights[f] for f in finishes]
        )
        cards.append(PackCard(definition, rarity, finish))
    return cards

"""Cards as data and the one validator of their rewards (authoring's and the engine's).

A card is a monster (attack, health, Initiative) or an event (a Coins cost); either
carries rewards, claimed when it pays off. Rewards are a small closed vocabulary the
engine interprets (games/chronovore/resolve.py): the corner rewards (Coins, Armor,
Health, Strength, a draw, a weapon, a weapon upgrade, rulebook "Rewards and keywords")
and the keywords written in the card's text (Strike, Copy the card in the opposing
slot, The next enemy card). A card's dict carries each keyword it shows (Initiative
included) with its definition, from ``content.KEYWORDS``. Bounds on the numbers are ours
(docs/chronovore.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.chronovore.content import KEYWORDS, CardClass, CardKind, Keyword, Rarity
from games.kit.frozen import evolve, plain
from games.kit.refusal import Refusal


class RewardType(StrEnum):
    COINS = "coins"
    ARMOR = "armor"
    HEALTH = "health"
    STRENGTH = "strength"
    DRAW = "draw"
    WEAPON = "weapon"
    UPGRADE = "upgrade"  # the anvil: +attack/+durability to a weapon the hero has
    STRIKE = Keyword.STRIKE.value
    COPY_OPPOSING = Keyword.COPY_OPPOSING.value
    NEXT_ENEMY = Keyword.NEXT_ENEMY.value


CORNER = frozenset(
    {
        RewardType.COINS,
        RewardType.ARMOR,
        RewardType.HEALTH,
        RewardType.STRENGTH,
        RewardType.DRAW,
        RewardType.WEAPON,
        RewardType.UPGRADE,
    }
)
# Ours: the ranges an author may write (docs/chronovore.md, "Card numbers").
AMOUNT_RANGE: Mapping[RewardType, tuple[int, int]] = {
    RewardType.COINS: (1, 20),
    RewardType.ARMOR: (1, 20),
    RewardType.HEALTH: (1, 30),
    RewardType.STRENGTH: (-3, 5),  # a price in Strength is a negative amount; never 0
    RewardType.DRAW: (1, 3),
}
WEAPON_RANGE = (1, 10)  # attack and durability of a weapon reward
UPGRADE_RANGE = (0, 5)  # each part of an upgrade; not both 0
NEXT_MONSTER_RANGE = {"attack": (0, 10), "health": (0, 20)}
NEXT_EVENT_COST_RANGE = (0, 10)
MONSTER_ATTACK_RANGE = (0, 30)
MONSTER_HEALTH_RANGE = (1, 60)
EVENT_COST_RANGE = (0, 30)
MAX_REWARDS = 6


@plain
@dataclass(frozen=True)
class Reward:
    """One reward; only the fields of its type are used (the others stay 0/False)."""

    type: RewardType
    amount: int = 0
    attack: int = 0
    durability: int = 0
    health: int = 0
    cost: int = 0
    initiative: bool = False

    @property
    def keywords(self) -> tuple[Keyword, ...]:
        """The bold words this reward shows: its own keyword (a corner reward has none),
        then Initiative if it gives the next enemy monster Initiative."""
        if self.type in CORNER:
            return ()
        own = Keyword(self.type.value)
        return (own, Keyword.INITIATIVE) if self.initiative else (own,)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type.value}
        for name in ("amount", "attack", "durability", "health", "cost"):
            if getattr(self, name):
                data[name] = getattr(self, name)
        if self.initiative:
            data["initiative"] = True
        return data


@plain
@dataclass(frozen=True)
class Card:
    """A card as a match uses it (finishes are cosmetic and not part of it)."""

    name: str
    kind: CardKind
    card_class: CardClass
    rarity: Rarity
    rewards: tuple[Reward, ...] = ()
    attack: int = 0  # monsters
    health: int = 0
    initiative: bool = False
    cost: int = 0  # events

    @property
    def keywords(self) -> tuple[Keyword, ...]:
        """The card's bold words in the order its face reads: a monster's Initiative, then
        each reward's, each once."""
        first = (Keyword.INITIATIVE,) if self.initiative else ()
        return tuple(dict.fromkeys((*first, *(k for r in self.rewards for k in r.keywords))))

    def to_dict(self) -> dict[str, Any]:
        """A new dict each call (a caller may change it), copied from the card's first
        one: a match puts a card into many events (drawn, placed, revealed...)."""
        found = _CARD_DICTS.get(id(self))
        if found is None or found[0] is not self:
            if len(_CARD_DICTS) >= _CARD_DICTS_KEPT:
                _CARD_DICTS.clear()
            found = _CARD_DICTS[id(self)] = (self, self._build_dict())
        data = found[1]
        return {
            **data,
            "rewards": [dict(reward) for reward in data["rewards"]],
            "keywords": [dict(keyword) for keyword in data["keywords"]],
        }

    def _build_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind.value,
            "card_class": self.card_class.value,
            "rarity": self.rarity.value,
            "rewards": [r.to_dict() for r in self.rewards],
            "keywords": keywords_shown(self),
        }
        if self.kind is CardKind.MONSTER:
            data.update(attack=self.attack, health=self.health, initiative=self.initiative)
        else:
            data["cost"] = self.cost
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Card:
        return card_from_definition(str(data["kind"]), data)


def keywords_shown(card: Card) -> list[dict[str, str]]:
    """Each keyword the card shows with the definition a player reads resting on it
    (``content.KEYWORDS``): what every answer showing the card carries (docs/chronovore.md,
    "Keywords"). Reading a card back ignores them: they follow from its data."""
    return [
        {"keyword": k.value, "name": KEYWORDS[k].name, "definition": KEYWORDS[k].definition}
        for k in card.keywords
    ]


# Each card's dict (``Card.to_dict``) by the card's id; each entry holds its card, so no
# other object takes that id while the entry lives. Bounded: emptied when full.
_CARD_DICTS: dict[int, tuple[Card, dict[str, Any]]] = {}
_CARD_DICTS_KEPT = 4096


def _refuse(where: str, message: str) -> Refusal:
    return Refusal("invalid_card", f"{where}: {message}", {"field": where})


def _int(value: Any, bounds: tuple[int, int], where: str) -> int:
    low, high = bounds
    if type(value) is not int or not low <= value <= high:
        raise _refuse(where, f"a whole number from {low} to {high}")
    return value


def _reward(data: Any, where: str) -> Reward:
    if not isinstance(data, Mapping) or data.get("type") not in set(RewardType):
        raise _refuse(where, f"a reward is an object whose type is one of {sorted(RewardType)}")
    kind = RewardType(data["type"])
    allowed = {"type"} | _FIELDS[kind]
    extra = set(data) - allowed
    if extra:
        raise _refuse(where, f"a {kind} reward has no {sorted(extra)}")
    if kind in AMOUNT_RANGE:
        amount = _int(data.get("amount"), AMOUNT_RANGE[kind], f"{where}.amount")
        if amount == 0:
            raise _refuse(f"{where}.amount", "a Strength reward is never 0")
        return Reward(kind, amount=amount)
    if kind is RewardType.WEAPON:
        return Reward(
            kind,
            attack=_int(data.get("attack"), WEAPON_RANGE, f"{where}.attack"),
            durability=_int(data.get("durability"), WEAPON_RANGE, f"{where}.durability"),
        )
    if kind is RewardType.UPGRADE:
        attack = _int(data.get("attack", 0), UPGRADE_RANGE, f"{where}.attack")
        durability = _int(data.get("durability", 0), UPGRADE_RANGE, f"{where}.durability")
        if not attack and not durability:
            raise _refuse(where, "an upgrade adds attack, durability or both")
        return Reward(kind, attack=attack, durability=durability)
    if kind is RewardType.NEXT_ENEMY:
        return _next_enemy(data, where)
    return Reward(kind)  # Strike, Copy the card in the opposing slot


def _next_enemy(data: Mapping[str, Any], where: str) -> Reward:
    attack = _int(data.get("attack", 0), NEXT_MONSTER_RANGE["attack"], f"{where}.attack")
    health = _int(data.get("health", 0), NEXT_MONSTER_RANGE["health"], f"{where}.health")
    initiative = data.get("initiative", False)
    if not isinstance(initiative, bool):
        raise _refuse(f"{where}.initiative", "true or false")
    cost = _int(data.get("cost", 0), NEXT_EVENT_COST_RANGE, f"{where}.cost")
    monster = bool(attack or health or initiative)
    if monster == bool(cost):
        raise _refuse(
            where,
            "the next enemy card is either their next monster (attack, health, Initiative) "
            "or their next event (cost), one of them",
        )
    return Reward(
        RewardType.NEXT_ENEMY, attack=attack, health=health, cost=cost, initiative=initiative
    )


_FIELDS: Mapping[RewardType, frozenset[str]] = {
    **{kind: frozenset({"amount"}) for kind in AMOUNT_RANGE},
    RewardType.WEAPON: frozenset({"attack", "durability"}),
    RewardType.UPGRADE: frozenset({"attack", "durability"}),
    RewardType.NEXT_ENEMY: frozenset({"attack", "health", "initiative", "cost"}),
    RewardType.STRIKE: frozenset(),
    RewardType.COPY_OPPOSING: frozenset(),
}


def rewards_from(data: Any) -> tuple[Reward, ...]:
    if not isinstance(data, Sequence) or isinstance(data, str | bytes):
        raise _refuse("rewards", "a list of rewards")
    if len(data) > MAX_REWARDS:
        raise _refuse("rewards", f"at most {MAX_REWARDS} rewards")
    return tuple(_reward(item, f"rewards[{i}]") for i, item in enumerate(data))


def card_from_definition(kind: str, body: Mapping[str, Any]) -> Card:
    """The card a published definition describes; a Refusal names what is wrong."""
    if kind not in set(CardKind):
        raise Refusal("unknown_card_kind", f"{kind!r} is not a kind of Chronovore card")
    if body.get("card_class") not in set(CardClass):
        raise _refuse("card_class", f"one of {sorted(CardClass)}")
    if body.get("rarity") not in set(Rarity):
        raise _refuse("rarity", f"one of {sorted(Rarity)}")
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _refuse("name", "a card needs a name")
    card = Card(
        name=name,
        kind=CardKind(kind),
        card_class=CardClass(body["card_class"]),
        rarity=Rarity(body["rarity"]),
        rewards=rewards_from(body.get("rewards", [])),
    )
    if kind == CardKind.MONSTER:
        initiative = body.get("initiative", False)
        if not isinstance(initiative, bool):
            raise _refuse("initiative", "true or false")
        return evolve(
            card,
            attack=_int(body.get("attack"), MONSTER_ATTACK_RANGE, "attack"),
            health=_int(body.get("health"), MONSTER_HEALTH_RANGE, "health"),
            initiative=initiative,
        )
    return evolve(card, cost=_int(body.get("cost"), EVENT_COST_RANGE, "cost"))


def validate_rewards(data: Any) -> list[dict[str, Any]]:
    """Authoring's check of a body's rewards: their canonical form, or a Refusal."""
    return [reward.to_dict() for reward in rewards_from(data)]

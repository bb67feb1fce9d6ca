"""The computer's seat (rulebook: "The computer follows the same rules").

The CPU plans its row from what it can see: its own hero, hand and waiting
interference, never the opponent's hidden cards. It fills every slot it can with a card
it can safely play there (``safe_to_play``: a monster it beats keeping some Health, an
event it can pay), simulating the row so far (Coins won by a monster in slot 1 pay for
an event in slot 2): a card kept in hand helps nobody, and a match has more slots (5
rows of 4) than cards to play. Slot by slot it takes the card worth most to its own hero
among those that still let the row hold as many safe cards as it can; how much of the
Health and Armor a fight costs it leaves out of that worth is its greed (``GREED``, the
CPU's strength). Then it acts one step at a time towards that plan (place, take back)
and locks in. A pure function of the state, without chance: asking twice gives the same
action. ``row_value`` and ``worth`` are also the evaluation of the one-ply greedy policy
used in balance runs (games/chronovore/balance.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.chronovore.actions import Action
from games.chronovore.cards import Card, RewardType
from games.chronovore.content import CardKind
from games.chronovore.hero import strike
from games.chronovore.resolve import corner_reward, fight, fight_counts
from games.chronovore.state import Hero, InPlay, Interference, MatchState, Phase, Settings

# This policy's number, recorded by the matches that start under it (state.CPU_POLICY).
# Once released, a change that makes it act otherwise anywhere (a tuned weight too) is a
# new version, this code kept as cpu_v2.py (docs/fairness.md, "CPU policy versions").
VERSION = 2

# Ours: how the CPU weighs a hero's assets against Health (docs/chronovore.md, "CPU").
ARMOR = 0.9
COINS = 0.5
STRENGTH = 4.0
WEAPON_HIT = 0.8  # per point of weapon attack per strike left
CARD_IN_HAND = 1.5
STRIKE_DAMAGE = 1.2
INTERFERENCE = 1.0
SAFETY_MARGIN = 2  # Health a fight must leave to be safe (unless it costs none)
# Ours: the CPU's strength (docs/balance/chronovore.md): the share of the Health and
# Armor a fight costs that the CPU leaves out when it weighs a card, so 1.0 is greedy for
# rewards and 0.0 counts the whole toll. Tuned with SAFETY_MARGIN so that a new player's
# class deck, played by the one-ply greedy policy, wins most matches against it.
GREED = 1.0


def worth(hero: Hero) -> float:
    weapon = hero.weapon
    armed = weapon.attack * weapon.durability * WEAPON_HIT if weapon else 0.0
    return (
        hero.health
        + hero.armor * ARMOR
        + hero.coins * COINS
        + (hero.strength - 1) * STRENGTH
        + armed
    )


def outcome(
    hero: Hero, card: Card, waiting: Interference, settings: Settings
) -> tuple[Hero, Interference, float] | None:
    """The hero after ``card`` alone and the value of what does not show on the hero
    (strikes, cards, interference); None when the card would drop the hero."""
    extra = 0.0
    if card.kind is CardKind.MONSTER:
        hero, _ = fight(
            hero,
            card.attack + waiting.monster_attack,
            card.health + waiting.monster_health,
            card.initiative or waiting.monster_initiative,
        )
        if waiting.monster_attack or waiting.monster_health or waiting.monster_initiative:
            waiting = Interference(0, 0, False, waiting.event_cost)
        if hero.fallen:
            return None
        extra -= max(0, SAFETY_MARGIN - hero.health) * 2
    else:
        cost = card.cost + waiting.event_cost
        if waiting.event_cost:
            waiting = Interference(
                waiting.monster_attack, waiting.monster_health, waiting.monster_initiative
            )
        if hero.coins < cost:
            return hero, waiting, -0.5  # pays nothing: a wasted slot
        if cost:
            hero = Hero(hero.health, hero.armor, hero.coins - cost, hero.strength, hero.weapon)
    for reward in card.rewards:
        if reward.type is RewardType.STRIKE:
            hero, dealt = strike(hero)
            extra += dealt * STRIKE_DAMAGE
        elif reward.type in (RewardType.DRAW, RewardType.COPY_OPPOSING):
            extra += CARD_IN_HAND * max(1, reward.amount)
        elif reward.type is RewardType.NEXT_ENEMY:
            extra += INTERFERENCE * (
                reward.attack * 1.5 + reward.health * 0.7 + reward.cost + 2 * reward.initiative
            )
        else:
            hero = corner_reward(hero, reward, settings)
    return hero, waiting, extra


def gain_of(
    hero: Hero, card: Card, waiting: Interference, settings: Settings, before: float
) -> float | None:
    """What ``card`` alone is worth to the hero: ``worth`` after its ``outcome`` minus
    ``before`` (the hero's worth now) plus its extra value, the same float in the same
    order of operations; None when the card would drop the hero. Counted on plain
    integers with the hero's rules (hero.py, ``resolve.fight_counts``), without a new
    hero a reward: the CPU weighs every card of its hand for every slot. A hero that
    ``fight_counts`` does not cover is weighed through ``outcome``."""
    weapon = hero.weapon
    life, armor, coins, strength = hero.health, hero.armor, hero.coins, hero.strength
    if life <= 0 or strength <= 0 or (weapon is not None and not weapon.usable):
        result = outcome(hero, card, waiting, settings)
        return None if result is None else worth(result[0]) - before + result[2]
    armed, durability = (weapon.attack, weapon.durability) if weapon else (0, 0)
    extra = 0.0
    if card.kind is CardKind.MONSTER:
        life, armor, durability, _ = fight_counts(
            life,
            armor,
            strength,
            armed,
            durability,
            card.attack + waiting.monster_attack,
            card.health + waiting.monster_health,
            card.initiative or waiting.monster_initiative,
        )
        if life <= 0:
            return None
        extra -= max(0, SAFETY_MARGIN - life) * 2
    else:
        cost = card.cost + waiting.event_cost
        if coins < cost:
            return -0.5  # pays nothing: a wasted slot (the hero as it was)
        coins -= cost
    for reward in card.rewards:
        kind = reward.type
        if kind is RewardType.STRIKE:
            if durability > 0:
                extra += (strength + armed) * STRIKE_DAMAGE
                durability -= 1
            else:
                extra += strength * STRIKE_DAMAGE
        elif kind is RewardType.DRAW or kind is RewardType.COPY_OPPOSING:
            extra += CARD_IN_HAND * max(1, reward.amount)
        elif kind is RewardType.NEXT_ENEMY:
            extra += INTERFERENCE * (
                reward.attack * 1.5 + reward.health * 0.7 + reward.cost + 2 * reward.initiative
            )
        elif kind is RewardType.COINS:
            coins += reward.amount
        elif kind is RewardType.ARMOR:
            armor += reward.amount
        elif kind is RewardType.HEALTH:
            life = min(settings.max_health, life + reward.amount)
        elif kind is RewardType.STRENGTH:
            strength = max(settings.min_strength, strength + reward.amount)
        elif kind is RewardType.WEAPON:  # a new weapon replaces the one held
            armed, durability = reward.attack, reward.durability
            if armed <= 0 or durability <= 0:
                armed = durability = 0
        elif kind is RewardType.UPGRADE and durability > 0:  # the anvil: a held weapon only
            armed, durability = armed + reward.attack, durability + reward.durability
            if armed <= 0 or durability <= 0:
                armed = durability = 0
    if durability <= 0:
        armed = 0
    after = (
        life
        + armor * ARMOR
        + coins * COINS
        + (strength - 1) * STRENGTH
        + (armed * durability * WEAPON_HIT if durability > 0 else 0.0)
    )
    return after - before + extra


def fight_toll(hero: Hero, card: Card, waiting: Interference) -> float | None:
    """What playing ``card`` costs the hero's Health and Armor (weighed as ``worth``
    weighs them) when it is safe to play, with the interference waiting for it; None
    when it is not: ours, "safely" (docs/balance/chronovore.md). A monster is safe when
    it is beaten and leaves the hero at least ``SAFETY_MARGIN`` Health (or costs no
    Health at all); an event when it is paid (it costs no Health)."""
    if card.kind is not CardKind.MONSTER:
        return 0.0 if hero.coins >= card.cost + waiting.event_cost else None
    after, left = fight(
        hero,
        card.attack + waiting.monster_attack,
        card.health + waiting.monster_health,
        card.initiative or waiting.monster_initiative,
    )
    if left > 0 or after.health < min(hero.health, SAFETY_MARGIN):
        return None
    return hero.health - after.health + (hero.armor - after.armor) * ARMOR


def safe_to_play(hero: Hero, card: Card, waiting: Interference) -> bool:
    return fight_toll(hero, card, waiting) is not None


Known = dict[tuple[object, ...], int]  # most_safe's answers within one plan


def most_safe(
    hero: Hero,
    cards: Sequence[Card],
    waiting: Interference,
    room: int,
    settings: Settings,
    known: Known | None = None,
) -> int:
    """The most of ``cards`` a row of ``room`` slots could hold, in some order, each safe
    to play where it stands (after what the slots before it won or spent)."""
    room = min(room, len(cards))
    if room <= 0:
        return 0
    known = {} if known is None else known
    weapon = hero.weapon
    armed = (weapon.attack, weapon.durability) if weapon is not None else (0, 0)
    key = (hero.health, hero.armor, hero.coins, hero.strength, *armed, *waiting.fields().values())
    key += (room, *sorted(map(id, cards)))
    if key in known:
        return known[key]
    most = 0
    tried: set[int] = set()
    for n, card in enumerate(cards):
        if most == room:
            break
        if id(card) in tried or not safe_to_play(hero, card, waiting):
            continue
        tried.add(id(card))
        result = outcome(hero, card, waiting, settings)
        assert result is not None  # it is safe
        after, left, _ = result
        rest = [*cards[:n], *cards[n + 1 :]]
        most = max(most, 1 + most_safe(after, rest, left, room - 1, settings, known))
    known[key] = most
    return most


def plan_row(
    hero: Hero,
    cards: Sequence[InPlay],
    waiting: Interference,
    settings: Settings,
    greed: float = GREED,
) -> list[InPlay]:
    """The cards for slots 0.. in order: as many as it can safely play (``most_safe``)
    and, slot by slot, the card worth most among those that keep that many in reach:
    its ``gain_of`` with ``greed`` of its ``fight_toll`` given back (worth less than
    nothing too: a safe card left in hand is worth nothing)."""
    left = sorted(cards, key=lambda item: item.uid)
    known: Known = {}
    room = most_safe(hero, [item.card for item in left], waiting, settings.slots, settings, known)
    row: list[InPlay] = []
    while room > 0:
        before = worth(hero)
        # Copies of one card (one Card object) in hand have one value: weighed once.
        weighed: dict[int, float | None] = {}
        ranked: list[tuple[float, int, InPlay]] = []
        for n, item in enumerate(left):
            card = item.card
            if id(card) not in weighed:
                toll = fight_toll(hero, card, waiting)
                gain = None if toll is None else gain_of(hero, card, waiting, settings, before)
                weighed[id(card)] = None if gain is None or toll is None else gain + greed * toll
            value = weighed[id(card)]
            if value is not None:
                ranked.append((-value, n, item))
        for *_, item in sorted(ranked, key=lambda entry: entry[:2]):
            result = outcome(hero, item.card, waiting, settings)
            assert result is not None  # it is safe
            rest = [other.card for other in left if other is not item]
            if (
                room == 1
                or 1 + most_safe(result[0], rest, result[1], room - 1, settings, known) >= room
            ):
                hero, waiting, _ = result
                row.append(item)
                left.remove(item)
                break
        room -= 1
    return row


# The last plans made, so the steps of one choosing step (place, place, ..., lock) plan
# once: placing a card moves it from the hand to the row, and the plan depends only on
# the hero, the cards in hand or row (in uid order), the waiting interference, the
# settings and the greed. Keyed by those objects' ids and the greed: each entry holds the
# objects themselves, so no other object can take one of those ids while the entry
# lives. Bounded; emptied when full (a cache miss only plans again: the plan is a pure
# function of its inputs).
_PLANS: dict[tuple[float, ...], tuple[object, ...]] = {}
_PLANS_KEPT = 512


def _planned_row(
    hero: Hero,
    cards: Sequence[InPlay],
    waiting: Interference,
    settings: Settings,
    greed: float,
) -> Sequence[InPlay]:
    key = (id(hero), id(waiting), id(settings), greed, *sorted(map(id, cards)))
    found = _PLANS.get(key)
    if found is not None:
        return found[-1]  # type: ignore[return-value]
    plan = tuple(plan_row(hero, cards, waiting, settings, greed))
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    _PLANS[key] = (hero, waiting, settings, tuple(cards), plan)
    return plan


def row_value(state: MatchState, seat: str) -> float:
    """What the seat's row as it stands is worth to its own hero, by the same measure."""
    side = state.side(seat)
    hero, waiting, total = side.hero, side.interference, 0.0
    for item in side.slots:
        if item is None:
            continue
        result = outcome(hero, item.card, waiting, state.settings)
        if result is None:
            return total - 100.0
        after, waiting, extra = result
        total += worth(after) - worth(hero) + extra
        hero = after
    return total


def cpu_action(state: MatchState, seat: str, greed: float = GREED) -> Action | None:
    """The CPU's next step towards its planned row, or locking in; None with nothing to do.
    ``greed`` is its strength (``GREED``; balance runs try others)."""
    if state.phase is Phase.FINISHED or seat not in state.seats:
        return None
    side = state.side(seat)
    if side.locked:
        return None
    slotted = [item for item in side.slots if item is not None]
    plan = _planned_row(side.hero, [*side.hand, *slotted], side.interference, state.settings, greed)
    for slot, item in enumerate(side.slots):
        wanted = plan[slot] if slot < len(plan) else None
        if item is not None and (wanted is None or item.uid != wanted.uid):
            return Action.take_back(slot)
        if item is None and wanted is not None:
            if any(h.uid == wanted.uid for h in side.hand):
                return Action.place(wanted.uid, slot)
            return Action.take_back(next(n for n, s in enumerate(side.slots) if s is wanted))
    return Action.lock()

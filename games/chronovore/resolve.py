"""Resolution (rulebook, "Resolve each pair", "Winning"): pair by pair, then the duel.

A pair resolves in three steps, both heroes at once (the rulebook resolves a pair as one
moment; the order inside it is ours, docs/chronovore.md "Inside a pair"):

1. each hero faces the card they played: a monster is a fight, an event asks to pay
   (waiting interference from "The next enemy card" applies to it and is used up);
   if a hero falls here, the match ends and nothing more of the pair is claimed;
2. each hero whose card paid off claims its rewards in the card's order, all but Strike
   (Coins, Armor, Health, Strength, draw, weapon, upgrade, copy, the next enemy card);
3. the Strikes of both heroes land together, each at the striker's attack after step 2.

A hero at 0 Health or below after a step loses; both at once is a draw.
"""

from __future__ import annotations

from typing import Any

from games.chronovore import hero as heroes
from games.chronovore.cards import Card, Reward, RewardType
from games.chronovore.content import CardKind
from games.chronovore.state import (
    FinishReason,
    Hero,
    InPlay,
    Interference,
    MatchState,
    Phase,
    Result,
    SeatState,
    Settings,
    Weapon,
)

Event = dict[str, Any]
# Events whose card only its own seat may see (games/chronovore/view.py).
PRIVATE_CARD_EVENTS = frozenset(
    {"card_drawn", "card_burned", "card_placed", "card_moved", "card_taken_back"}
)


def receive(
    side: SeatState, item: InPlay, seat: str, settings: Settings, how: str
) -> tuple[SeatState, Event]:
    """A card into the hand, or discarded if the hand is full (rulebook: at most 12)."""
    if len(side.hand) >= settings.hand_limit:
        kind = "card_burned" if how == "drawn" else "copy_discarded"
        event = {"type": kind, "seat": seat, "uid": item.uid, "card": item.card.to_dict()}
        return side.replace(discard=(*side.discard, item)), event
    event = {"type": f"card_{how}", "seat": seat, "uid": item.uid, "card": item.card.to_dict()}
    return side.replace(hand=(*side.hand, item)), event


def draw(
    side: SeatState, count: int, seat: str, settings: Settings, *, quiet: bool = False
) -> tuple[SeatState, list[Event]]:
    """Draw from the top; ours: an empty deck draws nothing (docs/chronovore.md). The
    cards drawn go to the hand until it holds ``hand_limit``, the rest are discarded
    (``receive``, card by card); ``quiet`` leaves the events out (the opening hands)."""
    if count <= 0:
        return side, []
    deck = side.deck
    taken = deck[:count]
    room = max(0, settings.hand_limit - len(side.hand))
    kept, burned = taken[:room], taken[room:]
    if taken:
        side = side.replace(
            deck=deck[len(taken) :], hand=side.hand + kept, discard=side.discard + burned
        )
    if quiet:
        return side, []
    events: list[Event] = [
        {"type": kind, "seat": seat, "uid": item.uid, "card": item.card.to_dict()}
        for kind, items in (("card_drawn", kept), ("card_burned", burned))
        for item in items
    ]
    if count > len(taken):
        events.append({"type": "deck_empty", "seat": seat})
    return side, events


def fight(hero: Hero, attack: int, health: int, initiative: bool) -> tuple[Hero, int]:
    """Hero against monster until one is at 0 or below: the hero strikes first, unless the
    monster has Initiative. Returns the hero and the monster's Health left.

    Counted rather than played blow by blow (the CPU weighs many fights a step): the
    hero's strikes deal Strength plus the weapon's attack while the weapon lasts (1
    durability a strike), then Strength; the monster's blows remove Armor before Health.
    So the hero needs ``kill`` strikes, the monster ``drop`` blows, and whoever strikes
    first wins a tie. ``_fight_blow_by_blow`` is the same fight step by step (the tests
    hold the two equal); it plays the cases the count does not cover (a hero already
    down, no Strength, an unusable weapon), which the engine never makes.
    """
    life, armor, strength, weapon = hero.health, hero.armor, hero.strength, hero.weapon
    if life <= 0 or strength <= 0 or (weapon is not None and not weapon.usable):
        return _fight_blow_by_blow(hero, attack, health, initiative)
    armed, durability = (weapon.attack, weapon.durability) if weapon else (0, 0)
    life, armor, left, health = fight_counts(
        life, armor, strength, armed, durability, attack, health, initiative
    )
    if weapon is not None and left != durability:
        weapon = Weapon(armed, left) if left > 0 else None
    if life == hero.health and armor == hero.armor and weapon is hero.weapon:
        return hero, health
    return Hero(life, armor, hero.coins, hero.strength, weapon), health


def fight_counts(
    life: int,
    armor: int,
    strength: int,
    weapon_attack: int,
    durability: int,
    attack: int,
    health: int,
    initiative: bool,
) -> tuple[int, int, int, int]:
    """``fight`` in numbers, for a hero standing (``life`` above 0) with Strength above
    0 and a usable weapon or none (``weapon_attack`` and ``durability`` 0): the hero's
    Health, Armor and weapon durability after it, and the monster's Health left."""
    armed = strength + weapon_attack if durability > 0 else strength
    # Strikes to bring the monster to 0 or below (at least one).
    if durability * armed >= health:
        kill = max(1, -(-health // armed))
    else:
        kill = durability + -(-(health - durability * armed) // strength)
    # Blows to bring the hero to 0 or below (never, for a monster with no attack).
    drop = -(-(armor + life) // attack) if attack > 0 else kill + 1
    if initiative:  # blow, strike, blow, strike...
        strikes, blows = (drop - 1, drop) if drop <= kill else (kill, kill)
    else:  # strike, blow, strike, blow...
        strikes, blows = (kill, kill - 1) if kill <= drop else (drop, drop)
    with_weapon = min(durability, strikes)
    health -= with_weapon * armed + (strikes - with_weapon) * strength
    if blows and attack > 0:
        taken = blows * attack
        absorbed = min(armor, taken)
        armor -= absorbed
        life -= taken - absorbed
    return life, armor, durability - with_weapon, health


def _fight_blow_by_blow(hero: Hero, attack: int, health: int, initiative: bool) -> tuple[Hero, int]:
    """The fight through ``hero.strike`` and ``hero.damage``, blow by blow: for what
    ``fight_counts`` does not cover (a hero already down, no Strength, an unusable
    weapon: the engine never makes them; a stored state could hold one)."""
    hero_strikes = not initiative
    while True:
        if hero_strikes:
            hero, dealt = heroes.strike(hero)
            health -= dealt
            if health <= 0:
                return hero, health
        else:
            hero = heroes.damage(hero, attack)
            if hero.fallen:
                return hero, health
        hero_strikes = not hero_strikes


def _face(side: SeatState, card: Card, seat: str, slot: int) -> tuple[SeatState, bool, Event]:
    """Step 1 for one hero: the fight or the payment. True when the card paid off."""
    waiting = side.interference
    if card.kind is CardKind.MONSTER:
        attack = card.attack + waiting.monster_attack
        health = card.health + waiting.monster_health
        initiative = card.initiative or waiting.monster_initiative
        hero, left = fight(side.hero, attack, health, initiative)
        used = Interference(0, 0, False, waiting.event_cost)
        won = left <= 0 and not hero.fallen
        event = {
            "type": "monster_fought",
            "seat": seat,
            "slot": slot,
            "attack": attack,
            "health": health,
            "initiative": initiative,
            "defeated": won,
            "hero": hero.to_dict(),
        }
        return side.replace(hero=hero, interference=used), won, event
    cost = card.cost + waiting.event_cost
    paid = side.hero.coins >= cost
    hero = heroes.add_coins(side.hero, -cost) if paid else side.hero
    event = {"type": "event_resolved", "seat": seat, "slot": slot, "cost": cost, "paid": paid}
    used = Interference(waiting.monster_attack, waiting.monster_health, waiting.monster_initiative)
    return side.replace(hero=hero, interference=used), paid, event


def _interfere(waiting: Interference, reward: Reward) -> Interference:
    return Interference(
        monster_attack=waiting.monster_attack + reward.attack,
        monster_health=waiting.monster_health + reward.health,
        monster_initiative=waiting.monster_initiative or reward.initiative,
        event_cost=waiting.event_cost + reward.cost,
    )


def corner_reward(hero: Hero, reward: Reward, settings: Settings) -> Hero:
    match reward.type:
        case RewardType.COINS:
            return heroes.add_coins(hero, reward.amount)
        case RewardType.ARMOR:
            return heroes.add_armor(hero, reward.amount)
        case RewardType.HEALTH:
            return heroes.heal(hero, reward.amount, settings)
        case RewardType.STRENGTH:
            return heroes.add_strength(hero, reward.amount, settings)
        case RewardType.WEAPON:
            return heroes.equip(hero, reward.attack, reward.durability)
        case RewardType.UPGRADE:
            return heroes.upgrade(hero, reward.attack, reward.durability)
    return hero


def _claim(
    state: MatchState, i: int, card: Card, opposing: InPlay | None
) -> tuple[MatchState, list[Event]]:
    """Step 2 for one hero: every reward of ``card`` but Strike, in the card's order.
    Only "The next enemy card" touches the other seat; the hero's own seat is written
    back once, after its last reward."""
    seat, settings = state.seats[i], state.settings
    events: list[Event] = []
    side = state.sides[i]
    for reward in card.rewards:
        kind = reward.type
        if kind is RewardType.STRIKE:
            continue
        if kind is RewardType.DRAW:
            side, drawn = draw(side, reward.amount, seat, settings)
            events += drawn
        elif kind is RewardType.COPY_OPPOSING:
            if opposing is None:
                events.append({"type": "nothing_to_copy", "seat": seat})
            else:
                copy = InPlay(side.next_uid, opposing.card)
                side = side.replace(next_uid=side.next_uid + 1)
                side, event = receive(side, copy, seat, settings, "copied")
                events.append(event)
        elif kind is RewardType.NEXT_ENEMY:
            other = state.seats[1 - i]
            enemy = state.sides[1 - i]
            waiting = _interfere(enemy.interference, reward)
            state = state.with_side(other, enemy.replace(interference=waiting))
            events.append({"type": "interference", "seat": seat, "on": other, **waiting.to_dict()})
        else:
            side = side.replace(hero=corner_reward(side.hero, reward, settings))
            events.append({"type": "reward", "seat": seat, **reward.to_dict()})
    if side is not state.sides[i]:
        state = state.with_side(seat, side)
    return state, events


def _strikes(state: MatchState, paid: list[Card | None]) -> tuple[MatchState, list[Event]]:
    """Step 3: each hero's Strikes, dealt at once (their damage depends only on the striker)."""
    dealt = [0, 0]
    events: list[Event] = []
    striker_heroes = [side.hero for side in state.sides]
    for i, card in enumerate(paid):
        for reward in card.rewards if card else ():
            if reward.type is RewardType.STRIKE:
                striker_heroes[i], hit = heroes.strike(striker_heroes[i])
                dealt[i] += hit
                events.append({"type": "strike", "seat": state.seats[i], "damage": hit})
    if not events:
        return state, events  # no Strike: both heroes as they were
    for i in (0, 1):
        hero = heroes.damage(striker_heroes[i], dealt[1 - i])
        state = state.with_side(state.seats[i], state.sides[i].replace(hero=hero))
    return state, events


def finish_if_fallen(state: MatchState) -> tuple[MatchState, list[Event]]:
    """A hero at 0 or below loses; both at once is a draw."""
    first_side, second_side = state.sides
    fallen = (first_side.hero.fallen, second_side.hero.fallen)
    if fallen == (False, False):
        return state, []
    if fallen == (True, True):
        return finish(state, (Result.DRAW.value, Result.DRAW.value), FinishReason.HERO_FELL)
    first, second = (Result.LOSS.value if f else Result.WIN.value for f in fallen)
    return finish(state, (first, second), FinishReason.HERO_FELL)


def finish(
    state: MatchState, results: tuple[str, str], reason: FinishReason
) -> tuple[MatchState, list[Event]]:
    state = state.replace(
        phase=Phase.FINISHED, deadline=None, results=results, finish_reason=reason
    )
    event = {
        "type": "match_finished",
        "reason": reason.value,
        "results": dict(zip(state.seats, results, strict=True)),
        "heroes": {
            seat: side.hero.to_dict() for seat, side in zip(state.seats, state.sides, strict=True)
        },
    }
    return state, [event]


def resolve_pair(state: MatchState, slot: int) -> tuple[MatchState, list[Event]]:
    """One pair, revealed and resolved; the match may end here."""
    pair = tuple(side.slots[slot] for side in state.sides)
    events: list[Event] = [
        {
            "type": "pair_revealed",
            "slot": slot,
            "cards": {
                seat: None if item is None else {"uid": item.uid, "card": item.card.to_dict()}
                for seat, item in zip(state.seats, pair, strict=True)
            },
        }
    ]
    paid: list[Card | None] = [None, None]
    sides = list(state.sides)
    for i, item in enumerate(pair):
        if item is None:
            continue
        side = sides[i]
        slots = (*side.slots[:slot], None, *side.slots[slot + 1 :])
        side = side.replace(slots=slots, discard=(*side.discard, item))
        sides[i], paid_off, event = _face(side, item.card, state.seats[i], slot)
        events.append(event)
        paid[i] = item.card if paid_off else None
    state = state.with_sides(sides[0], sides[1], revealed=(*state.revealed, pair))
    state, ended = finish_if_fallen(state)
    if ended:
        return state, events + ended
    for i, card in enumerate(paid):
        if card is not None:
            state, claimed = _claim(state, i, card, pair[1 - i])
            events += claimed
    state, struck = _strikes(state, paid)
    state, ended = finish_if_fallen(state)
    return state, events + struck + ended


def _exchange_strikes(first: Hero, second: Hero) -> tuple[Hero, Hero, int]:
    """Both heroes strike at once, exchange after exchange, until one is at 0 or below:
    the heroes after it and the number of exchanges. On plain integers (a duel often
    lasts a dozen exchanges), with ``hero.strike`` and ``hero.damage``'s arithmetic."""
    if any(h.weapon is not None and not h.weapon.usable for h in (first, second)):
        return _exchange_blow_by_blow(first, second)
    fighters = []
    for hero in (first, second):
        weapon = hero.weapon
        armed, durability = (weapon.attack, weapon.durability) if weapon else (0, 0)
        fighters.append([hero.health, hero.armor, hero.strength, armed, durability])
    one, two = fighters
    exchanges = 0
    while one[0] > 0 and two[0] > 0:
        hits = []
        for fighter in (one, two):
            if fighter[4] > 0:
                hits.append(fighter[2] + fighter[3])
                fighter[4] -= 1
            else:
                hits.append(fighter[2])
        for fighter, hit in ((one, hits[1]), (two, hits[0])):
            if hit > 0:
                absorbed = min(fighter[1], hit)
                fighter[1] -= absorbed
                fighter[0] -= hit - absorbed
        exchanges += 1
    after = []
    for hero, (life, armor, _, armed, durability) in zip((first, second), fighters, strict=True):
        weapon = hero.weapon
        if weapon is not None and durability != weapon.durability:
            weapon = Weapon(armed, durability) if durability > 0 else None
        after.append(Hero(life, armor, hero.coins, hero.strength, weapon) if exchanges else hero)
    return after[0], after[1], exchanges


def _exchange_blow_by_blow(first: Hero, second: Hero) -> tuple[Hero, Hero, int]:
    """``_exchange_strikes`` through ``hero.strike`` and ``hero.damage``, for a hero
    holding an unusable weapon (the engine never gives one; a stored state could)."""
    exchanges = 0
    while not first.fallen and not second.fallen:
        first, by_first = heroes.strike(first)
        second, by_second = heroes.strike(second)
        first, second = heroes.damage(first, by_second), heroes.damage(second, by_first)
        exchanges += 1
    return first, second, exchanges


def duel(state: MatchState) -> tuple[MatchState, list[Event]]:
    """After the last round, both standing: exchange strikes until one falls (both on the
    same exchange: a draw). Each strike deals the current attack; weapons while they last."""
    first, second = (side.hero for side in state.sides)
    first, second, exchanges = _exchange_strikes(first, second)
    for seat, side, hero in zip(state.seats, state.sides, (first, second), strict=True):
        state = state.with_side(seat, side.replace(hero=hero))
    state, ended = finish_if_fallen(state)
    ended[0]["reason"] = FinishReason.DUEL.value
    return state.replace(finish_reason=FinishReason.DUEL), [
        {"type": "duel", "exchanges": exchanges},
        *ended,
    ]

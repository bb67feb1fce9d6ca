"""The arena's rules outside an attack: tickets, protection and shields, trophies,
experience and level, daily objectives, and what an attack's end earns
(rules/terrakard.txt, "Targets and level", "Tickets and shields", "Rewards").

Pure: the host passes the time. Every number the rulebook leaves open is ours, kept in
one ``ArenaRules`` (``ARENA``) and explained in docs/terrakard.md, "The arena (ours)".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from games.kit.frozen import plain
from games.terrakard.progression import level_for

# The attacker's results (games/terrakard/game.py) and the stars each one is worth.
STARS: Mapping[str, int] = {
    "three_stars": 3,
    "two_stars": 2,
    "one_star": 1,
    "defeat": 0,
    "forfeit": 0,  # rulebook: "Giving up counts as a defeat"
}
DEFENDER_VICTORY = "victory"


@plain
@dataclass(frozen=True)
class Objective:
    """A daily objective: ``count`` times ``event`` in one UTC day earns ``experience``."""

    key: str
    event: str  # "attack" (an attack finished), "three_stars", "defense" (a defense won)
    count: int
    experience: int
    description: str


@plain
@dataclass(frozen=True)
class ArenaRules:
    """Ours, every one (docs/terrakard.md, "The arena (ours)")."""

    # Tickets (rulebook: "Tickets refill over time, up to a maximum. They are never sold").
    max_tickets: int = 5
    ticket_refill: timedelta = timedelta(hours=1)
    # Protection (rulebook: "new players and those who just lost heavily in defense").
    new_player_protection: timedelta = timedelta(hours=48)
    shield: timedelta = timedelta(hours=4)
    heavy_defeat_stars: int = 2  # the attacker took at least this many stars
    # Not offered any more (rulebook: "inactive players are no longer offered").
    inactive_after: timedelta = timedelta(days=7)
    # Trophies: the attacker's change by stars; the defender's by the attacker's stars.
    attack_trophies: Mapping[int, int] = field(
        default_factory=lambda: {3: 30, 2: 20, 1: 10, 0: -10}
    )
    defense_trophies: Mapping[int, int] = field(
        default_factory=lambda: {3: -15, 2: -10, 1: -5, 0: 10}
    )
    # Experience (rulebook: "Your level rises with experience (attacks, defenses,
    # objectives) and cannot be bought").
    attack_experience: int = 10  # every attack that ends, given up included
    experience_per_star: int = 5
    defense_won_experience: int = 10
    defense_lost_experience: int = 2
    tutorial_experience: int = 25
    # Rewards (rulebook: "A victory earns a victory pack, richer with your stars").
    victory_packs: Mapping[int, str] = field(
        default_factory=lambda: {3: "gold", 2: "silver", 1: "bronze"}
    )
    # "Against an automatic plan or a plan far below the budget, the pack is less rich":
    # one tier lower.
    poorer_packs: Mapping[str, str] = field(
        default_factory=lambda: {"gold": "silver", "silver": "bronze", "bronze": "copper"}
    )
    victory_packs_per_day: int = 5  # per UTC day
    # "beyond it, a victory earns other rewards": experience, per star.
    beyond_limit_experience_per_star: int = 10
    rampart_tokens_per_defense: int = 1  # rulebook: "a rampart token" (per defense won)
    objectives: tuple[Objective, ...] = (
        Objective("attack_three_times", "attack", 3, 20, "Finish 3 attacks"),
        Objective("win_three_stars", "three_stars", 1, 30, "Win an attack with three stars"),
        Objective("defend_once", "defense", 1, 20, "Win a defense"),
    )


ARENA = ArenaRules()


# -- tickets --------------------------------------------------------------------------------


@plain
@dataclass(frozen=True)
class Tickets:
    """Held tickets: ``count`` as of ``since``; they refill one per ``ticket_refill``
    from ``since`` while below the maximum (a full stock does not accumulate time)."""

    count: int
    since: datetime


def tickets_now(held: Tickets, now: datetime, rules: ArenaRules = ARENA) -> Tickets:
    """The tickets at ``now``: refills added, ``since`` moved to the last refill (or to
    ``now`` when full, so time spent full earns nothing)."""
    if held.count >= rules.max_tickets:
        return Tickets(held.count, max(held.since, now))
    refills = max(0, int((now - held.since) / rules.ticket_refill))
    count = min(rules.max_tickets, held.count + refills)
    if count >= rules.max_tickets:
        return Tickets(count, now)
    return Tickets(count, held.since + refills * rules.ticket_refill)


def next_ticket_at(held: Tickets, rules: ArenaRules = ARENA) -> datetime | None:
    """When the next ticket arrives (``held`` as of now), or None when full."""
    if held.count >= rules.max_tickets:
        return None
    return held.since + rules.ticket_refill


def spend_ticket(held: Tickets, now: datetime, rules: ArenaRules = ARENA) -> Tickets | None:
    """The tickets after an attack's one; None when there is none. Spending from a full
    stock starts the refill clock."""
    current = tickets_now(held, now, rules)
    if current.count < 1:
        return None
    since = now if current.count >= rules.max_tickets else current.since
    return Tickets(current.count - 1, since)


# -- protection ----------------------------------------------------------------------------


def protected_until(
    started_at: datetime, shield_until: datetime | None, rules: ArenaRules = ARENA
) -> datetime:
    """Until when a player cannot be attacked: new-player protection or a shield."""
    new_player = started_at + rules.new_player_protection
    return new_player if shield_until is None else max(new_player, shield_until)


def heavy_defeat(stars: int, rules: ArenaRules = ARENA) -> bool:
    return stars >= rules.heavy_defeat_stars


# -- what an attack's end earns ------------------------------------------------------------


@plain
@dataclass(frozen=True)
class AttackOutcome:
    """What the end of one attack changes for both players (the host applies it)."""

    stars: int
    attacker_trophies: int  # a change (the host keeps trophies at 0 or more)
    defender_trophies: int
    attacker_experience: int
    defender_experience: int
    pack: str | None  # the attacker's victory pack kind, if one
    beyond_limit: bool  # a victory past the day's limit: experience instead of a pack
    rampart_tokens: int  # the defender's
    shield: bool  # the defender is shielded from now


def attack_outcome(
    attacker_result: str, poorer: bool, packs_today: int, rules: ArenaRules = ARENA
) -> AttackOutcome:
    """``poorer``: the defense was an automatic plan or a plan far below its budget;
    ``packs_today``: the victory packs the attacker already earned this UTC day."""
    stars = STARS[attacker_result]
    pack = None
    beyond = False
    experience = rules.attack_experience + rules.experience_per_star * stars
    if stars:
        if packs_today >= rules.victory_packs_per_day:
            beyond = True
            experience += rules.beyond_limit_experience_per_star * stars
        else:
            pack = rules.victory_packs[stars]
            if poorer:
                pack = rules.poorer_packs[pack]
    won = stars == 0
    return AttackOutcome(
        stars=stars,
        attacker_trophies=rules.attack_trophies[stars],
        defender_trophies=rules.defense_trophies[stars],
        attacker_experience=experience,
        defender_experience=rules.defense_won_experience if won else rules.defense_lost_experience,
        pack=pack,
        beyond_limit=beyond,
        rampart_tokens=rules.rampart_tokens_per_defense if won else 0,
        shield=heavy_defeat(stars, rules),
    )


def with_trophies(trophies: int, change: int) -> int:
    """Trophies never go below 0."""
    return max(0, trophies + change)


# -- daily objectives -----------------------------------------------------------------------


def objective_events(attacker_result: str) -> tuple[list[str], list[str]]:
    """The objective events an attack's end counts: the attacker's, the defender's."""
    stars = STARS[attacker_result]
    attacker = ["attack"] + (["three_stars"] if stars == 3 else [])
    defender = ["defense"] if stars == 0 else []
    return attacker, defender


def objectives_of(event: str, rules: ArenaRules = ARENA) -> list[Objective]:
    return [o for o in rules.objectives if o.event == event]


def level_of(experience: int) -> int:
    return level_for(experience)

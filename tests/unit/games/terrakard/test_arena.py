"""games/terrakard/arena.py: tickets over time, protection and shields, trophies,
experience, victory packs and their daily limit, rampart tokens, daily objectives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.terrakard import arena
from games.terrakard.arena import ARENA, Tickets, attack_outcome

T0 = datetime(2026, 12, 1, 10, tzinfo=UTC)
HOUR = timedelta(hours=1)


def test_a_full_stock_stays_full_and_time_spent_full_earns_nothing():
    full = Tickets(ARENA.max_tickets, T0)
    later = arena.tickets_now(full, T0 + 10 * HOUR)
    assert later == Tickets(ARENA.max_tickets, T0 + 10 * HOUR)
    assert arena.next_ticket_at(later) is None


def test_spending_from_a_full_stock_starts_the_refill_clock():
    spent = arena.spend_ticket(Tickets(ARENA.max_tickets, T0), T0 + 5 * HOUR)
    assert spent == Tickets(ARENA.max_tickets - 1, T0 + 5 * HOUR)
    assert arena.next_ticket_at(spent) == T0 + 5 * HOUR + ARENA.ticket_refill


def test_tickets_refill_one_per_period_up_to_the_maximum_never_beyond():
    empty = Tickets(0, T0)
    tick = ARENA.ticket_refill
    assert arena.tickets_now(empty, T0 + tick - timedelta(microseconds=1)).count == 0
    assert arena.tickets_now(empty, T0 + tick) == Tickets(1, T0 + tick)
    # A part of a period is kept: the next ticket comes one period after the last one.
    two = arena.tickets_now(empty, T0 + 2 * tick + 20 * timedelta(minutes=1))
    assert two == Tickets(2, T0 + 2 * tick)
    assert arena.next_ticket_at(two) == T0 + 3 * tick
    assert arena.tickets_now(empty, T0 + 100 * tick).count == ARENA.max_tickets


def test_no_ticket_no_attack_and_a_spend_keeps_the_partial_period():
    assert arena.spend_ticket(Tickets(0, T0), T0 + timedelta(minutes=59)) is None
    after = arena.spend_ticket(Tickets(1, T0), T0 + timedelta(minutes=30))
    assert after == Tickets(0, T0)  # the ticket under way still comes at T0 + 1 h
    assert arena.tickets_now(after, T0 + HOUR).count == 1


def test_new_players_are_protected_for_a_while_and_a_shield_can_outlast_it():
    assert arena.protected_until(T0, None) == T0 + ARENA.new_player_protection
    late_shield = T0 + ARENA.new_player_protection + HOUR
    assert arena.protected_until(T0, late_shield) == late_shield
    assert arena.protected_until(T0, T0) == T0 + ARENA.new_player_protection


@pytest.mark.parametrize(
    ("result", "pack", "shield", "tokens"),
    [
        ("three_stars", "gold", True, 0),
        ("two_stars", "silver", True, 0),
        ("one_star", "bronze", False, 0),
        ("defeat", None, False, 1),
        ("forfeit", None, False, 1),  # rulebook: giving up counts as a defeat
    ],
)
def test_victory_packs_by_stars_a_shield_after_a_heavy_defeat_a_token_per_defense(
    result, pack, shield, tokens
):
    outcome = attack_outcome(result, poorer=False, packs_today=0)
    assert outcome.pack == pack
    assert outcome.shield is shield
    assert outcome.rampart_tokens == tokens
    assert not outcome.beyond_limit


@pytest.mark.parametrize(
    ("result", "pack"),
    [("three_stars", "silver"), ("two_stars", "bronze"), ("one_star", "copper")],
)
def test_against_an_automatic_or_weak_plan_the_pack_is_one_tier_poorer(result, pack):
    assert attack_outcome(result, poorer=True, packs_today=0).pack == pack


def test_past_the_daily_limit_a_victory_earns_experience_instead_of_a_pack():
    within = attack_outcome("two_stars", False, ARENA.victory_packs_per_day - 1)
    beyond = attack_outcome("two_stars", False, ARENA.victory_packs_per_day)
    assert within.pack == "silver" and not within.beyond_limit
    assert beyond.pack is None and beyond.beyond_limit
    assert beyond.attacker_experience == (
        within.attacker_experience + 2 * ARENA.beyond_limit_experience_per_star
    )
    # A defeat is no victory: the limit does not matter.
    assert attack_outcome("defeat", False, 99) == attack_outcome("defeat", False, 0)


def test_trophies_move_with_the_stars_and_never_go_below_zero():
    win = attack_outcome("three_stars", False, 0)
    lose = attack_outcome("defeat", False, 0)
    assert win.attacker_trophies > 0 > win.defender_trophies
    assert lose.attacker_trophies < 0 < lose.defender_trophies
    assert arena.with_trophies(5, -10) == 0
    assert arena.with_trophies(5, 10) == 15


def test_experience_rewards_attacks_and_defenses_and_the_level_follows_it():
    three = attack_outcome("three_stars", False, 0).attacker_experience
    one = attack_outcome("one_star", False, 0).attacker_experience
    defeat = attack_outcome("defeat", False, 0)
    assert three > one > defeat.attacker_experience > 0
    assert defeat.defender_experience == ARENA.defense_won_experience
    assert attack_outcome("one_star", False, 0).defender_experience == (
        ARENA.defense_lost_experience
    )
    assert arena.level_of(0) == 1 and arena.level_of(50) == 2


def test_objective_events_of_an_attack_s_end():
    assert arena.objective_events("three_stars") == (["attack", "three_stars"], [])
    assert arena.objective_events("one_star") == (["attack"], [])
    assert arena.objective_events("forfeit") == (["attack"], ["defense"])
    keys = {o.key for o in ARENA.objectives}
    assert len(keys) == len(ARENA.objectives) == 3
    assert [o.key for o in arena.objectives_of("attack")] == ["attack_three_times"]

"""An attack round by round: reconnaissance, 20 s rounds, the reserve, the knowledge
question, stars, giving up, and who may act (rules/terrakard.txt, "How an attack goes")."""

import pytest

from games.kit.refusal import Refusal
from games.terrakard import engine
from games.terrakard.actions import answer, begin, give_up, play, skip, timeout
from games.terrakard.content import Category, Rarity
from games.terrakard.plans import ReserveCondition, Trigger
from games.terrakard.report import defense_report
from games.terrakard.rules import legal_actions, stake
from games.terrakard.state import ATTACKER, DEFENDER, Answered, FinishReason, Phase
from tests.unit.games.terrakard.support import (
    T0,
    act,
    card,
    deck,
    later,
    plan,
    prepare_attack,
)


def code_of(state, action, at=T0, seat=ATTACKER):
    with pytest.raises(Refusal) as caught:
        engine.apply(state, seat, action, at)
    return caught.value.code


def questioned_plan(*rounds_with_question, reserve_question=False):
    rounds = tuple(card(f"D{i}", question=i in rounds_with_question) for i in range(5))
    return plan(rounds=rounds, reserve=card("R", atk=60, def_=30, question=reserve_question))


# -- reconnaissance and rounds ------------------------------------------------------------


def test_the_attack_starts_in_reconnaissance_for_thirty_seconds():
    state = prepare_attack(begin=False)
    assert state.phase is Phase.RECONNAISSANCE and state.deadline == later(30)
    assert state.attacker_hp == state.defense_hp == 150
    state, events = engine.apply(state, ATTACKER, begin(), later(3))
    assert (state.phase, state.round, state.deadline) == (Phase.CHOOSE, 1, later(23))
    assert events[0]["type"] == "round_started"


def test_the_reconnaissance_ends_by_itself_at_its_deadline():
    state = prepare_attack(begin=False)
    assert code_of(state, timeout(), later(29.999)) == "not_overdue"
    state, _ = engine.expire(state, later(31))
    assert state.phase is Phase.CHOOSE and state.deadline == later(50)  # from the deadline


def test_a_card_chosen_just_before_twenty_seconds_is_played():
    state = act(prepare_attack(), play(3), at=later(19.999))
    assert state.rounds[0].played.card == 3 and not state.rounds[0].played.auto


def test_at_twenty_seconds_the_server_plays_the_cheapest_remaining_card():
    cards = deck(A0=card("Rare", rarity=Rarity.RARE), A1=card("Uncommon", rarity=Rarity.UNCOMMON))
    state = prepare_attack(deck_cards=cards)
    assert engine.timeouts(state) == [(ATTACKER, timeout())]
    state, events = engine.apply(state, ATTACKER, play(0), later(20))  # too late
    assert events[0] == {"type": "too_late", "action": {"kind": "play", "card": 0}}
    assert state.rounds[0].played.card == 2 and state.rounds[0].played.auto
    assert state.deadline == later(40)  # round 2 starts at round 1's deadline


def test_a_late_sweeper_does_not_shorten_the_next_round():
    state, _ = engine.expire(prepare_attack(), later(26))
    assert state.round == 2 and state.deadline == later(40)


def test_a_disconnected_attacker_has_every_remaining_round_played_for_them():
    state = prepare_attack()
    at = T0
    while not state.finished:
        at = state.deadline
        state, _ = engine.expire(state, at)
    assert [r.played.auto for r in state.rounds] == [True] * 5
    assert [r.played.card for r in state.rounds] == [0, 1, 2, 3, 4]
    assert at == later(100)


def test_each_card_is_played_once_only():
    state = act(prepare_attack(), play(2))
    assert code_of(state, play(2)) == "card_already_played"
    assert code_of(state, play(8)) == "unknown_card"
    assert play(2) not in legal_actions(state, ATTACKER)


def test_the_defense_is_a_saved_plan_that_never_acts():
    state = prepare_attack()
    assert code_of(state, play(0), seat=DEFENDER) == "not_your_seat"
    assert legal_actions(state, DEFENDER) == []


def test_actions_out_of_their_phase_are_refused():
    state = prepare_attack()
    assert code_of(state, begin()) == "wrong_phase"
    assert code_of(state, skip()) == "wrong_phase"
    assert code_of(prepare_attack(begin=False), play(0)) == "wrong_phase"


# -- the reserve --------------------------------------------------------------------------


def revealed(state):
    return [(r.number, r.played.reserve) for r in state.rounds]


def test_reserve_on_a_chosen_category_comes_in_once_and_replaces_the_planned_card():
    condition = ReserveCondition(Trigger.CATEGORY, Category.SCIENCES)
    cards = deck(A1=card("S1", Category.SCIENCES), A2=card("S2", Category.SCIENCES))
    state = prepare_attack(deck_cards=cards, defense=plan(condition=condition))
    state = act(state, play(0), play(1), play(2), play(3))
    assert revealed(state) == [(1, False), (2, True), (3, False), (4, False)]
    assert state.reserve_round == 2


def test_reserve_on_epic_or_rarer():
    condition = ReserveCondition(Trigger.EPIC_OR_RARER)
    cards = deck(
        A0=card("Rare", rarity=Rarity.RARE),
        A1=card("Epic", rarity=Rarity.EPIC),
        A2=card("Legendary", rarity=Rarity.LEGENDARY),
    )
    state = act(prepare_attack(deck_cards=cards, defense=plan(condition=condition)), play(0))
    assert revealed(state) == [(1, False)]
    state = act(state, play(1))
    assert revealed(state)[-1] == (2, True)
    legendary_first = act(
        prepare_attack(deck_cards=cards, defense=plan(condition=condition)), play(2)
    )
    assert revealed(legendary_first) == [(1, True)]


@pytest.mark.parametrize(("hp", "comes_in"), [(76, False), (75, False), (74, True)])
def test_reserve_when_the_defense_is_below_half_its_hp_at_the_rounds_start(hp, comes_in):
    state = prepare_attack().replace(defense_hp=hp)
    state = act(state, play(0))
    assert state.rounds[0].played.reserve is comes_in


def test_the_replaced_card_is_not_played_and_the_plan_goes_on_in_order():
    condition = ReserveCondition(Trigger.CATEGORY, Category.SCIENCES)
    cards = deck(A1=card("S1", Category.SCIENCES))
    state = prepare_attack(deck_cards=cards, defense=plan(condition=condition))
    state = act(state, play(0), play(1), play(2))
    report = defense_report(state)
    assert [r["defense_card"]["name"] for r in report["rounds"]] == ["D0", "R", "D2"]


# -- the knowledge question ---------------------------------------------------------------


def test_the_question_comes_at_the_first_round_whose_planned_card_has_one():
    state = prepare_attack(defense=questioned_plan(2, 3))
    state = act(state, play(0), play(1))
    assert state.phase is Phase.CHOOSE and state.question is None
    state, events = engine.apply(state, ATTACKER, play(2), later(4))
    assert state.phase is Phase.QUESTION and state.deadline == later(19)
    asked = next(e for e in events if e["type"] == "question_asked")
    assert asked["question"]["choices"] == ["one", "two", "three"]
    assert asked["stake"] == {
        "difficulty": "easy",
        "changes": "your cards' ATK",
        "right": "+15%",
        "wrong": "-5%",
        "from_round": 3,
    }


def test_the_question_is_asked_once_and_its_effect_lasts_to_the_end():
    state = prepare_attack(defense=questioned_plan(0, 1))
    state = act(state, play(0), answer(1, correct=True))
    assert state.question.answered is Answered.RIGHT
    assert state.rounds[0].to_defense == 35  # ATK 40 x 1.15 - 10.8
    state = act(state, play(1))
    assert state.phase is Phase.CHOOSE  # no second question
    assert state.rounds[1].to_defense == 35 and state.rounds[1].knowledge


def test_a_wrong_easy_answer_lowers_atk_by_five_percent():
    state = act(prepare_attack(defense=questioned_plan(0)), play(0), answer(2, correct=False))
    assert state.rounds[0].to_defense == 27  # 38 - 10.8


@pytest.mark.parametrize(
    ("rarity", "to_defense", "to_attacker"),
    [(Rarity.RARE, 29, 28), (Rarity.EPIC, 32, 30), (Rarity.LEGENDARY, 32, 30)],
)
def test_medium_and_hard_questions_by_the_revealed_cards_rarity(rarity, to_defense, to_attacker):
    rounds = (card("D0", rarity=rarity, question=True), *(card(f"D{i}") for i in range(1, 5)))
    state = act(prepare_attack(defense=plan(rounds=rounds)), play(0), answer(0, correct=True))
    assert (state.rounds[0].to_defense, state.rounds[0].to_attacker) == (to_defense, to_attacker)


def test_skipping_or_letting_fifteen_seconds_pass_has_no_effect():
    skipped = act(prepare_attack(defense=questioned_plan(0)), play(0), skip())
    assert skipped.question.answered is Answered.SKIPPED and skipped.rounds[0].to_defense == 29
    waiting = act(prepare_attack(defense=questioned_plan(0)), play(0))
    assert code_of(waiting, timeout(), later(14.999)) == "not_overdue"
    timed_out, _ = engine.expire(waiting, later(15))
    assert timed_out.question.answered is Answered.TIMED_OUT
    assert timed_out.rounds[0].to_defense == 29 and timed_out.deadline == later(35)


def test_an_answer_the_server_did_not_mark_is_refused():
    from games.terrakard.actions import Action, ActionKind

    waiting = act(prepare_attack(defense=questioned_plan(0)), play(0))
    assert code_of(waiting, Action(ActionKind.ANSWER, choice=0)) == "answer_not_marked"
    assert code_of(waiting, answer(3, correct=True)) == "unknown_choice"


def test_questions_turned_off_are_never_asked():
    state = act(prepare_attack(defense=questioned_plan(0), questions=False), play(0))
    assert state.phase is Phase.CHOOSE and state.question is None


def test_a_reserve_without_a_question_moves_the_question_to_a_later_round():
    condition = ReserveCondition(Trigger.CATEGORY, Category.SCIENCES)
    defense = questioned_plan(0, 2).replace(condition=condition)
    cards = deck(A0=card("S0", Category.SCIENCES))
    state = act(prepare_attack(deck_cards=cards, defense=defense), play(0), play(1))
    assert state.question is None and state.phase is Phase.CHOOSE
    state = act(state, play(2))
    assert state.phase is Phase.QUESTION and state.question.round == 3


def test_a_reserve_with_a_question_is_asked_about():
    condition = ReserveCondition(Trigger.CATEGORY, Category.SCIENCES)
    defense = questioned_plan(0, reserve_question=True).replace(condition=condition)
    cards = deck(A0=card("S0", Category.SCIENCES))
    _, events = engine.apply(
        prepare_attack(deck_cards=cards, defense=defense), ATTACKER, play(0), T0
    )
    asked = next(e for e in events if e["type"] == "question_asked")
    assert asked["question"]["id"] == "q-R"


def test_an_auto_played_card_gets_no_knowledge_bonus_but_the_effect_stays():
    state = act(prepare_attack(defense=questioned_plan(0)), play(0), answer(0, correct=True))
    state, _ = engine.expire(state, state.deadline)
    assert state.rounds[1].played.auto and not state.rounds[1].knowledge
    assert state.rounds[1].to_defense == 29
    state = act(state, play(5), at=later(21))  # round 3 started at round 2's deadline (20 s)
    assert state.rounds[2].knowledge and state.rounds[2].to_defense == 35


def test_the_cabinet_of_curiosities_scales_the_stake_and_the_effect():
    state = act(
        prepare_attack(defense=questioned_plan(0), terrain="Cabinet of curiosities"), play(0)
    )
    assert stake(state)["right"] == "+22.5%" and stake(state)["wrong"] == "-7.5%"
    state = act(state, answer(0, correct=True))
    assert state.rounds[0].to_defense == 38  # 40 x 1.225 - 10.8 = 38.2


# -- the end --------------------------------------------------------------------------------


def test_three_stars_when_the_defense_falls_and_the_attack_stops_at_once():
    state = act(prepare_attack(deck_cards=deck(A0=card("Titan", atk=200))), play(0))
    assert (state.stars, state.finish_reason, len(state.rounds)) == (
        3,
        FinishReason.DEFENSE_DOWN,
        1,
    )
    assert state.finished and state.deadline is None
    assert code_of(state, play(1)) == "attack_finished"


def test_both_down_in_the_same_round_goes_to_the_defense():
    rounds = (card("Giant", atk=200), *(card(f"D{i}") for i in range(1, 5)))
    cards = deck(A0=card("Titan", atk=200))
    state = act(prepare_attack(deck_cards=cards, defense=plan(rounds=rounds)), play(0))
    assert (state.stars, state.finish_reason) == (0, FinishReason.BOTH_DOWN)
    assert state.attacker_hp == state.defense_hp == 0


def test_the_attacker_falling_is_a_defeat():
    rounds = (card("Giant", atk=200), *(card(f"D{i}") for i in range(1, 5)))
    state = act(prepare_attack(defense=plan(rounds=rounds)), play(0))
    assert (state.stars, state.finish_reason) == (0, FinishReason.ATTACKER_DOWN)


@pytest.mark.parametrize(
    ("attacker_hp", "defense_hp", "stars"),
    [
        (120, 104, 2),  # 90 against 75: the defense at exactly 50%
        (120, 105, 1),  # 90 against 76
        (106, 104, 2),  # 76 against 75
        (105, 104, 0),  # 75 against 75: a tie goes to the defense
        (104, 104, 0),  # 74 against 75
    ],
)
def test_stars_after_the_last_round(attacker_hp, defense_hp, stars):
    state = prepare_attack().replace(round=5, attacker_hp=attacker_hp, defense_hp=defense_hp)
    state = act(state, play(0))  # 29 to the defense, 30 to the attacker
    assert state.finished and state.stars == stars
    assert state.finish_reason is FinishReason.LAST_ROUND


def test_giving_up_is_a_defeat_in_any_phase():
    for state in (
        prepare_attack(begin=False),
        prepare_attack(),
        act(prepare_attack(defense=questioned_plan(0)), play(0)),
    ):
        over = act(state, give_up())
        assert over.finished and over.stars == 0
        assert over.finish_reason is FinishReason.GAVE_UP


def test_giving_up_after_the_deadline_comes_after_the_timeout():
    cards = deck(A0=card("Titan", atk=200))
    state, events = engine.apply(prepare_attack(deck_cards=cards), ATTACKER, give_up(), later(21))
    assert state.stars == 3  # the auto-played card (the first cheapest) won first
    assert events[-1]["type"] == "action_ignored"
    slow = prepare_attack()
    slow, _ = engine.apply(slow, ATTACKER, give_up(), later(21))
    assert slow.finish_reason is FinishReason.GAVE_UP and len(slow.rounds) == 1


def test_the_terrain_is_drawn_from_the_seed_among_the_seasons_terrains():
    from games.terrakard.engine import Settings
    from games.terrakard.state import AttackerSide, DefenseSide

    drawn = {
        engine.new_match(
            AttackerSide(deck()), DefenseSide(plan(), "R", 1, 0), seed, T0, Settings()
        ).terrain.name
        for seed in range(60)
    }
    assert len(drawn) == 6

"""TerraKard as a game of ``deckyard balance``: a player's attack on a saved defense.

The attack is the player against a plan over five rounds; the "CPU" is the plan, which
never acts. The seats are the engine's, ``attacker`` (``--player-*``) and ``defender``
(``--cpu-*``). The cards are the seeded sample's (``services/authoring/seed/
terrakard_articles.sample.jsonl`` through the card pipeline: the bodies the seed
publishes), each with its knowledge question.

What a new player has (docs/balance/terrakard.md): the starting collection
(``collection.starting_cards``: 8 Commons and 2 Uncommons) at level 1 after the
tutorial. Attacking decks: ``starter`` (the eight strongest of it, ATK + DEF, within the
level's budget) and ``starter:any`` (eight of the ten at random, a new one each match).
Defenses: ``training`` (the automatic plan of the starting collection: the tutorial's
training plan and any new player's defense) and ``demo:<key>`` (a demo defender's plan
from the catalogue, ``games.terrakard.demo_defenders``), or six card names (five rounds,
then the reserve; condition low HP, posture Balanced).

Policies: the kit's ``random`` (never giving up), a fair ``greedy`` of this module (it
does not see the plan: below) and ``lookahead`` (the kit's, one ply here since the
defender never replies: it sees each card's reveal, so it knows the plan: a ceiling).
A question is answered as a new player would: a guess among the three answers (the
greedy player always answers, since a guess is worth it; the random one clicks any of
the answers or skip), marked against the sample's key as the host marks it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from games.kit.chance import RandomState, uniform
from games.kit.protocol import Engine, Event, Seat
from games.terrakard import config
from games.terrakard.actions import Action, ActionKind, answer, begin, marked, play
from games.terrakard.articles import parse_line
from games.terrakard.automatic import (
    AUTOMATIC_CONDITION,
    AUTOMATIC_POSTURE,
    automatic_plan,
    choose_cards,
)
from games.terrakard.automatic import strength as card_strength
from games.terrakard.collection import LOWEST_LEVEL, starting_cards
from games.terrakard.content import CHOICES_PER_QUESTION, Card, QuestionFace, category, rarity
from games.terrakard.damage import exchange
from games.terrakard.demo_defenders import DEMO_DEFENDERS, demo_plan
from games.terrakard.drafts import card_body, question_body
from games.terrakard.engine import Settings
from games.terrakard.game import STARS_WORD, TERRAKARD_CPU, TerraKardEngine
from games.terrakard.plans import DefensePlan, Posture
from games.terrakard.rules import knowledge_of, unused
from games.terrakard.state import ATTACKER, DEFENDER, AttackerSide, AttackState, DefenseSide, Phase

SAMPLE = Path(__file__).parents[1] / "services/authoring/seed/terrakard_articles.sample.jsonl"
SAMPLE_YEAR = 2025  # as the seed drafts the questions (services/authoring/terrakard_seed.py)
SEATS = (ATTACKER, DEFENDER)
LEVEL = LOWEST_LEVEL  # a new player after the tutorial (25 experience of 50)
DECIDED = 1000.0  # a finished attack's score: beyond any difference of hit points
STARTER, ANY_STARTER, TRAINING, DEMO = "starter", "starter:any", "training", "demo:"
WHAT_IF = "automatic:"

Catalogue = dict[str, dict[str, Any]]  # card name -> {"kind", "body", "question"}


@functools.cache
def _shipped() -> Catalogue:
    catalogue: Catalogue = {}
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        article = parse_line(line)
        if article is not None:
            body = card_body(article)
            catalogue[body["name"]] = {
                "kind": "card",
                "body": body,
                "question": question_body(article, SAMPLE_YEAR),
            }
    return catalogue


def load_catalogue() -> Catalogue:
    """Every card of the seeded sample by name, with its question (or None)."""
    return dict(_shipped())


def card(catalogue: Mapping[str, Mapping[str, Any]], name: str) -> Card:
    """The match's snapshot of a catalogue card; its question without the key."""
    if name not in catalogue:
        raise ValueError(f"not in the catalogue: {name}")
    body, question = catalogue[name]["body"], catalogue[name]["question"]
    face = None
    if question is not None:
        face = QuestionFace(f"q-{name}", question["prompt"], tuple(question["choices"]))
    return Card(
        card_id=f"seed-{name}",
        name=name,
        category=category(body["category"]),
        rarity=rarity(body["rarity"]),
        atk=int(body["atk"]),
        def_=int(body["def"]),
        question=face,
    )


def starting_collection(catalogue: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    """A new player's cards, chosen as the cards service chooses them."""
    definitions = [
        {"name": name, "rarity": e["body"]["rarity"], "attributes": e["body"]}
        for name, e in catalogue.items()
    ]
    return [card(catalogue, str(d["name"])) for d in starting_cards(definitions)]


def strongest_deck(collection: Sequence[Card], level: int = LEVEL) -> list[Card]:
    """The eight strongest cards (ATK + DEF, then cheaper) that fit the level's budget,
    as a player who plays to win builds the deck: the strongest first, skipping a card
    that would leave too little budget for the cheapest rest."""
    budget = config.budget_for(level).attack
    ranked = sorted(collection, key=lambda c: (-card_strength(c), c.cost, c.name))
    chosen: list[Card] = []
    for candidate in ranked:
        left = [c for c in ranked if c is not candidate and c not in chosen]
        rest = sorted(c.cost for c in left)[: config.DECK_SIZE - len(chosen) - 1]
        spent = sum(c.cost for c in chosen)
        if len(chosen) < config.DECK_SIZE and spent + candidate.cost + sum(rest) <= budget:
            chosen.append(candidate)
    return chosen


def _attack_deck(
    catalogue: Mapping[str, Mapping[str, Any]], names: Sequence[str], rng: RandomState
) -> list[Card]:
    if tuple(names) == (STARTER,):
        return strongest_deck(starting_collection(catalogue))
    if tuple(names) == (ANY_STARTER,):
        owned = starting_collection(catalogue)
        deck: list[Card] = []
        while len(deck) < config.DECK_SIZE:
            picked, rng = rng.choose([c for c in owned if c not in deck])
            deck.append(picked)
        return deck
    return [card(catalogue, name) for name in names]


def _defense(catalogue: Mapping[str, Mapping[str, Any]], names: Sequence[str]) -> DefenseSide:
    if tuple(names) == (TRAINING,):
        plan = automatic_plan(starting_collection(catalogue), LEVEL)
        assert plan is not None, "the starting collection always makes a plan (config.py)"
        return DefenseSide(plan, "Training plan", LEVEL, 0, automatic=True)
    if len(names) == 1 and names[0].startswith(WHAT_IF):
        return DefenseSide(what_if(catalogue, names[0]), "What if", LEVEL, 0, automatic=True)
    if len(names) == 1 and names[0].startswith(DEMO):
        key = names[0].removeprefix(DEMO)
        defender = next((d for d in DEMO_DEFENDERS if d.key == key), None)
        if defender is None:
            raise ValueError(f"no demo defender {key!r}")
        found = demo_plan(defender, [card(catalogue, n) for n in catalogue])
        assert found is not None, "the sample always makes a demo plan"
        return DefenseSide(found, defender.display_name, defender.level, defender.trophies)
    cards = [card(catalogue, name) for name in names]
    if len(cards) != config.PLAN_ROUNDS + 1:
        raise ValueError("a defense is six cards: five rounds, then the reserve")
    plan = DefensePlan(tuple(cards[:-1]), cards[-1], AUTOMATIC_CONDITION, AUTOMATIC_POSTURE)
    return DefenseSide(plan, "Plan", LEVEL, 0)


def what_if(catalogue: Mapping[str, Mapping[str, Any]], recipe: str) -> DefensePlan:
    """``automatic:<budget>:<posture>``: the automatic plan's choice from the starting
    collection at another defense budget, with another posture: what a change of those
    numbers (ours: config.LEVEL_BUDGETS, automatic.AUTOMATIC_POSTURE) would do."""
    budget, posture = recipe.removeprefix(WHAT_IF).split(":")
    cards = choose_cards(starting_collection(catalogue), int(budget))
    if cards is None:
        raise ValueError(f"no automatic plan within {budget}")
    reserve, *rounds = cards
    return DefensePlan(tuple(rounds), reserve, AUTOMATIC_CONDITION, Posture(posture))


def deal(
    catalogue: Mapping[str, Mapping[str, Any]], decks: Mapping[Seat, tuple[str, ...]], seed: int
) -> dict[Seat, Any]:
    """The attacker's deck (``starter:any`` drawn from the match's seed) and the plan."""
    rng = RandomState(seed=seed, stream="balance:deck")
    attacker = AttackerSide(tuple(_attack_deck(catalogue, decks[ATTACKER], rng)))
    return {ATTACKER: attacker, DEFENDER: _defense(catalogue, decks[DEFENDER])}


def named_decks(catalogue: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[str, ...]]:
    names = [STARTER, ANY_STARTER, TRAINING, *(DEMO + d.key for d in DEMO_DEFENDERS)]
    return {name: (name,) for name in names}


def demo_keys(level: int = LEVEL) -> list[str]:
    """The demo defenders of ``level``: those a new player meets at their own level."""
    return [DEMO + d.key for d in DEMO_DEFENDERS if d.level == level]


def score(state: AttackState, seat: Seat) -> float:
    """The attacker's lead in hit points; a finished attack beyond any lead (stars more)."""
    lead = state.attacker_hp - state.defense_hp
    if state.finished:
        won = DECIDED + state.stars if state.attacker_won else -DECIDED
        lead = int(won)
    return float(lead if seat == ATTACKER else -lead)


def cards_played(state: AttackState, seat: Seat, action: Action) -> tuple[str, ...]:
    if action.kind is ActionKind.PLAY and action.card is not None:
        return (state.attacker.deck[action.card].name,)
    return ()


def _unrevealed(state: AttackState) -> list[Card]:
    """The defense cards the attacker has not seen yet: what may come this round."""
    plan = state.defense.plan
    left = list(plan.rounds[state.round - 1 :])
    return left if state.reserve_round is not None else [*left, plan.reserve]


def greedy(engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime) -> Any:
    """A new player who plays to win without seeing the plan: the card with the best mean
    exchange (damage dealt less damage taken) against the defense cards still unseen,
    cheaper on a tie; it begins at once and answers the question (a guess)."""
    if state.phase is Phase.RECONNAISSANCE:
        return begin()
    if state.phase is Phase.QUESTION:
        choice, _ = uniform(seed, f"guess:{state.version}", 0, CHOICES_PER_QUESTION)
        return answer(choice, False)  # marked by the host (``_Hosted``)
    coming = _unrevealed(state)
    knowledge = knowledge_of(state)

    def expected(index: int) -> tuple[float, int, int]:
        mine = state.attacker.deck[index]
        total = 0
        for theirs in coming:
            hits = exchange(
                mine,
                theirs,
                terrain=state.terrain,
                posture=state.defense.plan.posture,
                round_number=state.round,
                knowledge=knowledge,
            )
            total += hits.to_defense - hits.to_attacker
        return total / len(coming), -mine.cost, -index

    return play(max(unused(state), key=expected))


def _marked(state: AttackState, action: Action) -> Action:
    """An answer marked as the host marks it: against the key of the revealed card's
    question (the sample's)."""
    if action.kind is not ActionKind.ANSWER or state.played is None:
        return action
    plan = state.defense.plan
    revealed = plan.reserve if state.played.reserve else plan.rounds[state.round - 1]
    question = _shipped()[revealed.name]["question"]
    return marked(action, int(question["answer"]))


class _Hosted:
    """The engine as battle hosts it for a simulation: an answer is marked before it is
    applied (the engine refuses an unmarked one), and giving up is left out of the
    attacker's choices (a simulation measures play, not surrender, as the kit's policies
    leave out a "forfeit"). It wraps the engine rather than subclassing it: compiled
    (``make engines``), the engine's class cannot be inherited by interpreted code."""

    def __init__(self, engine: TerraKardEngine) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def legal_actions(self, state: AttackState, seat: Seat) -> list[Action]:
        return [
            a for a in self._engine.legal_actions(state, seat) if a.kind is not ActionKind.GIVE_UP
        ]

    def apply(
        self, state: AttackState, seat: Seat, action: Action, now: datetime
    ) -> tuple[AttackState, list[Event]]:
        return self._engine.apply(state, seat, _marked(state, action), now)


def attack_deck(catalogue: Mapping[str, Mapping[str, Any]], names: Sequence[str]) -> list[Card]:
    """An attack deck of card names (a named one is dealt: ``deal``)."""
    return [card(catalogue, name) for name in names]


ENGINE = _Hosted(TerraKardEngine())
WINNING = frozenset({*STARS_WORD.values(), "victory"})  # the defender's word
CPU = TERRAKARD_CPU  # acts for the attacker only: on the defender's seat, never asked


def settings() -> Settings:
    return Settings()


def dump(catalogue: Mapping[str, Mapping[str, Any]]) -> str:
    """The starting collection and the level-1 defenses as text, for the report."""
    owned = starting_collection(catalogue)
    lines = [
        "starting collection: "
        + ", ".join(f"{c.name} ({c.rarity}, {c.atk}/{c.def_})" for c in owned)
    ]
    lines.append("strongest deck: " + ", ".join(c.name for c in strongest_deck(owned)))
    for name in (TRAINING, *demo_keys()):
        plan = _defense(catalogue, (name,)).plan
        rounds = ", ".join(c.name for c in plan.rounds)
        lines.append(f"{name}: {rounds}; reserve {plan.reserve.name}; {plan.posture}")
    return "\n".join(lines)

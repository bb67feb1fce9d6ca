"""Builders for TerraKard tests: cards, decks, plans and a prepared attack."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.terrakard import engine
from games.terrakard.actions import Action
from games.terrakard.content import Card, Category, QuestionFace, Rarity
from games.terrakard.engine import Settings
from games.terrakard.plans import DefensePlan, Posture, ReserveCondition, Trigger
from games.terrakard.state import ATTACKER, AttackerSide, AttackState, DefenseSide
from games.terrakard.terrains import TERRAINS_BY_NAME, Terrain

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
NEUTRAL = Terrain("Neutral ground")  # no effect at all: isolates the rule under test


def card(
    name: str,
    category: Category = Category.GEOGRAPHY,
    rarity: Rarity = Rarity.COMMON,
    atk: int = 40,
    def_: int = 20,
    question: bool = False,
    card_id: str | None = None,
) -> Card:
    face = None
    if question:
        face = QuestionFace(f"q-{name}", f"About {name}?", ("one", "two", "three"))
    return Card(card_id or f"copy-{name}", name, category, rarity, atk, def_, face)


def deck(**overrides: Card) -> tuple[Card, ...]:
    """Eight Geography Commons A0..A7 (ATK 40, DEF 20), some replaced by index name."""
    cards = [card(f"A{i}") for i in range(8)]
    for key, value in overrides.items():
        cards[int(key[1:])] = value
    return tuple(cards)


def plan(
    rounds: tuple[Card, ...] | None = None,
    reserve: Card | None = None,
    condition: ReserveCondition | None = None,
    posture: Posture = Posture.BALANCED,
) -> DefensePlan:
    return DefensePlan(
        rounds or tuple(card(f"D{i}") for i in range(5)),
        reserve or card("R", atk=60, def_=30),
        condition or ReserveCondition(Trigger.LOW_HP),
        posture,
    )


def prepare_attack(
    *,
    deck_cards: tuple[Card, ...] | None = None,
    defense: DefensePlan | None = None,
    terrain: str | Terrain = NEUTRAL,
    questions: bool = True,
    seed: int = 7,
    automatic: bool = False,
    begin: bool = True,
) -> AttackState:
    """An attack on a chosen terrain (the only terrain in its settings), past the
    reconnaissance unless ``begin`` is False."""
    chosen = TERRAINS_BY_NAME[terrain] if isinstance(terrain, str) else terrain
    state = engine.new_match(
        AttackerSide(deck_cards or deck(), questions),
        DefenseSide(defense or plan(), "Rival", 4, 1200, automatic),
        seed,
        T0,
        Settings(terrains=(chosen,)),
    )
    if begin:
        state, _ = engine.apply(state, ATTACKER, Action.from_dict({"kind": "begin"}), T0)
    return state


def act(state: AttackState, *actions: Action, at: datetime = T0) -> AttackState:
    for action in actions:
        state, _ = engine.apply(state, ATTACKER, action, at)
    return state


def later(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)

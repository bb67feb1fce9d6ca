"""TerraKard's shipped sample, as the seed publishes it, holds what the game needs on a
fresh install: a starting collection, cards of every rarity any pack kind may draw, and
knowledge questions of every difficulty (docs/terrakard.md, "The sample, seeded")."""

from collections import Counter

from games.terrakard.articles import parse_line
from games.terrakard.collection import starting_cards
from games.terrakard.config import STARTING_COMMONS, STARTING_UNCOMMONS
from games.terrakard.content import GAME, Difficulty
from games.terrakard.drafts import card_body, question_body
from services.authoring.terrakard_seed import (
    SAMPLE,
    SAMPLE_YEAR,
    card_ref,
    question_ref,
    sample_articles,
    version_ref,
)
from services.cards.economy import load_economy


def sample():
    with SAMPLE.open(encoding="utf-8") as lines:
        return sample_articles(lines)


def published_cards():
    """The sample's cards as the cards service lists published definitions."""
    cards = [card_body(a) for a in sample()]
    return [
        {"name": c["name"], "rarity": c["rarity"], "attributes": {"category": c["category"]}}
        for c in cards
    ]


def test_the_sample_alone_gives_a_starting_collection():
    chosen = starting_cards(published_cards())

    rarities = Counter(c["rarity"] for c in chosen)
    assert rarities == {"Common": STARTING_COMMONS, "Uncommon": STARTING_UNCOMMONS}
    # Categories taken in turn: the eight Commons span more than half the cycle.
    assert len({c["attributes"]["category"] for c in chosen if c["rarity"] == "Common"}) >= 5


def test_every_pack_kind_of_a_default_install_finds_cards_of_every_rarity_it_may_draw():
    held = {c["rarity"] for c in published_cards()}
    kinds = load_economy().packs_of(GAME)

    assert {k.kind for k in kinds} == {"gold", "silver", "bronze", "copper", "rampart"}
    for kind in kinds:
        assert kind.needed_rarities() <= held, kind.kind


def test_the_sample_asks_questions_of_every_difficulty():
    questions = [question_body(a, SAMPLE_YEAR) for a in sample()]

    found = Counter(q["difficulty"] for q in questions if q is not None)
    assert set(found) == {str(d) for d in Difficulty}


def test_the_added_commons_keep_the_samples_figures_and_say_they_are_ours():
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    ours = next(i for i, line in enumerate(lines) if line.startswith('{"comment": "OURS'))
    added = [card_body(parse_line(line)) for line in lines[ours + 1 :]]

    assert added and {c["rarity"] for c in added} == {"Common"}
    assert all(c["figures"]["approximate"] for c in added)
    originals = [card_body(a) for a in map(parse_line, lines[:ours]) if a is not None]
    commons = [c for c in originals if c["rarity"] == "Common"]
    assert min(c["atk"] for c in commons) <= min(c["atk"] for c in added)
    assert max(c["atk"] for c in added) <= max(c["atk"] for c in commons)


def test_a_version_reference_follows_the_body_and_fits_the_seed_table():
    body = card_body(sample()[0])
    longest = "x" * 80  # the longest title authoring accepts

    assert version_ref(card_ref("A"), body) == version_ref(card_ref("A"), dict(body))
    assert version_ref(card_ref("A"), body) != version_ref(card_ref("A"), {**body, "atk": 1})
    assert card_ref(" Foucault  Pendulum ") == card_ref("foucault pendulum")
    assert len(version_ref(question_ref(longest), body)) <= 120  # seed_refs.ref

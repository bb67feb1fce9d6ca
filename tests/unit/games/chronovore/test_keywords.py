"""Keywords (rulebook, "Bold words on a card are keywords. Rest on the card to read the
definition."): every bold word any card of the Core Set shows comes with its definition,
from the one table in games/chronovore/content.py."""

from games.chronovore.cards import Card, card_from_definition
from games.chronovore.content import KEYWORDS, Keyword

from .support import core_set_entries

# The rulebook's own words for each keyword ("Cards, monsters, and events").
RULEBOOK = {
    "Initiative": "This monster strikes the hero first.",
    "Strike": "Your hero hits the enemy hero once, for your current attack.",
    "Copy the card in the opposing slot": "You gain a copy of the card your opponent played",
    "The next enemy card": "When you defeat the monster, or pay the event,",
}


def bold_words(body: dict) -> set[str]:
    """The keywords a card's face shows, read from its data alone: Initiative on a monster
    (or on the next enemy monster it makes harder), and the keywords among its rewards."""
    words = {"Initiative"} if body.get("initiative") else set()
    for reward in body.get("rewards", []):
        words |= {
            "strike": {"Strike"},
            "copy_opposing": {"Copy the card in the opposing slot"},
            "next_enemy": {"The next enemy card"},
        }.get(reward["type"], set())
        if reward.get("initiative"):
            words.add("Initiative")
    return words


def test_every_keyword_any_core_set_card_shows_comes_with_its_definition():
    for entry in core_set_entries():
        card = card_from_definition(entry["kind"], entry["body"])
        shown = card.to_dict()["keywords"]
        assert {k["name"] for k in shown} == bold_words(entry["body"]), card.name
        for keyword in shown:
            assert keyword["definition"] == KEYWORDS[Keyword(keyword["keyword"])].definition
            assert keyword["definition"].strip(), (card.name, keyword["name"])


def test_bandit_scout_shows_initiative_with_the_rulebook_s_definition():
    entry = next(e for e in core_set_entries() if e["body"]["name"] == "Bandit Scout")
    card = card_from_definition(entry["kind"], entry["body"])
    assert card.initiative
    assert card.to_dict()["keywords"] == [
        {
            "keyword": "initiative",
            "name": "Initiative",
            "definition": "This monster strikes the hero first.",
        }
    ]


def test_every_keyword_has_a_name_and_a_definition_quoted_from_the_rulebook():
    assert set(KEYWORDS) == set(Keyword)
    assert {text.name for text in KEYWORDS.values()} == set(RULEBOOK)
    for text in KEYWORDS.values():
        assert text.from_rulebook  # none is ours: the rulebook defines each one
        assert text.definition.startswith(RULEBOOK[text.name])


def test_a_card_s_dict_with_its_keywords_reads_back_as_the_same_card():
    entry = next(e for e in core_set_entries() if e["body"]["name"] == "Cathedral Golem")
    card = card_from_definition(entry["kind"], entry["body"])
    data = card.to_dict()
    assert [k["name"] for k in data["keywords"]] == ["The next enemy card", "Initiative"]
    assert Card.from_dict(data) == card
    data["keywords"].clear()  # a caller's change never reaches the next dict
    assert card.to_dict()["keywords"]

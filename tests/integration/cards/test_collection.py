"""The starter grant, the collection and saved decks, over RPC on real PostgreSQL."""

import uuid
from datetime import UTC, datetime

import eventlet
import pytest
import sqlalchemy as sa
from nameko.standalone.rpc import ClusterRpcProxy

from games.kit.fair import verify_history
from services.cards import orm
from shared.errors import Conflict, InvalidInput, NotFound
from tests.integration.cards.test_rewards import definition

pytestmark = pytest.mark.integration

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def cards_engine(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def starter_set(cards_engine):
    """The published starter cards: four Wit (more than three), three Grit, two shared
    Power cards; Spark has only two, so a Spark choice cannot be granted."""
    rows = {
        "wit": [definition(affinity="Wit", starter=True) for _ in range(4)],
        "grit": [definition(affinity="Grit", starter=True) for _ in range(3)],
        "spark": [definition(affinity="Spark", starter=True) for _ in range(2)],
        "power": [
            definition(kind="power_card", name="Field Kit", starter=True),
            definition(kind="power_card", name="Reserve Focus", starter=True),
        ],
        "not_starters": [
            definition(affinity="Wit"),  # a Common Wit Creature that is not a starter
            definition("Rare", affinity="Wit", starter=True),
        ],
    }
    definitions = orm.card_definitions.c
    with cards_engine.begin() as conn:
        # This module describes the published starters: retire any that others left...
        retired = (
            conn.execute(
                sa.update(orm.card_definitions)
                .where(
                    definitions.retired_at.is_(None),
                    definitions.attributes.contains({"starter": True})
                    | definitions.name.in_(["Field Kit", "Reserve Focus"]),
                )
                .values(retired_at=NOW)
                .returning(definitions.id)
            )
            .scalars()
            .all()
        )
        for group in rows.values():
            conn.execute(sa.insert(orm.card_definitions), group)
    yield rows
    # ...and gives them back after: the e2e platform shares this database (its seeded
    # starters must be published again for the tests that run after this module).
    ours = [row["id"] for group in rows.values() for row in group]
    with cards_engine.begin() as conn:
        conn.execute(
            sa.update(orm.card_definitions).where(definitions.id.in_(ours)).values(retired_at=NOW)
        )
        conn.execute(
            sa.update(orm.card_definitions)
            .where(definitions.id.in_(retired))
            .values(retired_at=None)
        )


@pytest.fixture
def cards(start_service, rpc, starter_set):
    start_service("cards")
    return rpc.cards


def copies_of(cards_engine, player_id):
    with cards_engine.connect() as conn:
        return conn.execute(
            sa.select(sa.func.count()).where(orm.owned_cards.c.player_id == uuid.UUID(player_id))
        ).scalar_one()


def test_a_starter_choice_grants_three_distinct_commons_and_the_two_power_cards(cards, starter_set):
    player = str(uuid.uuid4())
    chosen = cards.choose_starter(player_id=player, affinity="Wit")
    assert chosen["created"] is True
    starter = chosen["starter"]
    assert starter["affinity"] == "Wit"
    creatures = [c for c in starter["cards"] if c["kind"] == "creature"]
    powers = sorted(c["name"] for c in starter["cards"] if c["kind"] == "power_card")
    wit_ids = {str(d["id"]) for d in starter_set["wit"]}
    assert len(creatures) == 3
    assert len({c["definition_id"] for c in creatures}) == 3
    assert {c["definition_id"] for c in creatures} <= wit_ids
    assert all(c["rarity"] == "Common" and c["affinity"] == "Wit" for c in creatures)
    assert powers == ["Field Kit", "Reserve Focus"]
    assert len({c["id"] for c in starter["cards"]}) == 5  # five owned copies, own ids


def test_choosing_again_grants_nothing_more_and_says_so(cards, cards_engine):
    player = str(uuid.uuid4())
    first = cards.choose_starter(player_id=player, affinity="Wit")["starter"]
    retry = cards.choose_starter(player_id=player, affinity="Wit")
    assert retry["created"] is False
    assert retry["starter"] == first  # the same persisted cards, never a new draw
    with pytest.raises(Conflict) as caught:
        cards.choose_starter(player_id=player, affinity="Grit")
    assert caught.value.code == "starter_already_chosen"
    assert copies_of(cards_engine, player) == 5
    assert cards.get_starter(player_id=player) == first


def test_the_starter_shows_quest_s_copies_only_when_another_game_s_grant_shares_its_source(
    cards, cards_engine
):
    """TerraKard's starting collection is a ``starter`` grant keyed by the player too."""
    player = str(uuid.uuid4())
    # Retired at once: other modules deal TerraKard's active cards in this database.
    terrakard_card = definition(game="terrakard", kind="card", attributes={}, retired_at=NOW)
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions), [terrakard_card])
        conn.execute(
            sa.insert(orm.owned_cards),
            [
                {
                    "id": uuid.uuid4(),
                    "player_id": uuid.UUID(player),
                    "definition_id": terrakard_card["id"],
                    "source_type": "starter",
                    "source_id": uuid.UUID(player),
                    "acquired_at": NOW,
                }
            ],
        )
    chosen = cards.choose_starter(player_id=player, affinity="Wit")["starter"]
    assert len(chosen["cards"]) == 5
    assert str(terrakard_card["id"]) not in {c["definition_id"] for c in chosen["cards"]}
    assert cards.get_starter(player_id=player) == chosen


def test_concurrent_starter_choices_grant_once(cards, settings, cards_engine):
    player = str(uuid.uuid4())

    def choose(affinity):
        with ClusterRpcProxy(settings.nameko_config(), timeout=20) as proxy:
            try:
                return proxy.cards.choose_starter(player_id=player, affinity=affinity)
            except Conflict as exc:
                return exc.code

    pool = eventlet.GreenPool(8)
    results = list(pool.imap(choose, ["Wit", "Grit"] * 4))
    created = [r for r in results if isinstance(r, dict) and r["created"]]
    assert len(created) == 1
    winner = created[0]["starter"]["affinity"]
    for result in results:
        if isinstance(result, dict):
            assert result["starter"]["affinity"] == winner
        else:
            assert result == "starter_already_chosen"
    assert copies_of(cards_engine, player) == 5


def test_a_starter_drawn_from_more_than_three_is_a_fair_roll_a_retry_never_redraws(
    cards, starter_set
):
    """Four Wit starters: three drawn without replacement from the player's fairness
    seeds (issue 22), stored with the grant, verifiable after rotation; the retry shows
    the stored cards and takes no nonce. Exactly three Grit: nothing to draw, no roll."""
    player = str(uuid.uuid4())
    chosen = cards.choose_starter(player_id=player, affinity="Wit")["starter"]
    assert cards.fairness(player_id=player)["nonce"] == 1
    assert cards.choose_starter(player_id=player, affinity="Wit")["created"] is False
    assert cards.fairness(player_id=player)["nonce"] == 1  # the retry took no nonce
    [roll] = cards.roll_history(player_id=player)["items"]
    assert roll["purpose"] == "quest.starter" and roll["nonce"] == 0
    assert roll["source"] == {"type": "starter", "id": player}
    assert [d["key"] for d in roll["draws"]] == ["creature.0", "creature.1", "creature.2"]
    assert [len(d["options"]) for d in roll["draws"]] == [4, 3, 2]
    drawn = {d["outcome"] for d in roll["draws"]}
    assert drawn == {c["definition_id"] for c in chosen["cards"] if c["kind"] == "creature"}
    assert roll["server_seed"] is None  # secret until rotated
    cards.rotate_seed(player_id=player)
    [revealed] = cards.roll_history(player_id=player)["items"]
    assert [v.status for v in verify_history([revealed])] == ["ok"]

    other = str(uuid.uuid4())
    cards.choose_starter(player_id=other, affinity="Grit")
    assert cards.roll_history(player_id=other)["items"] == []


@pytest.mark.parametrize(
    ("affinity", "code"),
    [
        ("Spirit", "starter_affinity_not_offered"),
        ("Mystic", "starter_affinity_not_offered"),
        ("Fire", "unknown_affinity"),
        ("", "validation_failed"),
    ],
)
def test_unoffered_or_unknown_affinities_are_refused(cards, cards_engine, affinity, code):
    player = str(uuid.uuid4())
    with pytest.raises(InvalidInput) as caught:
        cards.choose_starter(player_id=player, affinity=affinity)
    assert caught.value.code == code
    assert copies_of(cards_engine, player) == 0
    with pytest.raises(NotFound):
        cards.get_starter(player_id=player)


def test_a_starter_without_its_published_cards_grants_nothing(cards, cards_engine):
    player = str(uuid.uuid4())
    with pytest.raises(Exception) as caught:
        cards.choose_starter(player_id=player, affinity="Spark")
    assert caught.value.code == "starter_cards_unavailable"
    assert copies_of(cards_engine, player) == 0
    assert cards.choose_starter(player_id=player, affinity="Grit")["created"] is True


def test_a_historical_spirit_grant_stays_readable(cards, cards_engine):
    player = uuid.uuid4()
    spirit = definition(affinity="Spirit", starter=True)
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions).values(**spirit))
        conn.execute(
            sa.insert(orm.starter_grants).values(
                player_id=player, affinity="Spirit", granted_at=NOW
            )
        )
        conn.execute(
            sa.insert(orm.owned_cards).values(
                id=uuid.uuid4(),
                player_id=player,
                definition_id=spirit["id"],
                source_type="starter",
                source_id=player,
                acquired_at=NOW,
            )
        )
    grant = cards.get_starter(player_id=str(player))
    assert grant["affinity"] == "Spirit"
    assert [c["definition_id"] for c in grant["cards"]] == [str(spirit["id"])]
    assert cards.player_collection(player_id=str(player))["starter_affinity"] == "Spirit"


# -- decks ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def deck_definitions(cards_engine):
    """One Creature and one Power card definition per rarity."""
    rows = {
        (kind, rarity): definition(rarity, kind=kind)
        for kind in ("creature", "power_card")
        for rarity in ("Common", "Rare", "Epic", "Legendary")
    }
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions), list(rows.values()))
    return rows


def give(cards_engine, player_id, deck_definitions, *wanted):
    """Owned copies for ``player_id``: ("creature", "Rare") -> a new copy id each."""
    copies = [
        {
            "id": uuid.uuid4(),
            "player_id": uuid.UUID(player_id),
            "definition_id": deck_definitions[key]["id"],
            "source_type": "reward",
            "source_id": uuid.uuid4(),
            "acquired_at": NOW,
        }
        for key in wanted
    ]
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(orm.owned_cards), copies)
    return [str(c["id"]) for c in copies]


C, R, E, L = "Common", "Rare", "Epic", "Legendary"


@pytest.fixture
def player(cards, cards_engine, deck_definitions):
    """A player owning four Creatures (C, R, E, L), four Power cards (C, R, R, E), and
    a second copy of the Common Creature."""
    player_id = str(uuid.uuid4())
    copies = give(
        cards_engine,
        player_id,
        deck_definitions,
        ("creature", C),
        ("creature", R),
        ("creature", E),
        ("creature", L),
        ("creature", C),
        ("power_card", C),
        ("power_card", R),
        ("power_card", R),
        ("power_card", E),
    )
    names = ["cC", "cR", "cE", "cL", "cC2", "pC", "pR", "pR2", "pE"]
    return player_id, dict(zip(names, copies, strict=True))


def refused(call, code):
    with pytest.raises(InvalidInput) as caught:
        call()
    assert caught.value.code == code, caught.value
    return caught.value


def test_a_deck_costing_exactly_ten_is_legal(cards, player):
    player_id, own = player
    cards_ = [own["cE"], own["cR"], own["cC"], own["pR"], own["pR2"]]  # 3+2+1+2+2
    deck = cards.create_deck(player_id=player_id, name="  Ten  ", cards=cards_)
    assert (deck["name"], deck["cost"], deck["legal"], deck["version"]) == ("Ten", 10, True, 1)
    assert [c["id"] for c in deck["cards"]] == cards_
    assert deck["problems"] == []


def test_a_deck_costing_eleven_is_refused_and_nothing_is_saved(cards, player):
    player_id, own = player
    error = refused(
        lambda: cards.create_deck(
            player_id=player_id,
            name="Eleven",
            cards=[own["cE"], own["cR"], own["cC"], own["pR"], own["pE"]],  # 3+2+1+2+3
        ),
        "deck_cost_exceeded",
    )
    assert "11" in error.message
    assert cards.list_decks(player_id=player_id) == []


def test_four_creatures_are_refused(cards, player):
    player_id, own = player
    refused(
        lambda: cards.create_deck(
            player_id=player_id,
            name="Crowd",
            cards=[own["cC"], own["cR"], own["cE"], own["cC2"], own["pC"]],
        ),
        "deck_composition",
    )


def test_the_same_copy_twice_is_refused_but_two_copies_of_one_definition_are_fine(cards, player):
    player_id, own = player
    refused(
        lambda: cards.create_deck(
            player_id=player_id,
            name="Twice",
            cards=[own["cC"], own["cC"], own["cR"], own["pC"], own["pR"]],
        ),
        "deck_copy_repeated",
    )
    deck = cards.create_deck(
        player_id=player_id,
        name="Two copies",
        cards=[own["cC"], own["cC2"], own["cR"], own["pC"], own["pR"]],
    )
    assert deck["legal"] is True and deck["cost"] == 7


def test_someone_elses_copy_or_an_unknown_id_is_refused(
    cards, player, cards_engine, deck_definitions
):
    player_id, own = player
    [theirs] = give(cards_engine, str(uuid.uuid4()), deck_definitions, ("creature", C))
    for stranger in (theirs, str(uuid.uuid4())):
        refused(
            lambda stranger=stranger: cards.create_deck(
                player_id=player_id,
                name="Borrowed",
                cards=[stranger, own["cR"], own["cC"], own["pC"], own["pR"]],
            ),
            "deck_copy_not_owned",
        )


@pytest.mark.parametrize(
    ("names", "code"),
    [
        (["cC", "cR", "cE", "pC"], "deck_size"),
        (["cC", "cR", "cE", "pC", "pR", "pR2"], "deck_size"),
        ([], "deck_size"),
    ],
)
def test_a_deck_of_other_than_five_cards_is_refused(cards, player, names, code):
    player_id, own = player
    refused(
        lambda: cards.create_deck(player_id=player_id, name="Odd", cards=[own[n] for n in names]),
        code,
    )


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "deck_name_blank"),
        ("   ", "deck_name_blank"),
        ("x" * 41, "deck_name_too_long"),
        ("tab\tname", "deck_name_invalid"),
    ],
)
def test_bad_deck_names_are_refused(cards, player, name, code):
    player_id, own = player
    refused(
        lambda: cards.create_deck(
            player_id=player_id,
            name=name,
            cards=[own["cC"], own["cR"], own["cE"], own["pC"], own["pR"]],
        ),
        code,
    )


def test_malformed_deck_bodies_are_refused(cards, player):
    player_id, _ = player
    for payload in (
        {"name": "x", "cards": ["not-a-uuid"]},
        {"name": "x", "cards": "five"},
        {"name": 5, "cards": []},
        {"cards": []},
        {"name": "x", "cards": [str(uuid.uuid4())] * 101},
    ):
        refused(
            lambda payload=payload: cards.create_deck(player_id=player_id, **payload),
            "validation_failed",
        )
    assert cards.list_decks(player_id=player_id) == []


def test_rename_replace_and_delete_with_expected_versions(cards, player):
    player_id, own = player
    deck = cards.create_deck(
        player_id=player_id,
        name="Start",
        cards=[own["cC"], own["cR"], own["cE"], own["pC"], own["pR"]],
    )
    renamed = cards.edit_deck(
        player_id=player_id, deck_id=deck["id"], expected_version=1, name="Renamed"
    )
    assert (renamed["name"], renamed["version"]) == ("Renamed", 2)
    assert renamed["cards"] == deck["cards"]

    with pytest.raises(Conflict) as caught:
        cards.edit_deck(player_id=player_id, deck_id=deck["id"], expected_version=1, name="Late")
    assert caught.value.code == "stale_version"

    refused(
        lambda: cards.edit_deck(
            player_id=player_id,
            deck_id=deck["id"],
            expected_version=2,
            cards=[own["cL"], own["cE"], own["cR"], own["pC"], own["pR"]],  # 4+3+2+1+2
        ),
        "deck_cost_exceeded",
    )
    replaced = cards.edit_deck(
        player_id=player_id,
        deck_id=deck["id"],
        expected_version=2,
        cards=[own["cL"], own["cC"], own["cC2"], own["pC"], own["pR"]],  # 4+1+1+1+2
    )
    assert (replaced["version"], replaced["cost"], replaced["name"]) == (3, 9, "Renamed")
    refused(
        lambda: cards.edit_deck(player_id=player_id, deck_id=deck["id"], expected_version=3),
        "nothing_to_change",
    )
    assert cards.get_deck(player_id=player_id, deck_id=deck["id"]) == replaced

    with pytest.raises(Conflict):
        cards.delete_deck(player_id=player_id, deck_id=deck["id"], expected_version=2)
    cards.delete_deck(player_id=player_id, deck_id=deck["id"], expected_version=3)
    assert cards.list_decks(player_id=player_id) == []
    with pytest.raises(NotFound):
        cards.get_deck(player_id=player_id, deck_id=deck["id"])


def test_one_copy_may_be_in_several_decks(cards, player):
    player_id, own = player
    chosen = [own["cC"], own["cR"], own["cE"], own["pC"], own["pR"]]
    first = cards.create_deck(player_id=player_id, name="One", cards=chosen)
    second = cards.create_deck(player_id=player_id, name="Two", cards=chosen)
    listed = cards.list_decks(player_id=player_id)
    assert [d["id"] for d in listed] == [first["id"], second["id"]]


def test_another_players_deck_is_not_found_and_unchanged(
    cards, player, cards_engine, deck_definitions
):
    player_id, own = player
    deck = cards.create_deck(
        player_id=player_id,
        name="Mine",
        cards=[own["cC"], own["cR"], own["cE"], own["pC"], own["pR"]],
    )
    other = str(uuid.uuid4())
    for call in (
        lambda: cards.get_deck(player_id=other, deck_id=deck["id"]),
        lambda: cards.edit_deck(player_id=other, deck_id=deck["id"], expected_version=1, name="Ha"),
        lambda: cards.delete_deck(player_id=other, deck_id=deck["id"], expected_version=1),
    ):
        with pytest.raises(NotFound) as caught:
            call()
        assert caught.value.code == "deck_not_found"
    assert cards.get_deck(player_id=player_id, deck_id=deck["id"]) == deck
    assert cards.list_decks(player_id=other) == []


def test_the_deck_limit_is_enforced(cards, player):
    player_id, own = player
    chosen = [own["cC"], own["cR"], own["cE"], own["pC"], own["pR"]]
    for n in range(20):
        cards.create_deck(player_id=player_id, name=f"Deck {n}", cards=chosen)
    with pytest.raises(Conflict) as caught:
        cards.create_deck(player_id=player_id, name="One too many", cards=chosen)
    assert caught.value.code == "deck_limit_reached"


def test_the_collection_groups_copies_by_definition(cards, player, deck_definitions):
    player_id, own = player
    collection = cards.player_collection(player_id=player_id)
    assert collection["total_copies"] == 9
    by_id = {g["definition"]["id"]: g for g in collection["definitions"]}
    common_creature = by_id[str(deck_definitions[("creature", C)]["id"])]
    assert common_creature["count"] == 2
    assert {c["id"] for c in common_creature["copies"]} == {own["cC"], own["cC2"]}
    assert by_id[str(deck_definitions[("power_card", R)]["id"])]["count"] == 2
    assert collection["starter_affinity"] is None
    empty = cards.player_collection(player_id=str(uuid.uuid4()))
    assert (empty["total_copies"], empty["definitions"]) == (0, [])


def test_a_deck_for_a_match_carries_each_cards_definition(cards, player, deck_definitions):
    player_id, own = player
    chosen = [own["cC"], own["cR"], own["cE"], own["pC"], own["pR"]]
    deck = cards.create_deck(player_id=player_id, name="Battle", cards=chosen)
    snapshot = cards.deck_for_match(player_id=player_id, deck_id=deck["id"])
    assert [c["copy_id"] for c in snapshot["cards"]] == chosen
    assert [c["kind"] for c in snapshot["cards"]] == ["creature"] * 3 + ["power_card"] * 2
    expected = deck_definitions[("creature", "Common")]
    assert snapshot["cards"][0]["definition_id"] == str(expected["id"])
    assert snapshot["cards"][0]["definition"] == expected["snapshot"]
    with pytest.raises(NotFound):
        cards.deck_for_match(player_id=str(uuid.uuid4()), deck_id=deck["id"])


def test_active_definitions_are_found_by_name_for_the_cpu_deck(cards, starter_set):
    found = cards.active_definitions_named(
        game="quest", kind="power_card", names=["field kit", "Reserve Focus", "Nothing"]
    )
    assert sorted(d["name"] for d in found) == ["Field Kit", "Reserve Focus"]
    with pytest.raises(InvalidInput):
        cards.active_definitions_named(game="quest", kind="event", names=["Field Kit"])

"""A player's own CPU matches, newest first, a page at a time (services/battle/match_lists.py)."""

from __future__ import annotations

import uuid

import pytest

from services.battle import handlers, match_lists
from shared.errors import InvalidInput
from tests.unit.battle.support import FakeStore, started


def forfeit(store, clock, view, player_id):
    with store.uow() as uow:
        return handlers.act(
            handlers.Act(player_id, uuid.UUID(view["id"]), view["version"], {"kind": "forfeit"}),
            uow,
            clock,
        )


def three_matches(player_id):
    """Three CPU matches of one player, a minute apart; the first two forfeited."""
    store, clock, first = started(player_id=player_id)
    forfeit(store, clock, first, player_id)
    clock.advance(60)
    _, _, second = started(store, clock, player_id=player_id)
    forfeit(store, clock, second, player_id)
    clock.advance(60)
    _, _, third = started(store, clock, player_id=player_id)
    return store, [first, second, third]


def listed(store, player_id, cursor=None, limit=50, game="quest"):
    return match_lists.cpu_matches(player_id, game, cursor, limit, store.uow)


def test_the_list_is_newest_first_and_each_line_tells_the_players_result():
    me = uuid.uuid4()
    store, (first, second, third) = three_matches(me)
    page = listed(store, me)
    assert [m["id"] for m in page["items"]] == [third["id"], second["id"], first["id"]]
    assert page["next"] is None
    newest, oldest = page["items"][0], page["items"][-1]
    assert (newest["status"], newest["outcome"], newest["finished_at"]) == ("active", None, None)
    assert (oldest["status"], oldest["outcome"]) == ("finished", "forfeit")
    assert oldest["opponent"] == "cpu" and oldest["mode"] == "cpu"


def test_a_line_shows_no_card_hand_or_seed():
    me = uuid.uuid4()
    store, _ = three_matches(me)
    line = listed(store, me)["items"][0]
    assert set(line) == {
        "id", "mode", "deck_id", "opponent", "status", "outcome", "created_at", "finished_at",
    }  # fmt: skip


def test_pages_follow_one_another_without_repeats_or_gaps():
    me = uuid.uuid4()
    store, matches = three_matches(me)
    first = listed(store, me, limit=2)
    assert first["next"] is not None
    second = listed(store, me, cursor=first["next"], limit=2)
    seen = [m["id"] for m in first["items"] + second["items"]]
    assert seen == [m["id"] for m in reversed(matches)]
    assert second["next"] is None


def test_another_players_matches_are_not_listed():
    store, _ = three_matches(uuid.uuid4())
    assert listed(store, uuid.uuid4()) == {"items": [], "next": None}


@pytest.mark.parametrize("cursor", ["12-zz", "644302095255559369-" + "ab" * 16])
def test_a_cursor_the_list_never_gave_is_refused(cursor):
    with pytest.raises(InvalidInput) as refused:
        listed(FakeStore(), uuid.uuid4(), cursor=cursor)
    assert refused.value.code == "invalid_cursor"


def test_a_game_without_cpu_matches_has_no_list():
    with pytest.raises(InvalidInput) as refused:
        listed(FakeStore(), uuid.uuid4(), game="terrakard")
    assert refused.value.code == "unknown_game"

"""Quest against another player, asynchronously, through the gateway on the real stack
(docs/quest-pvp.md; rulebook "Asynchronous PvP"): an invitation by pseudonym accepted and
played to the end, both players told of every change through push and neither ever
seeing the other's hand or bench; invitations that expire after 24 hours (the sweeper)
or are cancelled; a missed 24-hour window that forfeits (not a skip); a voluntary forfeit
after an elapsed window, which the window wins; stale and repeated actions; an account
deletion that leaves "Deleted player".

The battle service's clock is a ``FixedClock`` at ``T0`` and every match has the same
seed (tests/e2e/quest/test_battle_api.py's ``platform``): time moves only when a test
moves it. The tests that reach deadlines stop the sweeper's timer and run its
entrypoint themselves, so only the sweeper, never a client, resolves them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from nameko.testing.services import entrypoint_hook

from services.accounts.deletion import CONFIRMATION_PHRASE
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore.test_pvp_api import Inbox, at_version, finished, pseudonym
from tests.e2e.platform.test_push import open_stream
from tests.e2e.quest import test_cards_api as cards_api
from tests.e2e.quest.test_battle_api import (
    T0,
    TICK,
    choose,
    chosen_seed,
    clock,
    keyed,
    platform,
    stop_sweeper,
    with_deck,
)
from tests.e2e.quest.test_cards_api import Player
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)
__all__ = ["chosen_seed", "clock", "platform"]  # fixtures, used by name

WINDOW = timedelta(hours=24)  # rulebook: each decision has a 24-hour window
INVITATION_TTL = timedelta(hours=24)  # rulebook: an invitation expires after 24 hours


def invite(one: Player, two: Player, deck: dict[str, Any]) -> dict[str, Any]:
    """``one`` invites ``two`` (who opened their invitations, so is known by pseudonym)."""
    handle = two.call("GET", "/quest/invitations").json()["you"]
    sent = one.call("POST", "/quest/invitations", json={"to": handle, "deckId": deck["id"]})
    assert sent.status_code == 201, sent.text
    return sent.json()


def accept(two: Player, invitation: dict[str, Any], deck: dict[str, Any]) -> dict[str, Any]:
    path = f"/quest/invitations/{invitation['id']}/accept"
    accepted = two.call("POST", path, json={"deckId": deck["id"]})
    assert accepted.status_code == 201, accepted.text
    return accepted.json()


def two_players(api):
    """Two players with starters of different affinities (names the other never holds)."""
    one, one_deck = with_deck(api, "Wit")
    two, two_deck = with_deck(api, "Grit")
    return one, one_deck, two, two_deck


def started(api):
    """An accepted invitation: (players by seat, the match id)."""
    one, one_deck, two, two_deck = two_players(api)
    match = accept(two, invite(one, two, one_deck), two_deck)
    return {"player": one, "cpu": two}, match["id"]


def invitation_is(invitation: dict[str, Any], status: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: (
        m["type"] == "invitation.updated"
        and m["data"]
        == {
            **m["data"],
            "invitationId": invitation["id"],
            "game": "quest",
            "status": status,
        }
    )


def view_of(player: Player, match_id: str) -> dict[str, Any]:
    answer = player.call("GET", f"/quest/battles/{match_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def send(player: Player, view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    body = {"expectedVersion": view["version"], "action": action}
    answer = player.call("POST", f"/quest/battles/{view['id']}/actions", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def select_both(seats: dict[str, Player], match_id: str) -> dict[str, Any]:
    """Both sides select their first Creature -> the view of the side to move first."""
    for player in seats.values():
        send(player, view_of(player, match_id), {"kind": "select_creature", "index": 0})
    views = {side: view_of(p, match_id) for side, p in seats.items()}
    assert {v["phase"] for v in views.values()} == {"normal_turn"}
    return views[views["player"]["turn"]]


def sweep(battle) -> None:
    """One run of the battle sweeper (its timer stopped by the test)."""
    with entrypoint_hook(battle, "expire_overdue_turns") as run:
        run()


def _query(settings, sql: str, **params: Any) -> list[Any]:
    engine = sa.create_engine(settings.database_url_for("battle"))
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(sql), params).all())
    finally:
        engine.dispose()


def hidden_from(settings, match_id: str, side: str) -> set[str]:
    """Names of the other side's cards ``side`` must not know now: its Creatures never
    revealed (selected and shown, swapped in) and its Power cards not played, less any
    name ``side`` holds itself."""
    [(state,)] = _query(settings, "SELECT state FROM matches WHERE id = :id", id=match_id)
    other = "cpu" if side == "player" else "player"
    theirs, mine = state["sides"][other], state["sides"][side]
    shown: set[str] = set()
    for (events,) in _query(
        settings, "SELECT events FROM match_actions WHERE match_id = :id", id=match_id
    ):
        for event in events:
            if event["type"] == "creatures_revealed":
                shown.add(event["sides"].get(other, {}).get("name", ""))
            elif event.get("side") == other and event["type"] in (
                "swapped_in",
                "power_card_played",
            ):
                shown.add(event["name"])
    names = {c["name"] for c in theirs["creatures"]} | {p["name"] for p in theirs["power_cards"]}
    own = {c["name"] for c in mine["creatures"]} | {p["name"] for p in mine["power_cards"]}
    return names - shown - own


def test_an_accepted_invitation_is_played_to_the_end_told_to_both_and_hides_each_hand(
    api, starters, settings, platform
):
    stop_sweeper(platform["battle"])  # only the players move this match
    one, one_deck, two, two_deck = two_players(api)
    sockets = {
        "player": Inbox(open_stream(api.base_url, one.token)[0]),
        "cpu": Inbox(open_stream(api.base_url, two.token)[0]),
    }
    try:
        # Unknown pseudonyms and oneself are refused; an invitation is by pseudonym.
        mine = one.call("GET", "/quest/invitations").json()
        assert mine == {"you": pseudonym(one), "items": [], "next": None}
        unknown = {"to": "Keeper-zzzzzz", "deckId": one_deck["id"]}
        assert_problem(
            one.call("POST", "/quest/invitations", json=unknown), 404, "player_not_found"
        )
        yourself = {"to": mine["you"], "deckId": one_deck["id"]}
        assert_problem(
            one.call("POST", "/quest/invitations", json=yourself), 422, "cannot_invite_yourself"
        )
        invitation = invite(one, two, one_deck)
        assert (invitation["status"], invitation["to"], invitation["from"]) == (
            "pending",
            pseudonym(two),
            pseudonym(one),
        )
        assert invitation["expiresAt"] == (T0 + INVITATION_TTL).isoformat()
        told = sockets["cpu"].until(invitation_is(invitation, "pending"))  # the invitee
        assert told["data"]["expiresAt"] == invitation["expiresAt"]
        # Not Chronovore's: that game's routes do not know it.
        chronovore = f"/chronovore/invitations/{invitation['id']}/decline"
        assert_problem(two.call("POST", chronovore), 404, "invitation_not_found")
        # The invitee cannot accept with the inviter's deck.
        path = f"/quest/invitations/{invitation['id']}/accept"
        assert_problem(
            two.call("POST", path, json={"deckId": one_deck["id"]}), 404, "deck_not_found"
        )
        view = accept(two, invitation, two_deck)
        match_id = view["id"]
        assert (view["mode"], view["side"], view["opponentName"]) == (
            "async",
            "cpu",
            pseudonym(one),
        )
        assert (view["phase"], view["deadline"]) == ("initial_selection", (T0 + WINDOW).isoformat())
        assert view["fairness"]["commitment"] and view["fairness"]["seed"] is None
        told = sockets["player"].until(invitation_is(invitation, "accepted"))  # the inviter
        assert told["data"]["matchId"] == match_id
        # Both told at once: the match waits for each of them.
        for socket in sockets.values():
            told = socket.until(at_version(match_id, 0))
            assert told["type"] == "match.your_turn" and told["data"]["mode"] == "async"
        # The one-active-CPU-match rule stays apart: a CPU battle starts beside it.
        cpu = one.call("POST", "/quest/battles", json={"deckId": one_deck["id"]})
        assert cpu.status_code == 201, cpu.text
        seats = {"player": one, "cpu": two}
        answers: dict[str, list[str]] = {"player": [], "cpu": []}

        def check_secrets() -> None:
            for side, player in seats.items():
                hidden = hidden_from(settings, match_id, side)
                seen = [
                    *answers[side],
                    *(str(m) for m in sockets[side].seen),
                    player.call("GET", f"/quest/battles/{match_id}").text,
                    player.call("GET", f"/quest/battles/{match_id}/history").text,
                    player.call("GET", "/quest/pvp-matches").text,
                ]
                for text in seen:
                    leaked = [n for n in hidden if n in text]
                    assert not leaked, (side, leaked, text)
                answers[side] = []

        assert hidden_from(settings, match_id, "player"), "the check would prove nothing"
        answers["cpu"].append(str(view))
        check_secrets()
        steps = 0
        while True:
            views = {side: view_of(p, match_id) for side, p in seats.items()}
            if views["player"]["status"] == "finished":
                break
            waiting = [s for s, v in views.items() if v["yourTurn"] or v["you"]["mustSelect"]]
            side = waiting[0]
            answer = send(seats[side], views[side], choose(views[side]))
            answers[side].append(str(answer))
            for socket in sockets.values():  # both told of every version
                socket.until(at_version(match_id, answer["version"]))
            check_secrets()
            steps += 1
            assert steps < 200
        outcomes = {views["player"]["outcome"], views["cpu"]["outcome"]}
        assert outcomes == {"victory", "defeat"}
        for side, socket in sockets.items():
            assert socket.until(finished(match_id))["data"]["result"] == views[side]["outcome"]
        # Both keep the history; no replay for a two-player match; the seed is opened.
        for side, player in seats.items():
            history = player.call("GET", f"/quest/battles/{match_id}/history").json()
            assert history["replay"] is None and history["status"] == "finished"
            assert history["outcome"] == views[side]["outcome"]
        revealed = views["player"]["fairness"]
        opened = f"{revealed['seed']}:{revealed['salt']}".encode()  # docs/fairness.md
        assert hashlib.sha256(opened).hexdigest() == revealed["commitment"]
        # Both list it, with the record counted.
        for side, player in seats.items():
            listed = player.call("GET", "/quest/pvp-matches").json()
            [item] = listed["items"]
            assert (item["id"], item["status"], item["outcome"]) == (
                match_id,
                "finished",
                views[side]["outcome"],
            )
            won = views[side]["outcome"] == "victory"
            assert listed["record"] == {"wins": int(won), "losses": int(not won), "uncounted": 0}
            assert listed["activeLimit"] == 10
        [accepted] = one.call("GET", "/quest/invitations").json()["items"]
        assert (accepted["status"], accepted["matchId"]) == ("accepted", match_id)
    finally:
        for socket in sockets.values():
            socket.socket.close()


def test_an_invitation_expires_after_24_hours_by_the_sweeper_and_one_is_cancelled(
    api, starters, settings, platform, clock
):
    stop_sweeper(platform["battle"])  # the test runs the sweeper itself
    one, one_deck, two, two_deck = two_players(api)
    inviter = Inbox(open_stream(api.base_url, one.token)[0])
    expiring = invite(one, two, one_deck)

    def stored(invitation: dict[str, Any]) -> str:
        [(status,)] = _query(
            settings, "SELECT status FROM pvp_invitations WHERE id = :id", id=invitation["id"]
        )
        return str(status)

    clock.set(T0 + INVITATION_TTL - TICK)
    sweep(platform["battle"])
    assert stored(expiring) == "pending"
    clock.set(T0 + INVITATION_TTL)
    sweep(platform["battle"])
    assert stored(expiring) == "expired"  # the sweeper, not a read, marked it
    inviter.until(invitation_is(expiring, "expired"))  # and told the players
    inviter.socket.close()
    [listed] = two.call("GET", "/quest/invitations").json()["items"]
    assert listed["status"] == "expired"
    path = f"/quest/invitations/{expiring['id']}/accept"
    late = two.call("POST", path, json={"deckId": two_deck["id"]})
    assert_problem(late, 409, "invitation_not_pending")

    cancelled = invite(one, two, one_deck)
    path = f"/quest/invitations/{cancelled['id']}"
    assert_problem(two.call("DELETE", path), 404, "invitation_not_found")  # not theirs
    done = one.call("DELETE", path)
    assert done.status_code == 200 and done.json()["status"] == "cancelled", done.text
    assert_problem(one.call("DELETE", path), 409, "invitation_not_pending")
    refused = two.call("POST", path + "/accept", json={"deckId": two_deck["id"]})
    assert_problem(refused, 409, "invitation_not_pending")
    declined = invite(one, two, one_deck)
    answer = two.call("POST", f"/quest/invitations/{declined['id']}/decline")
    assert answer.status_code == 200 and answer.json()["status"] == "declined", answer.text
    assert one.call("GET", "/quest/pvp-matches").json()["items"] == []


def test_a_missed_24_hour_window_forfeits_the_match_rather_than_skipping_the_turn(
    api, starters, platform, clock
):
    stop_sweeper(platform["battle"])  # the test runs the sweeper itself
    seats, match_id = started(api)
    sockets = {s: Inbox(open_stream(api.base_url, p.token)[0]) for s, p in seats.items()}
    try:
        mover = select_both(seats, match_id)
        side, other = mover["side"], "cpu" if mover["side"] == "player" else "player"
        deadline = datetime.fromisoformat(mover["deadline"])
        assert deadline == clock.now() + WINDOW
        clock.set(deadline - TICK)
        sweep(platform["battle"])
        assert view_of(seats[side], match_id)["version"] == mover["version"]  # not yet
        clock.set(deadline)
        sweep(platform["battle"])
        lost, won = view_of(seats[side], match_id), view_of(seats[other], match_id)
        assert (lost["status"], lost["outcome"], won["outcome"]) == (
            "finished",
            "forfeit",
            "victory",
        )
        assert (lost["finishReason"], lost["turnNumber"]) == ("missed_deadline", 1)  # no skip
        history = seats[other].call("GET", f"/quest/battles/{match_id}/history").json()
        last = history["entries"][-1]
        assert (last["side"], last["action"], last["at"]) == (
            side,
            {"kind": "timeout"},
            deadline.isoformat(),
        )
        assert last["events"][0] == {"type": "deadline_missed", "side": side}
        for name, socket in sockets.items():
            end = socket.until(finished(match_id))
            assert end["data"]["result"] == ("forfeit" if name == side else "victory")
    finally:
        for socket in sockets.values():
            socket.socket.close()


def test_a_missed_selection_window_forfeits_too(api, starters, platform, clock):
    stop_sweeper(platform["battle"])
    seats, match_id = started(api)
    chosen = send(
        seats["cpu"], view_of(seats["cpu"], match_id), {"kind": "select_creature", "index": 0}
    )
    assert chosen["deadline"] == (T0 + WINDOW).isoformat()  # choosing does not restart it
    clock.set(T0 + WINDOW)
    sweep(platform["battle"])
    assert view_of(seats["player"], match_id)["outcome"] == "forfeit"
    assert view_of(seats["cpu"], match_id)["outcome"] == "victory"


def test_a_voluntary_forfeit_after_an_elapsed_window_loses_to_the_window(
    api, starters, platform, clock
):
    stop_sweeper(platform["battle"])  # nothing resolves the deadline before the request
    seats, match_id = started(api)
    mover = select_both(seats, match_id)
    side, other = mover["side"], "cpu" if mover["side"] == "player" else "player"
    deadline = datetime.fromisoformat(mover["deadline"])
    # The waiting side resigns once the mover's window has elapsed (from the view it had;
    # a read at the deadline would resolve it already): the mover loses.
    waiting = view_of(seats[other], match_id)
    clock.set(deadline)
    body = {"expectedVersion": waiting["version"]}
    answer = seats[other].call("POST", f"/quest/battles/{match_id}/forfeit", json=body)
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert (result["status"], result["outcome"], result["finishReason"]) == (
        "finished",
        "victory",
        "missed_deadline",
    )
    assert result["events"][0] == {
        "type": "deadline_missed",
        "side": side,
        "replacedAction": {"side": other, "kind": "forfeit"},
    }
    assert view_of(seats[side], match_id)["outcome"] == "forfeit"

    # Before the window elapses, a resignation on the other player's turn is one.
    seats, match_id = started(api)
    mover = select_both(seats, match_id)
    side, other = mover["side"], "cpu" if mover["side"] == "player" else "player"
    clock.set(datetime.fromisoformat(mover["deadline"]) - TICK)
    waiting = view_of(seats[other], match_id)
    body = {"expectedVersion": waiting["version"]}
    answer = seats[other].call("POST", f"/quest/battles/{match_id}/forfeit", json=body)
    assert answer.status_code == 200, answer.text
    assert (answer.json()["outcome"], answer.json()["finishReason"]) == ("forfeit", "forfeit")
    assert view_of(seats[side], match_id)["outcome"] == "victory"


def test_stale_repeated_and_out_of_turn_actions_change_nothing(api, starters):
    seats, match_id = started(api)
    mover = select_both(seats, match_id)
    player = seats[mover["side"]]
    waiting = next(p for s, p in seats.items() if s != mover["side"])
    path = f"/quest/battles/{match_id}/actions"
    action = choose(mover)
    # The other side cannot take the mover's turn, nor a stranger read the match.
    out_of_turn = {"expectedVersion": mover["version"], "action": {"kind": "timeout"}}
    assert_problem(waiting.call("POST", path, json=out_of_turn), 409, "not_your_turn")
    stranger, _ = with_deck(api, "Wit")
    assert_problem(stranger.call("GET", f"/quest/battles/{match_id}"), 404, "match_not_found")
    assert view_of(player, match_id) == mover
    # The mover's action with a key; the same again answers the same; the key with
    # another request is refused; the old version is stale.
    body = {"expectedVersion": mover["version"], "action": action}
    first = keyed(player, path, body, "turn-1")
    assert first.status_code == 200, first.text
    again = keyed(player, path, body, "turn-1")
    assert (again.status_code, again.json()) == (200, first.json())
    other = {"expectedVersion": mover["version"], "action": {"kind": "forfeit"}}
    assert_problem(keyed(player, path, other, "turn-1"), 422, "idempotency_key_reused")
    stale = player.call("POST", path, json=body)
    assert_problem(stale, 409, "stale_version")
    assert view_of(player, match_id)["version"] == first.json()["version"]


def test_a_deleted_participant_becomes_deleted_player_and_nothing_else_of_them_remains(
    api, starters, settings
):
    one, one_deck, two, two_deck = two_players(api)
    finished_id = accept(two, invite(one, two, one_deck), two_deck)["id"]
    view = view_of(one, finished_id)
    gave_up = one.call(
        "POST", f"/quest/battles/{finished_id}/forfeit", json={"expectedVersion": view["version"]}
    )
    assert gave_up.status_code == 200, gave_up.text
    # A second match, still active when the invitee deletes their account.
    active = accept(two, invite(one, two, one_deck), two_deck)
    two_id, two_name = two.call("GET", "/me").json()["id"], pseudonym(two)
    deleted = two.call("DELETE", "/me", json={"confirm": CONFIRMATION_PHRASE})
    assert deleted.status_code == 202, deleted.text
    wait_for(lambda: view_of(one, active["id"])["opponentName"] == "Deleted player", timeout=30)
    ended = view_of(one, active["id"])
    assert (ended["status"], ended["outcome"]) == ("finished", "victory")
    listed = one.call("GET", "/quest/pvp-matches")
    assert {i["opponentName"] for i in listed.json()["items"]} == {"Deleted player"}
    answers = [
        listed,
        one.call("GET", f"/quest/battles/{finished_id}"),
        one.call("GET", f"/quest/battles/{finished_id}/history"),
        one.call("GET", f"/quest/battles/{active['id']}/history"),
        one.call("GET", "/quest/invitations"),
    ]
    for answer in answers:
        assert answer.status_code == 200, answer.text
        assert two_id not in answer.text and two_name not in answer.text, answer.text
    assert one.call("GET", "/quest/invitations").json()["items"] == []  # theirs went too
    left = _query(
        settings,
        "SELECT count(*) FROM match_seats WHERE player_id = :id",
        id=two_id,
    )
    assert left == [(0,)]
    assert _query(
        settings, "SELECT count(*) FROM pvp_pseudonyms WHERE player_id = :id", id=two_id
    ) == [(0,)]


def test_a_player_may_have_ten_asynchronous_matches_at_once(api, starters):
    one, one_deck, two, two_deck = two_players(api)
    for _ in range(10):
        accept(two, invite(one, two, one_deck), two_deck)
    listed = one.call("GET", "/quest/pvp-matches").json()
    assert len([i for i in listed["items"] if i["status"] == "active"]) == 10
    handle = pseudonym(two)
    refused = one.call("POST", "/quest/invitations", json={"to": handle, "deckId": one_deck["id"]})
    assert_problem(refused, 409, "active_match_limit")
    # The invited side is at the limit too: a third player's invitation cannot be accepted.
    three, three_deck = with_deck(api, "Wit")
    invitation = invite(three, two, three_deck)
    path = f"/quest/invitations/{invitation['id']}/accept"
    assert_problem(
        two.call("POST", path, json={"deckId": two_deck["id"]}), 409, "active_match_limit"
    )


def every_page(
    player: Player, path: str, between: Callable[[list[dict[str, Any]]], None] = lambda _: None
):
    """The list at ``path`` read a page of one at a time, ``between`` run with the items
    read so far after each page but the last: (every item in the order they came, the
    pages)."""
    items: list[dict[str, Any]] = []
    pages: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = "?limit=1" + ("" if cursor is None else f"&cursor={cursor}")
        answer = player.call("GET", path + query)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        assert len(page["items"]) <= 1
        items += page["items"]
        pages.append(page)
        cursor = page["next"]
        if cursor is None:
            return items, pages
        between(items)


def test_the_invitations_and_matches_lists_come_a_page_at_a_time_each_item_once(api, starters):
    one, one_deck, two, two_deck = two_players(api)
    three, three_deck = with_deck(api, "Wit")
    matches = [accept(two, invite(one, two, one_deck), two_deck)["id"] for _ in range(3)]
    received = invite(three, one, three_deck)  # pending, sent to one
    elsewhere = accept(two, invite(three, two, three_deck), two_deck)["id"]  # not one's
    others_invitation = invite(two, three, two_deck)  # not one's either
    sent = [i["id"] for i in one.call("GET", "/quest/invitations?limit=100").json()["items"]]

    invitations, pages = every_page(one, "/quest/invitations")
    ids = [i["id"] for i in invitations]
    assert len(ids) == len(set(ids)) == 4 and set(ids) == set(sent)
    assert received["id"] in ids and others_invitation["id"] not in ids
    assert {p["you"] for p in pages} == {pseudonym(one)}  # on every page
    created = [(i["createdAt"], i["id"]) for i in invitations]
    assert [c for c, _ in created] == sorted((c for c, _ in created), reverse=True)

    # A match finishing between two page reads neither moves nor repeats (a keyset on
    # when it started): after the first page the one it showed finishes, after the
    # second one not yet shown does; each of one's matches comes once, others' never.
    def finish_one(read: list[dict[str, Any]]) -> None:
        shown = {m["id"] for m in read}
        match_id = read[0]["id"] if len(read) == 1 else next(m for m in matches if m not in shown)
        body = {"expectedVersion": view_of(one, match_id)["version"]}
        answer = one.call("POST", f"/quest/battles/{match_id}/forfeit", json=body)
        assert answer.status_code == 200, answer.text

    listed, pages = every_page(one, "/quest/pvp-matches", between=finish_one)
    ids = [m["id"] for m in listed]
    assert len(ids) == len(set(ids)) == 3 and set(ids) == set(matches)
    assert elsewhere not in ids
    assert [m["status"] for m in listed] == ["active", "active", "finished"]
    assert pages[-1]["activeLimit"] == 10  # and the record, counted as of that page:
    assert pages[-1]["record"] == {"wins": 0, "losses": 2, "uncounted": 0}
    assert len(two.call("GET", "/quest/pvp-matches?limit=100").json()["items"]) == 4

    for path in ("/quest/invitations", "/quest/pvp-matches"):
        for cursor in ("garbage", f"9999999999999999999-{'0' * 32}"):
            assert_problem(one.call("GET", f"{path}?cursor={cursor}"), 422, "invalid_cursor")

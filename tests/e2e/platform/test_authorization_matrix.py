"""The authorization matrix: every gateway route x every kind of caller, through HTTP.

Columns (who calls):

- ``anonymous``: no Authorization header at all;
- ``owner``: the player whose objects the ids in the path name (a starter, decks,
  an attempt, a battle); a plain player, so the authoring routes refuse them;
- ``other``: another plain player, with a starter, a deck and an attempt of their own,
  sending the owner's ids and the owner's bodies;
- ``author``: a third account whose token grants the Author role; it owns the
  authoring draft the authoring rows name (authoring content is shared by all
  Authors by design: a second Author reviews), and has a starter, a deck and an
  attempt of its own. Authors are not administrators: the owner's ids are 404 for it;
- ``locked``: an account whose token also grants the Author role, locked the one
  way an account gets locked (it asked to delete itself; the Auth0 stand-in never
  answers, so the deletion stays under way). It sends the owner's ids.

Each row is a route exactly as the gateway declares it (``api_routes``), so a new
route without a row fails ``test_every_route_has_a_row``. A cell is the status, or
"status code" for a problem+json answer. Rows run in the order written; within a
row, everyone else goes first and the object's owner (the owner; the author on the
authoring routes) last, with one body valid for that owner. Before the owner's
cell, every object of the owner (and the author's draft) is read again and must be
unchanged. No answer to anyone carries an identifier of another account (the ids
the request itself sent excepted), nor the author's draft to a non-Author.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from games.terrakard.arena import ARENA
from games.terrakard.collection import TERRAKARD_COLLECTION
from games.terrakard.content import CYCLE
from gateway.app import Gateway
from gateway.openapi import api_routes
from services.accounts.deletion import CONFIRMATION_PHRASE
from services.cards import orm as cards_orm
from shared.config import SERVICE_NAMES
from tests.auth0_standin import Auth0StandIn
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore import support as chronovore
from tests.e2e.economy import support as economy
from tests.e2e.quest import test_attempt_api as attempt_api
from tests.e2e.quest import test_cards_api as cards_api
from tests.helpers import wait_for
from tests.integration.authoring.test_lifecycle import question_body
from tests.random_refs import random_sub, random_suffix

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)
authors = attempt_api.authors  # two Authors who publish the event (fixture)
event_id = attempt_api.event_id  # a published event with five questions (fixture)
core_set = chronovore.core_set  # the Chronovore Core Set, published (fixture)

# The matrix sends a few hundred changes from one address: no rate limit may answer.
UNLIMITED = {
    "RATE_LIMIT_PLAYER_PER_MINUTE": 1_000_000,
    "RATE_LIMIT_PLAYER_BURST": 1_000_000,
    "RATE_LIMIT_ADDRESS_PER_MINUTE": 1_000_000,
    "RATE_LIMIT_ADDRESS_BURST": 1_000_000,
}

ROLES = ("anonymous", "owner", "other", "author", "locked")

# -- the matrix ---------------------------------------------------------------------------

ANON = "401 missing_token"  # no token: every protected route
LOCKED = "403 account_locked"  # a locked account: every player and author route
NOT_AUTHOR = "403 author_role_required"  # a player on an authoring route
NO_DECK = "404 deck_not_found"
NO_ATTEMPT = "404 attempt_not_found"
NO_MATCH = "404 match_not_found"
NO_PACK = "404 pack_not_found"
NO_GOLD = "409 insufficient_funds"  # the caller's own wallet: nobody else's is ever spent
NO_FRAGMENTS = NO_GOLD  # the caller's own Card Fragments (the owner holds some)
NO_COPY = "404 copy_not_found"
NOT_OWNED = "422 deck_copy_not_owned"  # the owner's copies in a body: as unknown ids
OPEN = (200, 200, 200, 200, 200)  # a public route: everyone, tokens ignored
TK_NOT_OWNED = "422 card_not_owned"  # the owner's TerraKard copies in a body
NO_PLAN = "404 plan_not_found"
NO_REPORT = "404 report_not_found"
NOT_QUEUED = "404 not_queued"
NO_INVITATION = "404 invitation_not_found"

# Path parameters are filled from the world: <uuid:deck_id> is the owner's spare deck
# (read, renamed, deleted), <uuid:match_id> the owner's battle, <uuid:attempt_id> the
# owner's attempt, <int:index> 0, <uuid:event_id> the published event,
# <uuid:content_id> the author's draft, <economy:game> chronovore, <uuid:pack_id> the
# owner's unopened pack (granted over RPC). Bodies are named in BODIES below.
#
# fmt: off
MATRIX: list[tuple[str, str, str | None, tuple[int | str, ...]]] = [
    # method    route                                   body
    #           anonymous   owner      other           author          locked
    ("GET",    "/health",                              None,        OPEN),
    ("GET",    "/ready",                               None,        OPEN),
    ("GET",    "/openapi.json",                        None,        OPEN),
    ("GET",    "/docs",                                None,        OPEN),
    ("GET",    "/dev/jwks.json",                       None,        OPEN),
    ("GET",    "/config.json",                         None,        OPEN),
    # Development sign-in (DEV_AUTH=1 here): anyone may mint a development token.
    ("POST",   "/dev/token",                           "dev_token", OPEN),
    ("GET",    "/cards/catalogue",                     None,        OPEN),
    ("GET",    "/quest/events",                        None,        OPEN),
    # Each caller's own attempts (other and author list theirs, never the owner's).
    ("GET",    "/quest/attempts",                      None,
               (ANON,       200,       200,            200,            LOCKED)),
    # The owner's attempt first: it has a deadline.
    ("GET",    "/quest/attempts/<uuid:attempt_id>",    None,
               (ANON,       200,       NO_ATTEMPT,     NO_ATTEMPT,     LOCKED)),
    ("PUT",    "/quest/attempts/<uuid:attempt_id>/answers/<int:index>", "answer",
               (ANON,       200,       NO_ATTEMPT,     NO_ATTEMPT,     LOCKED)),
    # Starting at a public event: other and author resume their own attempt there.
    ("POST",   "/quest/events/<uuid:event_id>/attempt", "claim",
               (ANON,       200,       200,            200,            LOCKED)),
    # The caller's own account; never the owner's.
    ("GET",    "/me",                                  None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/me/progression",                      None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/quest/starter",                       None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/quest/starter",                       "starter",
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/quest/collection",                    None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/quest/decks",                         None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/quest/decks",                         "deck",
               (ANON,       201,       NOT_OWNED,      NOT_OWNED,      LOCKED)),
    ("GET",    "/quest/decks/<uuid:deck_id>",          None,
               (ANON,       200,       NO_DECK,        NO_DECK,        LOCKED)),
    ("PUT",    "/quest/decks/<uuid:deck_id>",          "rename",
               (ANON,       200,       NO_DECK,        NO_DECK,        LOCKED)),
    ("DELETE", "/quest/decks/<uuid:deck_id>",          None,
               (ANON,       204,       NO_DECK,        NO_DECK,        LOCKED)),
    # The owner's battle: read, act, forfeit; then the owner starts another. Everyone
    # lists their own battles (none of another's: no owner id in another's answer).
    ("GET",    "/quest/battles",                       None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/quest/battles/active",                None,
               (ANON,       200,   "404 no_active_match", "404 no_active_match", LOCKED)),
    ("GET",    "/quest/battles/<uuid:match_id>",       None,
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("GET",    "/quest/battles/<uuid:match_id>/history", None,
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("POST",   "/quest/battles/<uuid:match_id>/actions", "action",
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("POST",   "/quest/battles/<uuid:match_id>/forfeit", "forfeit",
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("POST",   "/quest/battles",                       "battle",
               (ANON,       201,       NO_DECK,        NO_DECK,        LOCKED)),
    # Chronovore: the public library; the owner's lists (the spare one is a work in
    # progress: read, renamed, deleted); then the owner starts a match and plays it
    # at once (its 2-minute choosing step must not run out during the matrix).
    ("GET",    "/chronovore/library",                  None,        OPEN),
    ("GET",    "/chronovore/collection",               None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/chronovore/decks",                    None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/chronovore/decks",                    "chronovore_deck",
               (ANON,       201,       NOT_OWNED,      NOT_OWNED,      LOCKED)),
    ("GET",    "/chronovore/decks/<uuid:deck_id>",     None,
               (ANON,       200,       NO_DECK,        NO_DECK,        LOCKED)),
    ("PUT",    "/chronovore/decks/<uuid:deck_id>",     "rename",
               (ANON,       200,       NO_DECK,        NO_DECK,        LOCKED)),
    ("DELETE", "/chronovore/decks/<uuid:deck_id>",     None,
               (ANON,       204,       NO_DECK,        NO_DECK,        LOCKED)),
    ("POST",   "/chronovore/matches",                  "chronovore_match",
               (ANON,       201,       NO_DECK,        NO_DECK,        LOCKED)),
    ("GET",    "/chronovore/matches",                  None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/chronovore/matches/active",           None,
               (ANON,       200,   "404 no_active_match", "404 no_active_match", LOCKED)),
    ("GET",    "/chronovore/matches/<uuid:match_id>",  None,
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("GET",    "/chronovore/matches/<uuid:match_id>/history", None,
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("POST",   "/chronovore/matches/<uuid:match_id>/actions", "chronovore_lock",
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("POST",   "/chronovore/matches/<uuid:match_id>/leave", "chronovore_leave",
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    # Chronovore against a player: the owner waits in the queue and stops waiting;
    # everyone reads their invitations (so that other can be invited by pseudonym); the
    # owner invites other, who cannot accept with the owner's deck and declines.
    ("GET",    "/chronovore/queue",                    None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/chronovore/queue",                    "chronovore_queue",
               (ANON,       200,       NO_DECK,        NO_DECK,        LOCKED)),
    ("DELETE", "/chronovore/queue",                    None,
               (ANON,       204,       NOT_QUEUED,     NOT_QUEUED,     LOCKED)),
    # Invitations, in every game that has them (the row runs Chronovore's: the owner
    # invites other; other cannot accept with the owner's deck and declines).
    ("GET",    "/<versus:game>/invitations",           None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/<versus:game>/invitations",           "chronovore_invite",
               (ANON, 201, "422 cannot_invite_yourself", NO_DECK,      LOCKED)),
    ("POST",   "/<versus:game>/invitations/<uuid:invitation_id>/accept", "chronovore_accept",
               (ANON,   NO_INVITATION, NO_DECK,        NO_INVITATION,  LOCKED)),
    ("POST",   "/<versus:game>/invitations/<uuid:invitation_id>/decline", None,
               (ANON,   NO_INVITATION, 200,            NO_INVITATION,  LOCKED)),
    ("DELETE", "/<versus:game>/invitations/<uuid:invitation_id>", None,
               (ANON, "409 invitation_not_pending", NO_INVITATION, NO_INVITATION, LOCKED)),
    # Quest's asynchronous matches against a player: everyone's own list and record.
    ("GET",    "/quest/pvp-matches",                   None,
               (ANON,       200,       200,            200,            LOCKED)),
    # Quest's live queue: the owner waits with their deck and stops waiting; the others
    # cannot use the owner's deck, nor leave a queue they are not in.
    ("GET",    "/quest/queue",                         None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/quest/queue",                         "quest_queue",
               (ANON,       200,       NO_DECK,        NO_DECK,        LOCKED)),
    ("DELETE", "/quest/queue",                         None,
               (ANON,       204,       NOT_QUEUED,     NOT_QUEUED,     LOCKED)),
    # The economy of a game (the owner holds a pack and 100 Gold) and fairness.
    ("GET",    "/<economy:game>/packs/odds",           None,        OPEN),
    ("GET",    "/<economy:game>/wallet",               None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/<economy:game>/wallet/history",       None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/<economy:game>/packs",                None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/<economy:game>/packs/<uuid:pack_id>/open", None,
               (ANON,       200,       NO_PACK,        NO_PACK,        LOCKED)),
    ("POST",   "/<economy:game>/shop/packs",           "buy",
               (ANON,       201,       NO_GOLD,        NO_GOLD,        LOCKED)),
    ("GET",    "/me/fairness",                         None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("PUT",    "/me/fairness/client-seed",             "client_seed",
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/me/fairness/rolls",                   None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/me/fairness/rotate",                  None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/me/fairness/export",                  None,
               (ANON,       200,       200,            200,            LOCKED)),
    # TerraKard (docs/terrakard.md, "Hosting"): the owner's attack deck, plan and attack
    # (against other's automatic plan); every caller has claimed the starting collection.
    ("GET",    "/terrakard/collection",                None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/terrakard/collection/start",          None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/terrakard/decks",                     None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/terrakard/decks",                     "tk_deck",
               (ANON,       201,       TK_NOT_OWNED,   TK_NOT_OWNED,   LOCKED)),
    ("PATCH",  "/terrakard/decks/<uuid:attack_deck_id>", "rename",
               (ANON,       200,       NO_DECK,        NO_DECK,        LOCKED)),
    ("GET",    "/terrakard/plans",                     None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("POST",   "/terrakard/plans",                     "tk_plan",
               (ANON,       201,       TK_NOT_OWNED,   TK_NOT_OWNED,   LOCKED)),
    ("PUT",    "/terrakard/plans/<uuid:plan_id>",      "tk_plan_edit",
               (ANON,       200,       NO_PLAN,        NO_PLAN,        LOCKED)),
    ("POST",   "/terrakard/plans/<uuid:plan_id>/activate", None,
               (ANON,       200,       NO_PLAN,        NO_PLAN,        LOCKED)),
    ("GET",    "/terrakard/arena",                     None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/terrakard/profile",                   None,
               (ANON,       200,       200,            200,            LOCKED)),
    # Each caller changes its own setting only (on stays on: the other rows are unmoved).
    ("PUT",    "/terrakard/settings",                  "tk_settings",
               (ANON,       200,       200,            200,            LOCKED)),
    # Owner and other have finished the tutorial; the author may not use the owner's deck.
    ("POST",   "/terrakard/tutorial",                  "tk_tutorial",
               (ANON, "409 tutorial_finished", "409 tutorial_finished", NO_DECK, LOCKED)),
    # Each caller lists its own attacks only (the owner's holds the attack on other).
    ("GET",    "/terrakard/attacks",                   None,
               (ANON,       200,       200,            200,            LOCKED)),
    ("GET",    "/terrakard/attacks/<uuid:attack_id>",  None,
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("GET",    "/terrakard/attacks/<uuid:attack_id>/history", None,
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("POST",   "/terrakard/attacks/<uuid:attack_id>/actions", "tk_give_up",
               (ANON,       200,       NO_MATCH,       NO_MATCH,       LOCKED)),
    ("GET",    "/terrakard/defense-reports",           None,
               (ANON,       200,       200,            200,            LOCKED)),
    # other's plan defended the owner's attack: its report is other's, nobody else's.
    ("GET",    "/terrakard/defense-reports/<uuid:attack_id>", None,
               (ANON,       NO_REPORT, 200,            NO_REPORT,      LOCKED)),
    # The author has not finished the tutorial: refused before any deck is read.
    ("POST",   "/terrakard/attacks",                   "tk_attack",
               (ANON, "409 target_recently_attacked", "422 cannot_attack_yourself",
                      "409 tutorial_not_finished", LOCKED)),
    ("DELETE", "/terrakard/decks/<uuid:attack_deck_id>", None,
               (ANON,       204,       NO_DECK,        NO_DECK,        LOCKED)),
    ("DELETE", "/terrakard/plans/<uuid:plan_id>",      None,
               (ANON,       204,       NO_PLAN,        NO_PLAN,        LOCKED)),
    # The owner's unopened Diamond pack, sold back (after TerraKard's rows: its attack
    # runs on the real clock).
    ("POST",   "/<economy:game>/packs/<uuid:pack_id>/sell", None,
               (ANON,       200,       NO_PACK,        NO_PACK,        LOCKED)),
    # Chronovore's Card Fragments: the public prices; the owner shreds a copy that is in
    # no deck and crafts a card it holds none of.
    ("GET",    "/chronovore/crafting",                 None,        OPEN),
    ("POST",   "/chronovore/collection/<uuid:copy_id>/shred", None,
               (ANON,       200,       NO_COPY,        NO_COPY,        LOCKED)),
    ("POST",   "/chronovore/craft",                    "craft",
               (ANON,       201,       NO_FRAGMENTS,   NO_FRAGMENTS,   LOCKED)),
    # Authoring: Authors only; the author owns the draft. The lock outranks the role.
    ("GET",    "/authoring/content",                   None,
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    ("POST",   "/authoring/content",                   "content",
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    201,            LOCKED)),
    ("GET",    "/authoring/content/<uuid:content_id>", None,
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    ("PUT",    "/authoring/content/<uuid:content_id>", "edit",
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    ("POST",   "/authoring/content/<uuid:content_id>/transitions", "submit",
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    ("GET",    "/authoring/content/<uuid:content_id>/audit", None,
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    # The review queue and a batch: the author's own submission is refused per item
    # (200, its outcome "refused": four-eyes), the batch itself answered.
    ("GET",    "/authoring/review-queue",              None,
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    ("POST",   "/authoring/review-queue/approvals",    "approve",
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    ("GET",    "/authoring/forms",                     None,
               (ANON,       NOT_AUTHOR, NOT_AUTHOR,    200,            LOCKED)),
    # Deleting one's own account, last. Neither route takes an id: each caller reads or
    # deletes only their own account. A locked account may still read its deletion and
    # ask again (the same deletion comes back): docs/account-deletion.md.
    ("GET",    "/me/deletion",                         None,
               (ANON, "404 deletion_not_found", "404 deletion_not_found",
                      "404 deletion_not_found", 200)),
    ("DELETE", "/me",                                  "confirm",
               (ANON,       202,       202,            202,            202)),
]
# fmt: on

QUERIES = {
    "/cards/catalogue": "?game=quest",
    "/quest/events": f"?lat={attempt_api.SPOT['lat']}&lon={attempt_api.SPOT['lon']}",
    ("DELETE", "/quest/decks/<uuid:deck_id>"): "?expectedVersion=2",  # after the rename
    ("DELETE", "/chronovore/decks/<uuid:deck_id>"): "?expectedVersion=2",
    ("DELETE", "/terrakard/decks/<uuid:attack_deck_id>"): "?expectedVersion=2",
    ("DELETE", "/terrakard/plans/<uuid:plan_id>"): "?expectedVersion=2",
}
# Headers a row sends (besides the token): the economy's writes need their key.
HEADERS = {
    "/<economy:game>/packs/<uuid:pack_id>/open": {"Idempotency-Key": "matrix-open"},
    "/<economy:game>/shop/packs": {"Idempotency-Key": "matrix-buy"},
    "/<economy:game>/packs/<uuid:pack_id>/sell": {"Idempotency-Key": "matrix-sell"},
    "/chronovore/collection/<uuid:copy_id>/shred": {"Idempotency-Key": "matrix-shred"},
    "/chronovore/craft": {"Idempotency-Key": "matrix-craft"},
}

# -- callers and their objects --------------------------------------------------------------


class Caller:
    def __init__(self, api, role: str, roles=()) -> None:
        self.api = api
        self.role = role
        self.sub = random_sub(role)
        self.token = None if role == "anonymous" else api.token(self.sub, roles=roles)
        self.player_id: str | None = None
        self.ids: set[str] = set()  # identifiers of this account's objects

    def call(self, method: str, path: str, body: Any = None, headers=None):
        headers = dict(headers or {})
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        extra = {} if body is None else {"json": body}
        return self.api.request(method, path, headers=headers, **extra)

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        response = self.call(method, path, body)
        assert response.ok, (self.role, method, path, response.status_code, response.text)
        return response.json() if response.content else None

    def register(self) -> None:
        self.player_id = self.ok("GET", "/me")["id"]
        self.ids.add(self.player_id)

    def own_kit(self, event: str) -> dict[str, Any]:
        """A starter, a deck of it and an attempt at the event, all remembered as theirs."""
        grant = self.ok("POST", "/quest/starter", {"affinity": "Grit"})
        copies = [card["id"] for card in grant["cards"]]
        deck = self.ok("POST", "/quest/decks", {"name": f"Own {self.role}", "cards": copies})
        attempt = self.ok("POST", f"/quest/events/{event}/attempt", attempt_api.claim())
        self.ids.update([*copies, deck["id"], attempt["id"]])
        self.ids.update(o["id"] for q in attempt["questions"] for o in q["options"])
        return {"copies": copies, "deck": deck["id"], "attempt": attempt}


@dataclass
class World:
    callers: dict[str, Caller]
    event: str
    copies: list[str]
    deck: str  # the owner's battle deck
    spare_deck: str  # the owner's deck that the deck rows read, rename and delete
    attempt: dict[str, Any]
    match: str
    content: str
    content_prompt: str
    deletion_of_locked: str
    pack: str  # the owner's unopened Chronovore pack
    terrakard: dict[str, Any]  # the owner's TerraKard copies, deck, plan, attack; other's target
    reader: Caller  # an Author outside the matrix, who re-reads the draft
    chronovore_copies: list[str]  # the owner's Chronovore cards, from its starting packs
    chronovore_deck: str  # the owner's legal Chronovore deck
    chronovore_spare: str  # the owner's work in progress that the deck rows change
    diamond_pack: str  # the owner's unopened Diamond pack, for the sell row
    loose_copy: str  # the owner's Plain or Golden Chronovore copy in no deck (shredded)
    craftable: str  # a Core Set card the owner holds no copy of (crafted)
    chronovore_match: str | None = None  # started by its row
    chronovore_invitation: str | None = None  # the owner's to other, sent by its row

    @property
    def owner(self) -> Caller:
        return self.callers["owner"]

    def owner_view(self, with_draft: bool = True) -> dict[str, Any]:
        """Everything of the owner's, and the author's draft unless ``with_draft`` is False
        (when the author deletes its account, its draft's actor becomes "Deleted author")."""
        owner, author, match = self.owner, self.reader, f"/quest/battles/{self.match}"
        paths = [
            (owner, "/me"),
            (owner, "/me/progression"),
            (owner, "/me/deletion"),
            (owner, "/quest/starter"),
            (owner, "/quest/collection"),
            (owner, "/quest/decks"),
            (owner, f"/quest/attempts/{self.attempt['id']}"),
            (owner, match),
            (owner, match + "/history"),
            (owner, "/quest/battles/active"),
            (owner, "/chronovore/collection"),
            (owner, "/chronovore/decks"),
            (owner, "/chronovore/wallet"),
            (owner, "/chronovore/packs"),
            (owner, "/me/fairness"),
        ]
        if self.chronovore_match is not None:
            chronovore = f"/chronovore/matches/{self.chronovore_match}"
            paths += [(owner, chronovore), (owner, chronovore + "/history")]
        if with_draft:
            paths.append((author, f"/authoring/content/{self.content}"))
            paths.append((author, f"/authoring/content/{self.content}/audit"))
        seen = {}
        for caller, path in paths:
            response = caller.call("GET", path)
            body = response.json()
            if isinstance(body, dict):
                body.pop("requestId", None)  # a problem names its request: new every time
            seen[path] = (response.status_code, body)
        return seen


def correct_choice(attempt: dict[str, Any], index: int) -> str:
    question = attempt["questions"][index]
    return next(o["id"] for o in question["options"] if o["text"] == "Mars")


BODIES = {
    "answer": lambda w: {"choice": correct_choice(w.attempt, 0)},
    "claim": lambda w: attempt_api.claim(),
    "starter": lambda w: {"affinity": "Grit"},
    "dev_token": lambda w: {"sub": "dev|matrix", "roles": ["author"]},
    "deck": lambda w: {"name": "Another", "cards": w.copies},
    "rename": lambda w: {"expectedVersion": 1, "name": "Renamed"},
    "action": lambda w: action_body(w),
    "forfeit": lambda w: {
        "expectedVersion": w.owner.ok("GET", f"/quest/battles/{w.match}")["version"]
    },
    "battle": lambda w: {"deckId": w.deck},
    "chronovore_deck": lambda w: {"name": "Another", "cards": w.chronovore_copies[:5]},
    "chronovore_match": lambda w: {"deckId": w.chronovore_deck},
    "chronovore_lock": lambda w: {
        "expectedVersion": chronovore_version(w),
        "action": {"kind": "lock"},
    },
    "chronovore_leave": lambda w: {"expectedVersion": chronovore_version(w)},
    "chronovore_queue": lambda w: {"deckId": w.chronovore_deck},
    "quest_queue": lambda w: {"deckId": w.deck},
    "chronovore_invite": lambda w: {
        "to": "Keeper-" + hashlib.sha256(w.callers["other"].player_id.encode()).hexdigest()[:6],
        "deckId": w.chronovore_deck,
    },
    "chronovore_accept": lambda w: {"deckId": w.chronovore_deck},
    "content": lambda w: {"kind": "question", "game": "quest", "body": question_body()},
    "edit": lambda w: {"expectedVersion": 1, "body": question_body()},
    "submit": lambda w: {"to": "in_review", "expectedVersion": 2},
    "approve": lambda w: {"items": [{"id": w.content, "expectedVersion": 3}]},
    "confirm": lambda w: {"confirm": CONFIRMATION_PHRASE},
    "buy": lambda w: {"kind": "core"},
    "craft": lambda w: {"definitionId": w.craftable, "finish": "plain"},
    "client_seed": lambda w: {"clientSeed": "matrix-seed"},
    "tk_deck": lambda w: {"name": "Another", "cards": w.terrakard["copies"][:8]},
    "tk_plan": lambda w: tk_plan(w, "Another"),
    "tk_plan_edit": lambda w: {**tk_plan(w, "Edited"), "expectedVersion": 1},
    "tk_give_up": lambda w: {
        "expectedVersion": w.owner.ok("GET", f"/terrakard/attacks/{w.terrakard['attack']}")[
            "version"
        ],
        "action": {"kind": "give_up"},
    },
    "tk_tutorial": lambda w: {"deckId": w.terrakard["deck"]},
    "tk_settings": lambda w: {"questions": True},
    "tk_attack": lambda w: {"deckId": w.terrakard["deck"], "targetId": w.terrakard["target"]},
}


def chronovore_version(world: World) -> int:
    return world.owner.ok("GET", f"/chronovore/matches/{world.chronovore_match}")["version"]


def tk_plan(world: World, name: str) -> dict[str, Any]:
    copies = world.terrakard["copies"]
    return {
        "name": name,
        "rounds": copies[:5],
        "reserve": copies[5],
        "condition": {"trigger": "low_hp"},
        "posture": "balanced",
    }


def action_body(world: World) -> dict[str, Any]:
    view = world.owner.ok("GET", f"/quest/battles/{world.match}")
    action = next(a for a in view["legalActions"] if a["kind"] != "forfeit")
    return {"expectedVersion": view["version"], "action": action}


@pytest.fixture
def auth0():
    with Auth0StandIn() as standin:
        standin.fail_next(10**9)  # Auth0 never answers: a deletion stays under way, locked
        yield standin


class ShiftedClock:
    """The system's time moved forward by ``shift`` until ``stop()``, then that moment for
    good. Battle's: TerraKard's world is set up past the new players' protection.
    Challenge's and battle's both stop once the world is made, so the owner's attempt,
    battle and attack, whose deadlines run from their starts, stay open through every
    row however slow a loaded machine makes them."""

    def __init__(self) -> None:
        self.shift = timedelta(0)
        self.stopped_at: datetime | None = None

    def now(self) -> datetime:
        return self.stopped_at or datetime.now(UTC) + self.shift

    def stop(self) -> None:
        self.stopped_at = self.now()


@pytest.fixture
def battle_clock():
    return ShiftedClock()


@pytest.fixture
def challenge_clock():
    return ShiftedClock()


@pytest.fixture
def platform(start_service, settings, auth0, battle_clock, challenge_clock):
    """As tests/e2e/conftest.py's, with accounts on the Auth0 stand-in, no rate limits,
    battle on ``battle_clock`` and challenge on ``challenge_clock``."""
    clocks = {"battle": battle_clock, "challenge": challenge_clock}
    containers = {
        name: start_service(
            name,
            settings_override=auth0.settings(settings) if name == "accounts" else None,
            replacements={"clock": clocks[name]} if name in clocks else None,
        )
        for name in SERVICE_NAMES
    }
    containers["gateway"] = start_service(
        "gateway", MAX_BODY_BYTES=settings.max_body_bytes, **UNLIMITED
    )
    return containers


@pytest.fixture
def world(
    api, rpc, starters, core_set, event_id, terrakard_catalogue, battle_clock, challenge_clock
) -> World:
    callers = {
        "anonymous": Caller(api, "anonymous"),
        "owner": Caller(api, "owner"),
        "other": Caller(api, "other"),
        "author": Caller(api, "author", roles=["author"]),
        "locked": Caller(api, "locked", roles=["author"]),
    }
    for caller in callers.values():
        if caller.token:
            caller.register()

    locked = callers["locked"]
    deletion = locked.call("DELETE", "/me", {"confirm": CONFIRMATION_PHRASE})
    assert deletion.status_code == 202, deletion.text
    assert_problem(locked.call("GET", "/me"), 403, "account_locked")
    locked.ids.add(deletion.json()["id"])

    author = callers["author"]
    prompt = f"Which moon is the largest? ({random_suffix()})"
    draft = author.ok(
        "POST",
        "/authoring/content",
        {"kind": "question", "game": "quest", "body": {**question_body(), "prompt": prompt}},
    )
    author.ids.add(draft["id"])

    owner = callers["owner"]
    grant = owner.ok("POST", "/quest/starter", {"affinity": "Grit"})
    copies = [card["id"] for card in grant["cards"]]
    deck = owner.ok("POST", "/quest/decks", {"name": "Battle", "cards": copies})
    spare = owner.ok("POST", "/quest/decks", {"name": "Spare", "cards": copies})
    match = owner.ok("POST", "/quest/battles", {"deckId": deck["id"]})
    assert match["phase"] == "initial_selection"  # no turn deadline until the actions row
    owner.ids.update([*copies, deck["id"], spare["id"], match["id"]])
    # Chronovore first: its deck is built from the starting packs, all opened; then one
    # more pack, left unopened for the open row.
    chronovore_player, chronovore_deck = chronovore.player_with_deck(api, rpc, core_set, owner)
    chronovore_copies = [card["id"] for card in chronovore_deck["cards"]]
    work = owner.ok("POST", "/chronovore/decks", {"name": "Spare", "cards": []})
    owner.ids.update([*chronovore_copies, chronovore_deck["id"], work["id"]])
    assert chronovore_player is owner
    [pack] = economy.grant_packs(rpc, owner.player_id)
    [diamond_pack] = economy.grant_packs(rpc, owner.player_id, kind="diamond")
    economy.grant_gold(rpc, owner.player_id, 100)
    economy.grant_fragments(rpc, owner.player_id, 100)
    owner.ids.update([pack, diamond_pack])
    loose_copy, craftable = chronovore_spares(owner, core_set, chronovore_copies)
    owner.ids.add(loose_copy)

    callers["other"].own_kit(event_id)
    author.own_kit(event_id)
    # TerraKard before the owner's attempt: the attempt's deadline runs from its start.
    terrakard = terrakard_kit(owner, callers["other"], terrakard_catalogue, battle_clock)
    attempt = owner.ok("POST", f"/quest/events/{event_id}/attempt", attempt_api.claim())
    for clock in (challenge_clock, battle_clock):
        clock.stop()  # no deadline passes while the rows go through
    owner.ids.add(attempt["id"])
    owner.ids.update(o["id"] for q in attempt["questions"] for o in q["options"])

    return World(
        callers=callers,
        event=event_id,
        copies=copies,
        deck=deck["id"],
        spare_deck=spare["id"],
        attempt=attempt,
        match=match["id"],
        content=draft["id"],
        content_prompt=prompt,
        deletion_of_locked=deletion.json()["id"],
        pack=pack,
        terrakard=terrakard,
        reader=Caller(api, "reader", roles=["author"]),
        chronovore_copies=chronovore_copies,
        chronovore_deck=chronovore_deck["id"],
        chronovore_spare=work["id"],
        diamond_pack=diamond_pack,
        loose_copy=loose_copy,
        craftable=craftable,
    )


def chronovore_spares(owner: Caller, core_set, in_deck: list[str]) -> tuple[str, str]:
    """A copy of the owner's in no deck and not Diamond (the shred row's), and a Core Set
    Common the owner holds no copy of (the craft row's)."""
    collection = owner.ok("GET", "/chronovore/collection")
    held = {group["definition"]["id"] for group in collection["definitions"]}
    loose = next(
        copy["id"]
        for group in collection["definitions"]
        for copy in group["copies"]
        if copy["id"] not in in_deck and copy["finish"] != "diamond"
    )
    craftable = next(
        card_id
        for card_id, card in sorted(core_set.items())
        if card["rarity"] == "common" and card_id not in held
    )
    return loose, craftable


@pytest.fixture
def terrakard_catalogue(settings):
    return insert_terrakard_cards(settings)


def insert_terrakard_cards(settings, rarities=("Common",) * 8 + ("Uncommon",) * 2):
    """Published TerraKard cards as the cards service keeps them (straight into its
    read model: their authoring is tests/e2e/terrakard's), by default enough for a
    starting collection (one of each rarity lets every pack kind be opened)."""
    engine = sa.create_engine(settings.database_url_for("cards"))
    rows = []
    for index, rarity in enumerate(rarities):
        snapshot = {
            "name": f"Tk matrix {random_suffix()}",
            "wikidata": "Q1",
            "category": str(CYCLE[index % len(CYCLE)]),
            "rarity": rarity,
            "atk": 30,
            "def": 30,
        }
        rows.append(
            {
                "id": uuid.uuid4(),
                "lineage_id": uuid.uuid4(),
                "game": "terrakard",
                "kind": "card",
                "name": snapshot["name"],
                "rarity": rarity,
                "attributes": TERRAKARD_COLLECTION.card_attributes("card", snapshot),
                "version": 1,
                "snapshot": snapshot,
                "published_at": datetime.now(UTC),
            }
        )
    with engine.begin() as conn:
        conn.execute(sa.insert(cards_orm.card_definitions), rows)
    engine.dispose()
    return rows


def past_the_tutorial(player: Caller, deck_id: str) -> None:
    """The TerraKard tutorial (against the training plan), given up at once."""
    started = player.ok("POST", "/terrakard/tutorial", {"deckId": deck_id})
    body = {"expectedVersion": started["version"], "action": {"kind": "give_up"}}
    player.ok("POST", f"/terrakard/attacks/{started['id']}/actions", body)


def terrakard_kit(
    owner: Caller, other: Caller, catalogue: Any, battle_clock: ShiftedClock
) -> dict[str, Any]:
    """The owner's TerraKard deck, active plan and an attack on other's automatic plan,
    both past the tutorial and the new players' protection."""
    theirs = other.ok("POST", "/terrakard/collection/start")["cards"]
    commons = [c["id"] for c in theirs if c["rarity"] == "Common"][:8]
    past_the_tutorial(
        other, other.ok("POST", "/terrakard/decks", {"name": "A", "cards": commons})["id"]
    )
    collection = owner.ok("POST", "/terrakard/collection/start")
    copies = [c["id"] for c in collection["cards"] if c["rarity"] == "Common"]
    deck = owner.ok("POST", "/terrakard/decks", {"name": "Attack", "cards": copies[:8]})
    past_the_tutorial(owner, deck["id"])
    battle_clock.shift += ARENA.new_player_protection + timedelta(hours=1)
    plan = {
        "name": "Wall",
        "rounds": copies[:5],
        "reserve": copies[5],
        "condition": {"trigger": "low_hp"},
        "posture": "balanced",
        "activate": True,
    }
    plan = owner.ok("POST", "/terrakard/plans", plan)
    pseudonym = "Keeper-" + hashlib.sha256(other.player_id.encode()).hexdigest()[:6]
    arena = owner.ok("GET", "/terrakard/arena")["items"]
    target = next(t["targetId"] for t in arena if t["pseudonym"] == pseudonym)
    attack = owner.ok("POST", "/terrakard/attacks", {"deckId": deck["id"], "targetId": target})
    # The attack is shared by both players (other reads it as its defense report): its
    # id is no one account's own.
    owner.ids.update([*(c["id"] for c in collection["cards"]), deck["id"], plan["id"]])
    return {"copies": copies, "deck": deck["id"], "plan": plan["id"], "attack": attack["id"],
            "target": target}  # fmt: skip


# -- running a cell ---------------------------------------------------------------------------

_PARAMETER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def concrete_path(method: str, rule: str, world: World) -> str:
    values = {
        "attempt_id": world.attempt["id"],
        "index": "0",
        "event_id": world.event,
        "deck_id": world.spare_deck,
        "match_id": world.match,
        "content_id": world.content,
        "game": "chronovore",
        "pack_id": world.diamond_pack if rule.endswith("/sell") else world.pack,
        "copy_id": world.loose_copy,
        "attack_deck_id": world.terrakard["deck"],
        "plan_id": world.terrakard["plan"],
        "attack_id": world.terrakard["attack"],
    }
    if rule.startswith("/chronovore/"):
        values.update(deck_id=world.chronovore_spare, match_id=str(world.chronovore_match))
        values["invitation_id"] = str(world.chronovore_invitation)
    if rule.startswith("/<versus:game>/invitations/"):
        values["invitation_id"] = str(world.chronovore_invitation)
    path = _PARAMETER.sub(lambda m: values[m.group(1)], rule)
    return path + QUERIES.get((method, rule), QUERIES.get(rule, ""))


def expected(cell: int | str) -> tuple[int, str | None]:
    if isinstance(cell, int):
        return cell, None
    status, code = cell.split(" ")
    return int(status), code


def object_owner(rule: str) -> str:
    return "author" if rule.startswith("/authoring/") else "owner"


def assert_cell(
    world: World, role: str, method: str, path: str, body: Any, cell, headers=None
) -> Any:
    caller = world.callers[role]
    response = caller.call(method, path, body, headers)
    status, code = expected(cell)
    where = f"{role} {method} {path}"
    if code is not None:
        assert_problem(response, status, code)
    else:
        assert response.status_code == status, (where, response.status_code, response.text)
    # Nobody learns another account's identifiers (except those the request sent), and
    # only Authors see the draft.
    sent = path + json.dumps(body)
    foreign = set().union(*(c.ids for r, c in world.callers.items() if r != role))
    leaked = sorted(i for i in foreign if i in response.text and i not in sent)
    assert not leaked, (where, "answered another account's identifiers", leaked, response.text)
    if role != "author":
        assert world.content_prompt not in response.text, (where, response.text)
    # Refused for naming another's object: answered exactly as for ids that exist nowhere
    # (no oracle of what exists). Role and lock refusals come before any id is looked at.
    named = sorted(i for i in foreign if i in sent)
    if named and 400 <= response.status_code < 500 and cell not in (ANON, LOCKED, NOT_AUTHOR):
        twin = unknown_twin(caller, method, path, body, named, headers)
        assert (twin.status_code, _no_request_id(twin.json())) == (
            response.status_code,
            _no_request_id(response.json()),
        ), where
    return response


def _no_request_id(problem: Any) -> Any:
    """A problem without the id of its request (new every time)."""
    if isinstance(problem, dict):
        return {k: v for k, v in problem.items() if k != "requestId"}
    return problem


def unknown_twin(caller: Caller, method: str, path: str, body: Any, named: list[str], headers=None):
    """The same request with each named id replaced by one of its shape that exists nowhere;
    the answer comes back with the original ids put back, to compare."""
    fresh = {i: str(uuid.uuid4()) if len(i) == 36 else f"o{uuid.uuid4().hex[:8]}" for i in named}
    text = path + "\n" + json.dumps(body)
    for original, replacement in fresh.items():
        text = text.replace(original, replacement)
    twin_path, twin_body = text.split("\n", 1)
    answer = caller.call(method, twin_path, json.loads(twin_body), headers)
    restored = answer.text
    for original, replacement in fresh.items():
        restored = restored.replace(replacement, original)
    answer._content = restored.encode()
    return answer


def run_row(world: World, method: str, rule: str, body_name: str | None, cells) -> None:
    path = concrete_path(method, rule, world)
    body = BODIES[body_name](world) if body_name else None
    headers = HEADERS.get(rule)
    by_role = dict(zip(ROLES, cells, strict=True))
    first = object_owner(rule)
    mutating = method != "GET"
    with_draft = rule != "/me"  # DELETE /me: the author deletes itself, its draft too
    before = world.owner_view(with_draft) if mutating else None
    for role in (r for r in ROLES if r != first):
        assert_cell(world, role, method, path, body, by_role[role], headers)
    if mutating:
        assert world.owner_view(with_draft) == before, (
            f"{method} {path} by others changed the owner's"
        )
    answer = assert_cell(world, first, method, path, body, by_role[first], headers)
    if rule.endswith("/forfeit") and answer.status_code == 200:
        # The finished match reaches the owner's progression by event: let it land
        # before the next row compares the owner's view before and after others act.
        wait_for(lambda: world.match in world.owner.call("GET", "/me/progression").text)
    made = answer.json() if answer.headers.get("Content-Type") == "application/json" else None
    # A new object of theirs (an action answers its match, made before).
    if method == "POST" and isinstance(made, dict) and "id" in made and "/actions" not in rule:
        world.callers[first].ids.add(made["id"])
    if (method, rule) == ("POST", "/chronovore/matches"):
        world.chronovore_match = made["id"]
    if (method, rule) == ("POST", "/<versus:game>/invitations"):
        # Shared by both players (other reads it among its invitations): no one's own.
        world.chronovore_invitation = made["id"]
        world.callers[first].ids.discard(made["id"])


# -- the tests -------------------------------------------------------------------------------


# A stream never ends, so it has no row here: tests/e2e/platform/test_push.py checks it
# for every role (no token, a refused token, a locked account, and only one's own events).
STREAMS = {("GET", "/stream/sse")}


def test_every_route_has_a_row():
    declared = {(r.method, r.url) for r in api_routes(Gateway)} - STREAMS
    in_matrix = [(method, rule) for method, rule, _, _ in MATRIX]
    assert len(in_matrix) == len(set(in_matrix)), "a route has two rows"
    assert set(in_matrix) == declared, {
        "routes without a row": sorted(declared - set(in_matrix)),
        "rows without a route": sorted(set(in_matrix) - declared),
    }
    for _, _, body_name, cells in MATRIX:
        assert len(cells) == len(ROLES)
        assert body_name is None or body_name in BODIES


def assert_smuggled_ids_are_ignored_or_refused(world: World) -> None:
    """The player is always the token's: the owner's id or subject sent by another player
    in a query, a header or a body is refused (422) or ignored - never obeyed."""
    owner, other = world.owner, world.callers["other"]
    query = f"player_id={owner.player_id}&playerId={owner.player_id}&sub={owner.sub}"
    headers = {"X-Player-Id": owner.player_id, "X-User-Id": owner.player_id, "X-Sub": owner.sub}
    player_routes = {
        (r.method, r.url) for r in api_routes(Gateway) if r.doc.auth != "none"
    } - STREAMS
    own_reads = [
        rule for method, rule in sorted(player_routes) if method == "GET" and "<" not in rule
    ]
    for rule in own_reads:
        plain = other.call("GET", rule)
        for path, extra in ((f"{rule}?{query}", None), (rule, headers)):
            smuggled = other.call("GET", path, headers=extra)
            assert smuggled.status_code in (plain.status_code, 422), (path, smuggled.text)
            assert not [i for i in owner.ids if i in smuggled.text], (path, smuggled.text)
    for path, body in (
        ("/quest/starter", {"affinity": "Grit", "playerId": owner.player_id}),
        ("/quest/decks", {"name": "Theirs", "cards": world.copies, "playerId": owner.player_id}),
        ("/quest/battles", {"deckId": world.deck, "playerId": owner.player_id}),
    ):
        smuggled = other.call("POST", path, body, headers=headers)
        assert smuggled.status_code == 422, (path, smuggled.text)
        assert not [i for i in owner.ids if i in smuggled.text.replace(owner.player_id, "")]


def test_the_authorization_matrix(world):
    assert_smuggled_ids_are_ignored_or_refused(world)
    for method, rule, body_name, cells in MATRIX:
        run_row(world, method, rule, body_name, cells)

    assert_problem(world.owner.call("GET", "/me"), 403, "account_locked")  # deleted itself
    assert world.reader.ok("GET", f"/authoring/content/{world.content}")["state"] == "in_review"

    # The locked account asked again: the same deletion. Each deletion is its caller's own.
    locked = world.callers["locked"].ok("GET", "/me/deletion")
    assert locked["id"] == world.deletion_of_locked
    deletions = {
        role: world.callers[role].ok("GET", "/me/deletion")["id"]
        for role in ("owner", "other", "author", "locked")
    }
    assert len(set(deletions.values())) == 4, deletions

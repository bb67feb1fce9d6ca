"""No secret reaches a player: a property test over random sequences of a player's own
legal requests during an attempt and a CPU battle, through the gateway.

Each Hypothesis example is a new player (Grit starter, a deck) who does a random
mix of: start the attempt at the event, answer questions (right, wrong, or again
differently: refused), read the attempt, start a battle, take random legal actions
(and a stale one: refused), read the match, the active match and the history,
forfeit, read ``/me``, the collection, the decks, the progression, the starter and
the nearby events. Every response
body - successes and problems alike - goes through ``leaks()``, which compares it
with the truth: the authored answer key and explanations, and the match's stored
state (read from the battle database: the CPU's cards, what of them is revealed,
the seed). A rival player, with an attempt and a battle of their own, exists
throughout; none of their identifiers may appear.

What is secret, and when it stops being secret (``leaks`` checks exactly this):

- the answer key (the correct option id, the correct order): while the attempt is
  active only as an option's ``id`` or as the player's own submitted ``answer``;
  once completed also in ``result.review[].correctAnswer``;
- correctness and score (``ANSWER_KEYS``: ``correct``, ``score``, ``review``,
  ``result``, ``explanation``, ...): only in a completed attempt's ``result``;
- explanations: an ordering question's only in a completed attempt's
  ``result.review``; a multiple-choice question's never (rulebook);
- the CPU's Creatures (name, definition id, move names): only once revealed - the
  active one, or defeated ones;
- the CPU's selection: its index in the history, and events about a CPU Creature,
  only for revealed ones;
- the CPU's Power cards: only played ones (``opponent.played_power_cards``, a CPU
  ``power_card_played`` event). Their names are also the player's own starter Power
  cards (the rulebook's CPU deck), so they are checked by position, not by name;
- the opponent: only ``OPPONENT_KEYS`` (counts, the active Creature, played cards);
- the random state: never - no ``seed``/``random``/``counter``/``rng`` key or quoted
  word outside the match's ``fairness`` part, never the seed's value;
- the match seed and its salt (issue 22): a match answer's ``fairness`` is exactly
  ``{commitment, seed, salt}``, the commitment SHA-256 of the stored seed and salt from
  the first answer on; the seed and salt only in an answer whose match is finished
  (and the ``replay`` part, which reveals the CPU's deck, only then); never anywhere
  else, and never in a push message;
- server seeds (provably fair rolls): no answer or push message ever holds a server
  seed that is still active (any player's, read from the cards database after each
  answer); the player also reads their fairness state and rolls and rotates (the
  revealed seed is then due);
- other players: never - none of the rival's ids (player, attempt, options, deck,
  copies, match).

Besides, across all examples: the correct option is not always in the same place, and
an ordering question's options are not shown in their correct order every time.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.quest.cpu import CPU_DECK
from services.battle.orm import matches
from services.cards.orm import fair_seeds
from shared.config import SERVICE_NAMES
from tests.e2e.platform.test_authorization_matrix import UNLIMITED, Caller
from tests.e2e.platform.test_push import open_stream
from tests.e2e.quest import test_attempt_api as attempt_api
from tests.e2e.quest import test_cards_api as cards_api
from tests.e2e.quest.test_battle_api import ChosenSeed
from tests.integration.authoring.test_lifecycle import question_body
from tests.random_refs import random_suffix

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)
authors = attempt_api.authors  # two Authors who publish the event (fixture)

# -- the checker ------------------------------------------------------------------------------

RANDOM_STATE_KEYS = {"seed", "random", "counter", "rng", "initialState", "randomState"}
RANDOM_STATE_WORDS = ('"seed"', '"random"', '"counter"', '"rng"', '"randomState"')
# Keys that mean correctness, score or an answer key: only in a completed attempt's result.
ANSWER_KEYS = {
    "correct",
    "correctAnswer",
    "correctCount",
    "isCorrect",
    "key",
    "answerKey",
    "explanation",
    "score",
    "review",
    "result",
    "pointsAwarded",
}
ATTEMPT_KEYS = {"id", "eventId", "status", "startedAt", "deadline", "questions"}
QUESTION_KEYS = {"index", "kind", "prompt", "options", "answer"}
OPTION_KEYS = {"id", "text"}
OPPONENT_KEYS = {
    "active",
    "mustSelect",
    "hasChosen",
    "creaturesLeft",
    "creaturesDefeated",
    "powerCardsInHand",
    "playedPowerCards",
}
# Where an answer-key option id may stand (paths with list indexes as "#").
KEY_ID_PATHS_ACTIVE = {
    "questions.#.options.#.id",
    "questions.#.answer.choice",
    "questions.#.answer.order.#",
}
KEY_ID_PATHS_COMPLETED = KEY_ID_PATHS_ACTIVE | {
    "result.review.#.yourAnswer.choice",
    "result.review.#.yourAnswer.order.#",
    "result.review.#.correctAnswer.choice",
    "result.review.#.correctAnswer.order.#",
}


def walk(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every (path, value) in a JSON value, dict keys and list indexes ("#") on the path."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, str(key)))
    elif isinstance(value, list):
        for item in value:
            yield from walk(item, (*path, "#"))


def keys_of(value: Any) -> Iterator[tuple[tuple[str, ...], str, Any]]:
    """Every (path of the object, key, value) of every JSON object in ``value``."""
    for path, item in walk(value):
        if isinstance(item, dict):
            for key, inner in item.items():
                yield path, key, inner


@dataclass
class AttemptTruth:
    """What the player must not learn early about their attempt."""

    completed: bool = False
    keys: dict[str, tuple[str, ...]] = field(default_factory=dict)  # prompt -> correct ids
    explanations: dict[str, tuple[str, bool]] = field(
        default_factory=dict
    )  # prompt -> (text, ordering)


@dataclass
class MatchTruth:
    """The stored state of one match, as the battle service keeps it (never shown)."""

    seed: int
    hidden_cpu_words: set[str]  # names, definition ids and moves of unrevealed CPU Creatures
    revealed_cpu_creatures: set[int]
    played_cpu_power_cards: list[int]
    salt: str | None = None  # the seed's salt (secret, as the seed, until the match ends)


@dataclass
class Truth:
    attempt: AttemptTruth = field(default_factory=AttemptTruth)
    matches: dict[str, MatchTruth] = field(default_factory=dict)
    foreign: set[str] = field(default_factory=set)  # the rival's identifiers
    active_server_seeds: set[str] = field(default_factory=set)  # every player's, now


FAIRNESS_KEYS = {"commitment", "seed", "salt"}
PUSH_LOOK_SECONDS = 1.0  # how long to wait for one more push message at an example's end
DUE_PARTS = ("fairness", "replay")  # checked by fairness_leaks, not as random state


def _finished(body: Any) -> bool:
    return isinstance(body, dict) and body.get("status") == "finished"


def fairness_leaks(body: Any, text: str, truth: Truth) -> list[str]:
    """The match seed, its salt and server seeds: each only where and when it is due."""
    found = [f"an active server seed {s[:8]}..." for s in truth.active_server_seeds if s in text]
    own = match_id_of(body)
    for match_id, match in truth.matches.items():
        due = match_id == own and _finished(body)
        if match.salt is not None and match.salt in text and not due:
            found.append(f"the salt of match {match_id} before it is due")
    match = truth.matches.get(own or "")
    if not isinstance(body, dict) or match is None:
        return found
    fair = body.get("fairness")
    if fair is not None:
        if set(fair) != FAIRNESS_KEYS:
            return [*found, f"fairness keys {sorted(fair)}"]
        expected = hashlib.sha256(f"{match.seed}:{match.salt}".encode()).hexdigest()
        if fair["commitment"] != expected:
            found.append("a commitment that is not SHA-256 of the stored seed and salt")
        shown = (fair["seed"], fair["salt"])
        if shown != ((str(match.seed), match.salt) if _finished(body) else (None, None)):
            found.append(f"fairness seed/salt {shown} for a match {body.get('status')}")
    if body.get("replay") is not None and not _finished(body):
        found.append("a replay of a match still running")
    return found


def leaks(body: Any, text: str, truth: Truth) -> list[str]:
    """Every secret in one response body (``body`` parsed, ``text`` as sent); [] if none."""
    found = fairness_leaks(body, text, truth)
    attempt = truth.attempt
    # What is due in a match's fairness and replay parts is checked above; the rest
    # of the answer is checked as before, without them.
    whole_text = text
    if isinstance(body, dict) and any(part in body for part in DUE_PARTS):
        body = {k: v for k, v in body.items() if k not in DUE_PARTS}
        text = json.dumps(body)
    found += [f"random state key {key!r} at {path}" for path, key, _ in keys_of(body)
              if key in RANDOM_STATE_KEYS]  # fmt: skip
    found += [f"random state word {w}" for w in RANDOM_STATE_WORDS if w in text.lower()]
    found += [f"another player's id {i}" for i in truth.foreign if i in text]

    # The attempt: shape, answer-key ids, correctness and explanations.
    is_attempt = isinstance(body, dict) and "questions" in body and "eventId" in body
    completed = is_attempt and body.get("status") == "completed"
    for path, key, value in keys_of(body):
        if key not in ANSWER_KEYS:
            continue
        if is_attempt:  # only in the result, once completed
            allowed = completed and (path[:1] == ("result",) or (path, key) == ((), "result"))
        else:  # the progression: a completed attempt's score is public; a null says nothing
            allowed = value is None or attempt.completed
        if not allowed:
            found.append(f"answer/correctness key {key!r} at {'.'.join(path) or '(top)'}")
    if is_attempt:
        allowed_top = ATTEMPT_KEYS | ({"result"} if completed else set())
        found += [f"attempt key {k!r}" for k in set(body) - allowed_top]
        for question in body["questions"]:
            found += [f"question key {k!r}" for k in set(question) - QUESTION_KEYS]
            for option in question["options"]:
                found += [f"option key {k!r}" for k in set(option) - OPTION_KEYS]
    allowed_paths = KEY_ID_PATHS_COMPLETED if completed else KEY_ID_PATHS_ACTIVE
    key_ids = {i for ids in attempt.keys.values() for i in ids}
    placed: dict[str, int] = {}
    for path, value in walk(body):
        if isinstance(value, str) and value in key_ids:
            where = ".".join(path)
            if not is_attempt or where not in allowed_paths:
                found.append(f"answer-key option id {value} at {where}")
            placed[value] = placed.get(value, 0) + 1
    for key_id in key_ids:  # ...and nowhere inside another string
        if whole_text.count(key_id) != placed.get(key_id, 0):
            found.append(f"answer-key option id {key_id} inside some text")
    for explanation, ordering in attempt.explanations.values():  # (the result is checked above)
        if explanation in text and not (completed and ordering):
            found.append(f"explanation {explanation!r}")

    # The CPU's cards and the match's random state.
    match = truth.matches.get(match_id_of(body) or "")
    if match is not None:
        found += [f"unrevealed CPU card word {w!r}" for w in match.hidden_cpu_words if w in text]
        seed = str(match.seed)
        if len(seed) >= 6 and re.search(rf"(?<!\d){seed}(?!\d)", text):
            found.append(f"the seed {match.seed}")
        found += cpu_positions(body, match)
    return found


def match_id_of(body: Any) -> str | None:
    """The match a battle response is about: a view (``mode: cpu``), a history or a
    409 naming the active match."""
    if not isinstance(body, dict):
        return None
    if body.get("mode") == "cpu":
        return str(body["id"])
    return body.get("matchId")


def cpu_positions(body: dict[str, Any], match: MatchTruth) -> list[str]:
    """Events, history entries and the opponent may name only revealed CPU cards."""
    found = []
    opponent = body.get("opponent")
    if isinstance(opponent, dict):
        found += [f"opponent key {k!r}" for k in set(opponent) - OPPONENT_KEYS]
        if len(opponent.get("playedPowerCards", [])) > len(match.played_cpu_power_cards):
            found.append("more CPU Power cards shown than played")
    for path, item in walk(body):
        if not isinstance(item, dict) or item.get("side") != "cpu":
            continue
        if "creature" in item and item["creature"] not in match.revealed_cpu_creatures:
            found.append(f"an event about unrevealed CPU Creature {item['creature']} at {path}")
        if item.get("type") == "power_card_played" and item.get("card") not in (
            match.played_cpu_power_cards
        ):
            found.append(f"an unplayed CPU Power card at {path}")
        action = item.get("action")
        if (
            isinstance(action, dict)
            and action.get("kind") == "select_creature"
            and "index" in action
            and action["index"] not in match.revealed_cpu_creatures
        ):
            found.append(f"the CPU's unrevealed selection at {path}")
    return found


# -- truth from the server's side ------------------------------------------------------------


def cpu_card_words(catalogue: list[dict[str, Any]]) -> dict[str, set[str]]:
    """For each CPU Creature's name: the words that name it (name, definition id, moves)."""
    words = {}
    for definition in catalogue:
        if definition["kind"] == "creature" and definition["name"] in CPU_DECK.creatures:
            moves = {m["name"] for m in definition["definition"].get("moves", [])}
            words[definition["name"]] = {definition["name"], definition["id"], *moves}
    return words


def match_truth(engine, match_id: str, cpu_words: dict[str, set[str]]) -> MatchTruth:
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(matches.c.state, matches.c.seed, matches.c.seed_salt).where(
                matches.c.id == uuid.UUID(match_id)
            )
        ).one()
    cpu = row.state["sides"]["cpu"]
    revealed = {i for i, c in enumerate(cpu["creatures"]) if i == cpu["active"] or c["hp"] == 0}
    hidden = set()
    for i, creature in enumerate(cpu["creatures"]):
        if i not in revealed:
            hidden |= cpu_words[creature["name"]] | {creature["definition_id"]}
    return MatchTruth(row.seed, hidden, revealed, list(cpu["discarded"]), row.seed_salt)


def active_server_seeds(cards_engine) -> set[str]:
    """Every server seed still secret (any player's): none may be in any answer."""
    with cards_engine.connect() as conn:
        rows = conn.execute(
            sa.select(fair_seeds.c.server_seed).where(fair_seeds.c.revealed_at.is_(None))
        )
        return {row.server_seed for row in rows}


# -- the platform, the event, the rival ---------------------------------------------------


@pytest.fixture
def chosen_seed():
    return ChosenSeed()


@pytest.fixture
def platform(start_service, settings, chosen_seed):
    """Every service and the gateway (no rate limits); battle seeds chosen by each example,
    so that an example's match is the same when Hypothesis replays it."""
    containers = {
        name: start_service(
            name, replacements={"random": chosen_seed} if name == "battle" else None
        )
        for name in SERVICE_NAMES
    }
    containers["gateway"] = start_service(
        "gateway", MAX_BODY_BYTES=settings.max_body_bytes, **UNLIMITED
    )
    return containers


def ordering_body(n: int) -> dict[str, Any]:
    return {
        "prompt": f"Order by size, smallest first ({random_suffix()} {n})",
        "difficulty": 2,
        "explanation": f"An ant is smaller than a dog ({random_suffix()}).",
        "items": ["ant", "dog", "cow", "whale"],
    }


@pytest.fixture
def event(api, authors) -> dict[str, Any]:
    """A published event: four multiple-choice questions and one ordering question.
    Returns its id and the authored bodies by prompt (the answer key)."""
    bodies = [
        ("question", {**question_body(n), "explanation": f"Iron oxide ({random_suffix()})."})
        for n in range(4)
    ] + [("ordering_question", ordering_body(4))]
    questions = [attempt_api.publish(authors, kind, body) for kind, body in bodies]
    published = attempt_api.publish_open_event(
        api, authors, [q["id"] for q in questions], "Secrets"
    )
    return {
        "id": published["id"],
        "bodies": {body["prompt"]: (kind, body) for kind, body in bodies},
    }


def answer_key(attempt: dict[str, Any], bodies: dict[str, Any]) -> AttemptTruth:
    truth = AttemptTruth(completed=attempt["status"] == "completed")
    for question in attempt["questions"]:
        kind, body = bodies[question["prompt"]]
        by_text = {o["text"]: o["id"] for o in question["options"]}
        if kind == "ordering_question":
            key = tuple(by_text[item] for item in body["items"])
        else:
            key = tuple(by_text[c["text"]] for c in body["choices"] if c.get("correct"))
        truth.keys[question["prompt"]] = key
        truth.explanations[question["prompt"]] = (body["explanation"], kind == "ordering_question")
    return truth


def with_deck(api) -> tuple[Caller, dict[str, Any]]:
    player = Caller(api, "player")
    player.register()
    grant = player.ok("POST", "/quest/starter", {"affinity": "Grit"})
    player.ids.update(c["id"] for c in grant["cards"])
    deck = player.ok(
        "POST", "/quest/decks", {"name": "Walk", "cards": [c["id"] for c in grant["cards"]]}
    )
    player.ids.add(deck["id"])
    return player, deck


@pytest.fixture
def rival(api, starters, event) -> set[str]:
    """Another player mid-attempt and mid-battle; their identifiers."""
    player, deck = with_deck(api)
    attempt = player.ok("POST", f"/quest/events/{event['id']}/attempt", attempt_api.claim())
    chosen = next(q for q in attempt["questions"] if q["kind"] == "question")
    path = f"/quest/attempts/{attempt['id']}/answers/{chosen['index']}"
    player.ok("PUT", path, {"choice": chosen["options"][0]["id"]})
    match = player.ok("POST", "/quest/battles", {"deckId": deck["id"]})
    player.ids.update([attempt["id"], match["id"]])
    player.ids.update(o["id"] for q in attempt["questions"] for o in q["options"])
    return player.ids


# -- the property ------------------------------------------------------------------------------

OPERATIONS = [
    "start_attempt",
    "answer", "answer", "answer", "answer",
    "answer_all", "answer_all",
    "answer_again",
    "read_attempt", "read_attempt",
    "start_battle",
    "act", "act", "act",
    "stale_act",
    "play_out",
    "forfeit",
    "read_match", "read_active", "read_history",
    "read_me", "read_collection", "read_decks", "read_progression", "read_starter",
    "read_events",
    "read_fairness", "read_rolls", "rotate_seed",
]  # fmt: skip


E2E_EXAMPLES = hypothesis_settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class Session:
    """One example's player, what they have, and every response checked as it arrives."""

    def __init__(self, api, event, engines, cpu_words, rival_ids, data) -> None:
        self.player, self.deck = with_deck(api)
        self.event = event
        self.engine, self.cards_engine = engines
        self.cpu_words = cpu_words
        self.data = data
        self.truth = Truth(foreign=rival_ids)
        self.attempt: dict[str, Any] | None = None
        self.match: dict[str, Any] | None = None
        self.attempts_seen: list[dict[str, Any]] = []
        self.pushes = 0

    def send(self, method: str, path: str, body: Any = None, statuses=(200,)) -> Any:
        response = self.player.call(method, path, body)
        assert response.status_code in statuses, (method, path, response.status_code, response.text)
        parsed = response.json()
        if isinstance(parsed, dict) and "questions" in parsed and "eventId" in parsed:
            self.attempt = parsed
            if not self.truth.attempt.keys:
                self.truth.attempt = answer_key(parsed, self.event["bodies"])
                self.attempts_seen.append(parsed)
            self.truth.attempt.completed = parsed["status"] == "completed"
        if isinstance(parsed, dict) and parsed.get("mode") == "cpu":
            self.match = parsed
        match_id = match_id_of(parsed)
        if match_id is not None:  # what the server holds now (revealed only grows)
            self.truth.matches[match_id] = match_truth(self.engine, match_id, self.cpu_words)
        self.truth.active_server_seeds = active_server_seeds(self.cards_engine)
        found = leaks(parsed, response.text, self.truth)
        assert not found, (method, path, found, response.text)
        return parsed

    # -- operations ----------------------------------------------------------------------

    def start_attempt(self) -> None:
        self.send(
            "POST", f"/quest/events/{self.event['id']}/attempt", attempt_api.claim(), (200, 201)
        )

    def unanswered(self) -> list[dict[str, Any]]:
        return [q for q in (self.attempt or {}).get("questions", []) if q["answer"] is None]

    def pick(self, items: list[Any]) -> Any:
        """One of ``items``, drawn with constraints that do not depend on the server."""
        return items[self.data.draw(st.integers(0, 359)) % len(items)]

    def submission(self, question: dict[str, Any]) -> dict[str, Any]:
        ids = [o["id"] for o in question["options"]]
        if question["kind"] == "ordering_question":
            return {"order": self.pick(list(itertools.permutations(ids)))}
        return {"choice": self.pick(ids)}

    def answer(self) -> None:
        if self.attempt is None or self.attempt["status"] != "active" or not self.unanswered():
            return
        question = self.pick(self.unanswered())
        path = f"/quest/attempts/{self.attempt['id']}/answers/{question['index']}"
        self.send("PUT", path, self.submission(question))

    def answer_all(self) -> None:
        while self.attempt is not None and self.attempt["status"] == "active" and self.unanswered():
            self.answer()

    def answer_again(self) -> None:
        answered = [q for q in (self.attempt or {}).get("questions", []) if q["answer"] is not None]
        if not answered:
            return
        question = self.pick(answered)
        path = f"/quest/attempts/{self.attempt['id']}/answers/{question['index']}"
        self.send("PUT", path, self.submission(question), (200, 409))

    def read_attempt(self) -> None:
        if self.attempt is not None:
            self.send("GET", f"/quest/attempts/{self.attempt['id']}")

    def start_battle(self) -> None:
        self.send("POST", "/quest/battles", {"deckId": self.deck["id"]}, (201, 409))

    def active(self) -> bool:
        return self.match is not None and self.match["status"] == "active"

    def act(self) -> None:
        if not self.active():
            return
        legal = [a for a in self.match["legalActions"] if a["kind"] != "forfeit"]
        if not legal:
            return
        action = self.pick(legal)
        body = {"expectedVersion": self.match["version"], "action": action}
        self.send("POST", f"/quest/battles/{self.match['id']}/actions", body, (200, 409))

    def stale_act(self) -> None:
        if self.match is not None:
            body = {"expectedVersion": self.match["version"] - 1, "action": {"kind": "forfeit"}}
            self.send("POST", f"/quest/battles/{self.match['id']}/actions", body, (409,))

    def play_out(self) -> None:
        for _ in range(30):  # each answer is the match at its new version
            if not self.active():
                return
            self.act()

    def forfeit(self) -> None:
        if self.match is not None:
            body = {"expectedVersion": self.match["version"]}
            self.send("POST", f"/quest/battles/{self.match['id']}/forfeit", body, (200, 409))

    def read_match(self) -> None:
        if self.match is not None:
            self.send("GET", f"/quest/battles/{self.match['id']}")

    def read_active(self) -> None:
        self.send("GET", "/quest/battles/active", statuses=(200, 404))

    def read_history(self) -> None:
        if self.match is not None:
            self.send("GET", f"/quest/battles/{self.match['id']}/history")

    def read_me(self) -> None:
        self.send("GET", "/me")

    def read_collection(self) -> None:
        self.send("GET", "/quest/collection")

    def read_decks(self) -> None:
        self.send("GET", "/quest/decks")

    def read_progression(self) -> None:
        self.send("GET", "/me/progression")

    def read_starter(self) -> None:
        self.send("GET", "/quest/starter")

    def read_events(self) -> None:  # public, but read while the attempt runs
        spot = attempt_api.SPOT
        self.send("GET", f"/quest/events?lat={spot['lat']}&lon={spot['lon']}")

    def read_fairness(self) -> None:
        self.send("GET", "/me/fairness")

    def read_rolls(self) -> None:
        self.send("GET", "/me/fairness/rolls")

    def rotate_seed(self) -> None:
        self.send("POST", "/me/fairness/rotate")

    def pushed(self, socket) -> None:
        """Every push message that reached the player's stream: no server seed still
        active, no match's seed or salt (none is ever due in a push)."""
        self.truth.active_server_seeds = active_server_seeds(self.cards_engine)
        secrets = set(self.truth.active_server_seeds)
        for match in self.truth.matches.values():
            secrets |= {match.salt or "", *([str(match.seed)] if match.seed >= 10**5 else [])}
        secrets.discard("")
        while True:
            try:
                message = socket.recv(timeout=PUSH_LOOK_SECONDS)
            except TimeoutError:
                return
            found = [s[:8] for s in secrets if s in message]
            assert not found, ("a push message holds a secret", found, message)
            self.pushes += 1


def test_no_player_visible_response_holds_a_secret(
    api, starters, event, rival, settings, chosen_seed
):
    catalogue = api.get("/cards/catalogue?game=quest").json()["items"]
    cpu_words = cpu_card_words(catalogue)
    assert set(cpu_words) == set(CPU_DECK.creatures)
    own_words = json.dumps(with_deck(api)[1])  # a Grit starter deck: nothing of the CPU's
    assert not [w for ws in cpu_words.values() for w in ws if w in own_words]
    engine = sa.create_engine(settings.database_url_for("battle"))
    cards_engine = sa.create_engine(settings.database_url_for("cards"))
    attempts_seen: list[dict[str, Any]] = []
    pushes: list[int] = []

    @E2E_EXAMPLES
    @given(
        data=st.data(),
        opening=st.lists(st.sampled_from(["start_attempt", "start_battle"]), max_size=2),
        steps=st.lists(st.sampled_from(OPERATIONS), min_size=3, max_size=12),
    )
    def a_player_plays(data, opening, steps):
        chosen_seed.seed = data.draw(st.integers(10**6, 2**62), label="battle seed")
        session = Session(api, event, (engine, cards_engine), cpu_words, rival, data)
        socket, _ = open_stream(api.base_url, session.player.token)
        try:
            for operation in [*opening, *steps]:
                getattr(session, operation)()
            session.read_attempt()
            session.read_history()
            session.pushed(socket)
        finally:
            socket.close()
        attempts_seen.extend(session.attempts_seen)
        pushes.append(session.pushes)

    try:
        a_player_plays()
    finally:
        engine.dispose()
        cards_engine.dispose()
    assert sum(pushes) > 0  # the push channel was watched, and it carried messages

    # Across players: the correct option is not always in one place, and an ordering
    # question's options are not always shown in their correct order.
    places, in_order = [], []
    for attempt in attempts_seen:
        key = answer_key(attempt, event["bodies"])
        for question in attempt["questions"]:
            ids = [o["id"] for o in question["options"]]
            correct = key.keys[question["prompt"]]
            if question["kind"] == "ordering_question":
                in_order.append(tuple(ids) == correct or tuple(sorted(ids)) == correct)
            else:
                places.append(ids.index(correct[0]))
    if len(places) >= 8:
        assert len(set(places)) > 1, places
    if len(in_order) >= 3:
        assert not all(in_order), in_order

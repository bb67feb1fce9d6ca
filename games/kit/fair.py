"""Provably fair rolls: the derivation every roll a player gets comes from, and its verifier.

A player has a secret server seed (32 random bytes; its SHA-256 is shown from the start),
a client seed they may set, and a nonce that counts rolls under the server seed. A roll
is a list of draws; draw ``j`` of a roll with purpose ``p`` reads the bytes

    block 0:  HMAC-SHA256(key=server seed, message=f"{client_seed}:{nonce}:{p}/{j}")
    block b:  HMAC-SHA256(key=server seed, message=f"{client_seed}:{nonce}:{p}/{j}:{b}")

as a stream of 32-bit big-endian unsigned words (block 0's eight words, then block 1's,
...). A draw among options with integer weights w (total W, 1 <= W <= 2**32) takes the
first word u with u < 2**32 - (2**32 mod W) (rejection sampling: every residue is then
equally likely), r = u mod W, and picks the first option whose running total of weights
exceeds r. A uniform choice is the same with every weight 1. ``docs/fairness.md`` has the
worked examples; nothing here needs more than ``hashlib`` and ``hmac``.

Pure: the service passes the seeds in and persists the draws (``Draw``) before showing
them; ``verify_roll`` recomputes a stored roll from its revealed seed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from games.kit.frozen import plain
from games.kit.protocol import CpuPolicy, Engine
from games.kit.refusal import Refusal

T = TypeVar("T")

SEED_BYTES = 32  # 256 bits
WORD_BYTES = 4
WORD_SPACE = 1 << 32
# Purposes and client seeds never contain ":" or "/", so a message names exactly one
# (client seed, nonce, purpose, draw, block): no two rolls can share a message.
PURPOSE = re.compile(r"[a-z0-9][a-z0-9._-]{0,79}")
CLIENT_SEED = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def seed_hash(server_seed: bytes) -> str:
    """The commitment shown before any roll: SHA-256 of the seed's 32 raw bytes, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def draw_purpose(purpose: str, index: int) -> str:
    return f"{purpose}/{index}"


def message(client_seed: str, nonce: int, purpose: str, block: int = 0) -> bytes:
    """The HMAC message of one block of one draw (``purpose`` is the draw's, ``p/j``)."""
    text = f"{client_seed}:{nonce}:{purpose}"
    return (text if block == 0 else f"{text}:{block}").encode()


def block(server_seed: bytes, client_seed: str, nonce: int, purpose: str, number: int) -> bytes:
    return hmac.new(server_seed, message(client_seed, nonce, purpose, number), "sha256").digest()


def words(server_seed: bytes, client_seed: str, nonce: int, purpose: str) -> Iterator[int]:
    """The endless stream of 32-bit big-endian words of one draw."""
    number = 0
    while True:
        data = block(server_seed, client_seed, nonce, purpose, number)
        for start in range(0, len(data), WORD_BYTES):
            yield int.from_bytes(data[start : start + WORD_BYTES], "big")
        number += 1


def below(stream: Iterator[int], total: int) -> int:
    """An integer in [0, total), every value equally likely: the first word under the
    largest multiple of ``total`` that fits in 32 bits, reduced modulo ``total``."""
    if not 1 <= total <= WORD_SPACE:
        raise ValueError("a draw's total weight is between 1 and 2**32")
    limit = WORD_SPACE - WORD_SPACE % total
    for word in stream:
        if word < limit:
            return word % total
    raise AssertionError("the word stream is endless")  # pragma: no cover


def weighted_index(stream: Iterator[int], weights: Sequence[int]) -> int:
    """The index an integer-weighted draw picks: the first whose running total exceeds r."""
    if not weights or any(w < 0 for w in weights) or sum(weights) == 0:
        raise ValueError("a draw needs non-negative integer weights with a positive total")
    r = below(stream, sum(weights))
    running = 0
    for index, weight in enumerate(weights):
        running += weight
        if r < running:
            return index
    raise AssertionError("r is below the total")  # pragma: no cover


@plain
@dataclass(frozen=True)
class Draw:
    """One draw as stored and exported: what was offered, with which weights, and what
    was picked. ``key`` says what it decided (``count``, ``rarity.0``...); only the
    position in the roll enters the derivation."""

    key: str
    options: tuple[str, ...]
    weights: tuple[int, ...]
    outcome: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "options": list(self.options),
            "weights": list(self.weights),
            "outcome": self.outcome,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Draw:
        return cls(
            str(data["key"]),
            tuple(str(o) for o in data["options"]),
            tuple(int(w) for w in data["weights"]),
            str(data["outcome"]),
        )


class Draws(Protocol):
    """What a game's roll draws from (a ``Roller`` in the service; its draws are kept)."""

    def weighted(
        self,
        key: str,
        options: Sequence[T],
        weights: Sequence[int],
        label: Callable[[T], str] = str,
    ) -> T: ...

    def choice(self, key: str, options: Sequence[T], label: Callable[[T], str] = str) -> T: ...


@dataclass
class Roller:
    """The draws of one roll (one nonce), recorded in order as they are made."""

    server_seed: bytes
    client_seed: str
    nonce: int
    purpose: str
    draws: list[Draw] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_purpose(self.purpose)
        check_client_seed(self.client_seed)
        if len(self.server_seed) != SEED_BYTES or self.nonce < 0:
            raise ValueError("a roll needs a 32-byte server seed and a nonce >= 0")

    def weighted(
        self,
        key: str,
        options: Sequence[T],
        weights: Sequence[int],
        label: Callable[[T], str] = str,
    ) -> T:
        if len(options) != len(weights):
            raise ValueError("one weight per option")
        purpose = draw_purpose(self.purpose, len(self.draws))
        stream = words(self.server_seed, self.client_seed, self.nonce, purpose)
        index = weighted_index(stream, weights)
        labels = tuple(label(option) for option in options)
        self.draws.append(Draw(key, labels, tuple(weights), labels[index]))
        return options[index]

    def choice(self, key: str, options: Sequence[T], label: Callable[[T], str] = str) -> T:
        return self.weighted(key, options, [1] * len(options), label)


def check_purpose(purpose: str) -> str:
    if not PURPOSE.fullmatch(purpose):
        raise ValueError(f"a purpose matches {PURPOSE.pattern}: {purpose!r}")
    return purpose


def check_client_seed(client_seed: str) -> str:
    if not CLIENT_SEED.fullmatch(client_seed):
        raise ValueError(f"a client seed matches {CLIENT_SEED.pattern}")
    return client_seed


# -- verification ------------------------------------------------------------------------


@plain
@dataclass(frozen=True)
class Verdict:
    """One exported roll checked: ``ok``, ``pending`` (its seed is still secret) or
    ``failed``, with a sentence for each problem found."""

    nonce: int
    purpose: str
    status: str
    problems: tuple[str, ...] = ()


def verify_roll(record: Mapping[str, Any]) -> Verdict:
    """Recompute one exported roll (docs/fairness.md, "The export") from its seeds."""
    nonce, purpose = record.get("nonce"), record.get("purpose")
    where = f"roll nonce {nonce} ({purpose})"
    if not isinstance(nonce, int) or not isinstance(purpose, str):
        return Verdict(-1, str(purpose), "failed", (f"{where}: no nonce or purpose",))
    seed_hex = record.get("server_seed")
    if seed_hex is None:
        return Verdict(nonce, purpose, "pending", ())
    try:
        seed = bytes.fromhex(str(seed_hex))
    except ValueError:
        return Verdict(nonce, purpose, "failed", (f"{where}: the server seed is not hex",))
    actual = seed_hash(seed)
    if actual != record.get("server_seed_hash"):
        return Verdict(
            nonce,
            purpose,
            "failed",
            (
                f"{where}: the server seed does not match the hash shown before the roll "
                f"(SHA-256 of the seed is {actual}, the record says "
                f"{record.get('server_seed_hash')}): the seed was altered",
            ),
        )
    problems = [
        problem
        for index, data in enumerate(record.get("draws", []))
        if (problem := _check_draw(seed, record, index, data))
    ]
    return Verdict(nonce, purpose, "failed" if problems else "ok", tuple(problems))


def _check_draw(seed: bytes, record: Mapping[str, Any], index: int, data: Any) -> str | None:
    where = f"roll nonce {record['nonce']} ({record['purpose']}), draw {index}"
    try:
        draw = Draw.from_dict(data)
        stream = words(
            seed,
            check_client_seed(str(record["client_seed"])),
            record["nonce"],
            draw_purpose(check_purpose(record["purpose"]), index),
        )
        if len(draw.options) != len(draw.weights):
            return f"{where}: {len(draw.options)} options but {len(draw.weights)} weights"
        expected = draw.options[weighted_index(stream, draw.weights)]
    except (KeyError, TypeError, ValueError) as exc:
        return f"{where}: malformed ({exc})"
    if expected != draw.outcome:
        return (
            f"{where} ({draw.key}): the seeds give {expected!r} but the record says "
            f"{draw.outcome!r}: its outcome, nonce or client seed was altered"
        )
    return None


def verify_history(records: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """Every roll checked, plus the history's own consistency: a nonce is used once under
    a server seed (a repeated one would replay a known outcome)."""
    verdicts = [verify_roll(record) for record in records]
    seen: dict[tuple[Any, Any], int] = {}
    for position, record in enumerate(records):
        key = (record.get("server_seed_hash"), record.get("nonce"))
        if key in seen:
            verdict = verdicts[position]
            verdicts[position] = Verdict(
                verdict.nonce,
                verdict.purpose,
                "failed",
                (
                    *verdict.problems,
                    f"roll nonce {record.get('nonce')} ({record.get('purpose')}): the nonce "
                    "was already used under this server seed (rolls "
                    f"{seen[key] + 1} and {position + 1} of the history)",
                ),
            )
        else:
            seen[key] = position
    return verdicts


# -- match seeds: committed at the start, revealed at the end ---------------------------

SALT_BYTES = 32  # a match seed's salt: 256 random bits, so the commitment cannot be searched


def match_commitment(seed: int, salt: str) -> str:
    """The commitment a match shows from its first answer: SHA-256 of the ASCII text
    ``"{seed}:{salt}"`` (the seed in decimal, the salt as 64 lowercase hex digits), in hex."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


class MatchRules(Protocol):
    """What replaying one game's exported match needs: its engine, its CPU policy (the
    CPU's logged actions must be the ones it takes) and how its exported setup loads."""

    @property
    def engine(self) -> Engine[Any, Any, Any]: ...

    @property
    def cpu(self) -> CpuPolicy[Any, Any] | None: ...

    def load_setup(self, setup: Mapping[str, Any]) -> tuple[Any, Mapping[str, Any]]:
        """The settings and what each seat brought, in seat order."""
        ...


@plain
@dataclass(frozen=True)
class MatchVerdict:
    """One exported match checked: ``ok`` (its seed matches the commitment and, where the
    game offers it, the replay gives the logged match), ``pending`` (not over: the seed is
    still secret) or ``failed``; ``replayed`` says whether it was replayed."""

    match_id: str
    status: str
    problems: tuple[str, ...] = ()
    replayed: bool = False


def verify_match(document: Mapping[str, Any], games: Mapping[str, MatchRules]) -> MatchVerdict:
    """Check an exported match history (docs/fairness.md, "Match seeds"): the revealed seed
    and salt against the commitment, then the match replayed from its seed, setup and
    action log with the game's pure engine."""
    match_id = str(document.get("match_id"))
    seed_part = document.get("fairness")
    if not isinstance(seed_part, Mapping) or not seed_part.get("commitment"):
        return MatchVerdict(match_id, "failed", (f"match {match_id}: no seed commitment",))
    if seed_part.get("seed") is None or seed_part.get("salt") is None:
        return MatchVerdict(match_id, "pending")
    try:
        seed = int(str(seed_part["seed"]))
    except ValueError:
        return MatchVerdict(match_id, "failed", (f"match {match_id}: the seed is not an integer",))
    actual = match_commitment(seed, str(seed_part["salt"]))
    if actual != seed_part["commitment"]:
        problem = (
            f"match {match_id}: the revealed seed and salt give the commitment {actual}, "
            f"not {seed_part['commitment']} shown from the first move: the seed was altered"
        )
        return MatchVerdict(match_id, "failed", (problem,))
    replay = document.get("replay")
    if replay is None:  # a game whose setup stays secret (docs/fairness.md)
        return MatchVerdict(match_id, "ok")
    problems = _replay_problems(match_id, seed, replay, games)
    return MatchVerdict(match_id, "failed" if problems else "ok", tuple(problems), True)


def _replay_problems(
    match_id: str, seed: int, replay: Mapping[str, Any], games: Mapping[str, MatchRules]
) -> list[str]:
    where = f"match {match_id}"
    rules = games.get(str(replay.get("game")))
    if rules is None:
        return [f"{where}: no verifier knows the game {replay.get('game')!r}"]
    engine = rules.engine
    try:
        settings, brings = rules.load_setup(replay["setup"])
        started = datetime.fromisoformat(str(replay["started_at"]))
        cpu_seats = {str(s["seat"]) for s in replay["seats"] if s["kind"] == "cpu"}
        state = engine.new_match(settings, brings, seed, started)
        log = list(replay["log"])
    except (KeyError, TypeError, ValueError, Refusal) as exc:
        return [f"{where}: the setup cannot be read ({exc})"]
    for entry in log:
        try:
            state, problem = _replayed_entry(rules, state, entry, cpu_seats)
        except (KeyError, TypeError, ValueError) as exc:
            return [f"{where}, log entry {entry!r}: malformed ({exc})"]
        if problem:
            return [f"{where}, {problem}"]
    results = engine.results(state)
    logged = replay.get("results")
    if results != logged:
        return [
            f"{where}: replaying the seed and the log gives the results {results}, but the "
            f"record says {logged}: the outcome or the log was altered"
        ]
    return []


def _replayed_entry(
    rules: MatchRules, state: Any, entry: Mapping[str, Any], cpu_seats: set[str]
) -> tuple[Any, str | None]:
    engine = rules.engine
    seq, seat = int(entry["seq"]), str(entry["seat"])
    where = f"log entry {seq} ({seat})"
    action = engine.action_from_json(entry["action"])
    logged = engine.action_to_json(action)
    if seat in cpu_seats and rules.cpu is not None:
        allowed = [engine.action_to_json(a) for s, a in engine.timeouts(state) if s == seat]
        chosen = rules.cpu(state, seat)
        if chosen is not None:
            allowed.append(engine.action_to_json(chosen))
        if logged not in allowed:
            return state, (
                f"{where}: the CPU's logged action {logged} is not the one its policy takes "
                f"here ({allowed}): the log was altered"
            )
    try:
        state, _ = engine.apply(state, seat, action, datetime.fromisoformat(str(entry["at"])))
    except Refusal as refusal:
        return state, f"{where}: the rules refuse {logged}: {refusal.message}"
    if engine.version(state) != seq:
        return state, f"{where}: it makes version {engine.version(state)}, not {seq}"
    return state, None

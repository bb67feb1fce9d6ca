"""Bad input through the gateway: what a fuzzer will not think of, and its findings.

Every service and the gateway run for real (one platform for the module). Each
case says what must happen: a clear 4xx problem, or the value stored verbatim -
never a 500, never a change to another row. The fuzzer's findings are at the end
(``test_fuzz_finding_*``), each a plain request that reproduced it.
"""

from __future__ import annotations

import json
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import eventlet
import pytest

from deckyard.api_client import ApiClient
from gateway.app import Gateway
from gateway.openapi import build_spec
from services.accounts.deletion import CONFIRMATION_PHRASE
from shared.config import SERVICE_NAMES
from tests.auth0_standin import Auth0StandIn
from tests.conftest import http_port
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.platform.test_fuzz_api import NO_RATE_LIMITS, FuzzPlatform, seed_catalogue
from tests.helpers import wait_for
from tests.integration.authoring.test_lifecycle import question_body
from tests.random_refs import random_sub, random_suffix

pytestmark = pytest.mark.e2e

MB = 1024 * 1024
ROOMY_BODY_BYTES = MB


@pytest.fixture(scope="module")
def platform(settings, tmp_path_factory):
    """Every service (accounts on the Auth0 stand-in: a test deletes its account) and two
    gateways: one as configured (serving a web client of its own, whether or not web/ is
    built), one with a body limit big enough to nest 100,000 levels."""
    web_root = tmp_path_factory.mktemp("web")
    (web_root / "index.html").write_text("<!doctype html><title>Deckyard</title>")
    platform = FuzzPlatform(settings)
    with Auth0StandIn() as auth0:
        try:
            for name in SERVICE_NAMES:
                override = auth0.settings(settings) if name == "accounts" else None
                platform.start(name, settings_override=override)
            gateway = platform.start(
                "gateway",
                MAX_BODY_BYTES=settings.max_body_bytes,
                WEB_ROOT=str(web_root),
                **NO_RATE_LIMITS,
            )
            roomy = platform.start(
                "gateway", key="roomy", MAX_BODY_BYTES=ROOMY_BODY_BYTES, **NO_RATE_LIMITS
            )
            yield {
                "api": ApiClient(f"http://127.0.0.1:{http_port(gateway)}", settings),
                "roomy": ApiClient(f"http://127.0.0.1:{http_port(roomy)}", settings),
                "gateway": gateway,
            }
        finally:
            platform.kill()


@pytest.fixture(scope="module")
def api(platform):
    return platform["api"]


@pytest.fixture(scope="module")
def roomy(platform):
    return platform["roomy"]


@pytest.fixture(scope="module")
def catalogue(api):
    seed_catalogue(api)
    return wait_for(lambda: _catalogue_with(api, "Quillip", "Field Kit"), timeout=30)


def _catalogue_with(api: ApiClient, *names: str) -> list[dict[str, Any]] | None:
    listed = api.get("/cards/catalogue?game=quest").json()["items"]
    return listed if {d["name"] for d in listed} >= set(names) else None


class Caller:
    def __init__(self, api: ApiClient, roles: tuple[str, ...] = ()) -> None:
        self.api = api
        self.sub = random_sub("author" if roles else "player")
        self.roles = roles

    @property
    def token(self) -> str:
        return str(self.api.token(self.sub, roles=self.roles))

    def call(self, method: str, path: str, headers: dict[str, str] | None = None, **kwargs: Any):
        headers = {**(headers or {}), "Authorization": f"Bearer {self.token}"}
        return self.api.request(method, path, headers=headers, **kwargs)

    def raw(self, method: str, path: str, data: Any, **headers: str):
        """A body sent as the bytes given, declared as JSON."""
        headers = {"Content-Type": "application/json", **headers}
        return self.call(method, path, headers=headers, data=data)


@pytest.fixture
def player(api):
    return Caller(api)


@pytest.fixture
def author(api):
    return Caller(api, roles=("author",))


@pytest.fixture
def deck_owner(api, catalogue):
    """A player with a starter and a legal deck of it."""
    owner = Caller(api)
    grant = owner.call("POST", "/quest/starter", json={"affinity": "Wit"})
    assert grant.status_code == 201, grant.text
    owner.copies = [card["id"] for card in grant.json()["cards"]]
    created = owner.call("POST", "/quest/decks", json={"name": "Sentinel", "cards": owner.copies})
    assert created.status_code == 201, created.text
    owner.deck = created.json()
    return owner


def assert_refused(response, *statuses: int) -> dict[str, Any]:
    """A 4xx problem (one of ``statuses`` when given): never a 5xx, never a success."""
    assert response.status_code < 500, response.text
    assert 400 <= response.status_code < 500, response.text
    if statuses:
        assert response.status_code in statuses, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["status"] == response.status_code
    return body


# -- sizes --------------------------------------------------------------------------------


class LazyZeros:
    """A body of ``size`` bytes made as it is read, so the test never holds it either."""

    def __init__(self, size: int) -> None:
        self.left = size

    def __len__(self) -> int:
        return self.left

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        return b" " * n


def raw_exchange(api: ApiClient, head: bytes, chunks=(), timeout: float = 10.0):
    """Send ``head`` then ``chunks`` on one connection while reading the answer; stop
    sending as soon as the answer has come. Returns (status, body, bytes of body sent)."""
    port = int(api.base_url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    received = bytearray()

    def read_answer() -> None:
        try:
            while chunk := sock.recv(65536):
                received.extend(chunk)
        except OSError:
            pass

    reader = eventlet.spawn(read_answer)
    sent = 0
    try:
        sock.sendall(head)
        for chunk in chunks:
            eventlet.sleep(0)
            if received:
                break
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:  # the gateway closed the connection: it has answered
        pass
    with eventlet.Timeout(timeout):
        while b"\r\n\r\n" not in received and not reader.dead:
            eventlet.sleep(0.01)
    sock.close()
    reader.kill()
    status_line, _, rest = bytes(received).partition(b"\r\n")
    _, _, body = rest.partition(b"\r\n\r\n")
    return int(status_line.split()[1]), body, sent


def test_a_10_mb_body_is_refused_from_its_content_length_before_it_is_sent(api, player):
    head = (
        f"POST /quest/decks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {player.token}\r\nContent-Length: {10 * MB}\r\n\r\n"
    ).encode()

    started = time.monotonic()
    status, body, sent = raw_exchange(api, head)

    assert status == 413
    assert json.loads(body)["code"] == "payload_too_large"
    assert sent == 0
    assert time.monotonic() - started < 2


def resident_bytes(pid: int) -> int:
    """A process's resident memory (Linux /proc), to see what the gateway holds."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_a_10_mb_body_sent_whole_is_413_and_never_held_in_memory(platform, api, player):
    gateway = platform["gateway"].process.pid
    before = resident_bytes(gateway)

    response = player.raw("POST", "/quest/decks", LazyZeros(10 * MB))

    assert_problem(response, 413, "payload_too_large")
    assert resident_bytes(gateway) - before < 4 * MB  # the 10 MB were never buffered


def test_a_10_mb_chunked_body_without_a_length_is_cut_off_at_the_limit(platform, api, player):
    head = (
        f"PUT /quest/decks/{uuid.uuid4()} HTTP/1.1\r\nHost: x\r\n"
        f"Content-Type: application/json\r\nAuthorization: Bearer {player.token}\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    piece = b" " * 65536
    chunks = (b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(160))  # 10 MB

    before = resident_bytes(platform["gateway"].process.pid)

    status, _, sent = raw_exchange(api, head, chunks)

    assert status == 413
    # Refused at the limit: what the client could still push went into the kernel's
    # socket buffers between the two processes (a few MB on loopback), never the gateway.
    assert sent < 10 * MB
    assert resident_bytes(platform["gateway"].process.pid) - before < 4 * MB


def test_a_chunked_body_within_the_limit_is_read_not_ignored(api, player):
    """Without a length werkzeug read a chunked body as empty: 422 "the body must be a JSON
    object" for a perfectly good body."""
    body = json.dumps({"affinity": "Mystic"}).encode()
    head = (
        "POST /quest/starter HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {player.token}\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunks = [b"%x\r\n%s\r\n" % (len(body), body), b"0\r\n\r\n"]

    status, answer, _ = raw_exchange(api, head, chunks)

    assert status == 422
    assert b"starter_affinity_not_offered" in answer


def test_a_malformed_chunked_body_is_400(api, player):
    head = (
        "POST /quest/starter HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {player.token}\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()

    status, answer, _ = raw_exchange(api, head, [b"zz\r\n{}\r\n0\r\n\r\n"])

    assert status == 400
    assert b"malformed_request" in answer


# -- structure ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "opening, closing",
    [("[", "]"), ('{"a":', "}")],
    ids=["arrays", "objects"],
)
def test_100000_levels_of_nesting_are_400_not_500(roomy, opening, closing):
    author = Caller(roomy, roles=("author",))
    body = opening * 100_000 + "1" + closing * 100_000
    assert len(body) < ROOMY_BODY_BYTES

    response = author.raw("POST", "/authoring/content", body.encode())

    assert_problem(response, 400, "malformed_json")


def test_nesting_within_the_default_body_limit_is_400(api, player):
    body = "[" * 30_000 + "]" * 30_000

    assert_problem(player.raw("POST", "/quest/decks", body.encode()), 400, "malformed_json")


@pytest.mark.parametrize("depth", [50, 500, 990, 995, 999, 5000])
def test_deep_but_parseable_nesting_inside_free_form_fields_is_refused_or_kept(author, depth):
    nested: Any = "x"
    for _ in range(depth):
        nested = [nested]
    body = {
        "kind": "power_card",
        "game": "quest",
        "body": {"name": f"Deep {random_suffix()}", "rarity": "Common", "effects": [{"a": nested}]},
    }
    text = json.dumps(body) if depth < 900 else _dumps_deep(body, nested)

    response = author.raw("POST", "/authoring/content", text.encode())

    assert response.status_code < 500, response.text
    assert response.status_code in (400, 422), response.text


def _dumps_deep(body: dict[str, Any], nested: Any) -> str:
    depth = 0
    while isinstance(nested, list):
        nested, depth = nested[0], depth + 1
    marker = '"__nested__"'
    body["body"]["effects"] = [{"a": "__nested__"}]
    return json.dumps(body).replace(marker, "[" * depth + json.dumps(nested) + "]" * depth)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"name": "\xff\xfe", "cards": []}',
        b'{"name": "\xc3\x28", "cards": []}',  # a broken two-byte sequence
        b'{"name": "\xed\xa0\x80", "cards": []}',  # a UTF-8-encoded surrogate
        b'{"name": "caf\xe9", "cards": []}',  # Latin-1, not UTF-8
        b'\xef\xbb\xbf{"name": "bom", "cards": []}',  # a byte order mark
    ],
    ids=["ff-fe", "broken-pair", "encoded-surrogate", "latin-1", "bom"],
)
def test_invalid_utf_8_in_a_json_body_is_400(player, raw):
    assert_problem(player.raw("POST", "/quest/decks", raw), 400, "malformed_json")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_literals_are_not_json(deck_owner, literal):
    path = f"/quest/decks/{deck_owner.deck['id']}"
    raw = f'{{"expectedVersion": {literal}, "name": "x"}}'.encode()

    assert_problem(deck_owner.raw("PUT", path, raw), 400, "malformed_json")


def test_a_number_too_big_for_a_float_is_refused_not_infinity(deck_owner):
    path = f"/quest/decks/{deck_owner.deck['id']}"
    raw = b'{"expectedVersion": 1e400, "name": "x"}'

    assert_problem(deck_owner.raw("PUT", path, raw), 422, "validation_failed")
    assert deck_owner.call("GET", path).json()["name"] == "Sentinel"


# -- types and ranges ---------------------------------------------------------------------

NOT_AN_INTEGER = ["1", "0x1", "1.0", 1.0, 1.5, True, None, [1], {"n": 1}]


@pytest.mark.parametrize("value", NOT_AN_INTEGER, ids=repr)
def test_expected_version_must_be_a_json_integer(deck_owner, author, value):
    deck = f"/quest/decks/{deck_owner.deck['id']}"
    draft = _draft(author)
    content = f"/authoring/content/{draft['id']}"

    for caller, method, path, body in (
        (deck_owner, "PUT", deck, {"expectedVersion": value, "name": "x"}),
        (author, "PUT", content, {"expectedVersion": value, "body": {"title": "x"}}),
        (author, "POST", content + "/transitions", {"to": "in_review", "expectedVersion": value}),
    ):
        assert_problem(caller.call(method, path, json=body), 422, "validation_failed")
    assert deck_owner.call("GET", deck).json()["version"] == 1
    assert author.call("GET", content).json()["version"] == 1


@pytest.mark.parametrize("value", NOT_AN_INTEGER, ids=repr)
def test_battle_integers_must_be_json_integers(api, value):
    caller = Caller(api)
    match = f"/quest/battles/{uuid.uuid4()}"
    for path, body in (
        (match + "/actions", {"expectedVersion": value, "action": {"kind": "forfeit"}}),
        (
            match + "/actions",
            {"expectedVersion": 1, "action": {"kind": "use_move", "index": value}},
        ),
        (match + "/forfeit", {"expectedVersion": value}),
    ):
        if value is None and "index" in json.dumps(body):
            continue  # index is optional: null is "no index"
        assert_problem(caller.call("POST", path, json=body), 422, "validation_failed")


@pytest.mark.parametrize("value", [0, -1, 2**31, 2**63, 2**64, 10**30])
def test_out_of_range_expected_versions_are_422_or_409_and_change_nothing(
    deck_owner, author, value
):
    deck = f"/quest/decks/{deck_owner.deck['id']}"
    draft = _draft(author)
    content = f"/authoring/content/{draft['id']}"

    for caller, method, path, body in (
        (deck_owner, "PUT", deck, {"expectedVersion": value, "name": "x"}),
        (author, "PUT", content, {"expectedVersion": value, "body": {"title": "x"}}),
        (author, "POST", content + "/transitions", {"to": "in_review", "expectedVersion": value}),
    ):
        assert_refused(caller.call(method, path, json=body), 409, 422)
    assert_refused(deck_owner.call("DELETE", f"{deck}?expectedVersion={value}"), 409, 422)
    assert deck_owner.call("GET", deck).json()["version"] == 1
    assert author.call("GET", content).json()["version"] == 1


@pytest.mark.parametrize("value", [-1, 2**31, 2**63, 10**30])
def test_out_of_range_battle_versions_are_422(api, value):
    caller = Caller(api)
    match = f"/quest/battles/{uuid.uuid4()}"
    for path, body in (
        (match + "/actions", {"expectedVersion": value, "action": {"kind": "forfeit"}}),
        (match + "/forfeit", {"expectedVersion": value}),
    ):
        assert_problem(caller.call("POST", path, json=body), 422, "validation_failed")


@pytest.mark.parametrize("index", [-1, 2**31, 2**63, 10**30])
def test_a_battle_action_index_out_of_range_is_refused(api, index):
    caller = Caller(api)
    body = {"expectedVersion": 1, "action": {"kind": "use_move", "index": index}}

    response = caller.call("POST", f"/quest/battles/{uuid.uuid4()}/actions", json=body)

    assert_refused(response, 404, 422)


@pytest.mark.parametrize(
    "path",
    [
        "/quest/attempts/{attempt}/answers/-1",
        "/quest/attempts/{attempt}/answers/1.5",
        "/quest/attempts/{attempt}/answers/0x1",
        "/quest/attempts/not-a-uuid/answers/0",
        "/quest/attempts/{attempt}/answers/" + str(10**30),
        "/quest/attempts/{attempt}/answers/" + str(2**63),
        "/quest/attempts/{attempt}/answers/" + "9" * 5000,
    ],
    ids=["minus-one", "fraction", "hex", "not-a-uuid", "ten-to-the-30", "two-to-the-63", "huge"],
)
def test_answer_indexes_out_of_range_are_404_or_422(api, path):
    caller = Caller(api)
    response = caller.call("PUT", path.format(attempt=uuid.uuid4()), json={"choice": "o1a2b3c4d"})

    assert_refused(response, 404, 414, 422)


@pytest.mark.parametrize(
    "query",
    [
        "lat=1e400&lon=0",
        "lat=NaN&lon=0",
        "lat=-Infinity&lon=0",
        "lat=91&lon=0",
        "lat=0&lon=" + "9" * 400,
        "lat=0",
    ],
)
def test_nearby_events_refuse_points_that_are_not_points(api, query):
    assert_problem(api.get(f"/quest/events?{query}"), 422, "validation_failed")


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=-1", "limit=10000000000000000000000", "limit=1e3"]
)
def test_list_limits_out_of_range_are_422(player, author, query):
    assert_problem(player.call("GET", f"/me/progression?{query}"), 422, "validation_failed")
    assert_problem(author.call("GET", f"/authoring/content?{query}"), 422, "validation_failed")


@pytest.mark.parametrize(
    "field, value",
    [("lat", "51.5"), ("lon", " -0.12 "), ("accuracyM", "5"), ("accuracyM", True)],
)
def test_a_location_claim_needs_json_numbers_not_strings(player, field, value):
    """marshmallow's Float read "51.5" as 51.5: the body was accepted against its document
    (the event is unknown here, so an accepted claim would be a 404)."""
    claim = {"lat": 51.5, "lon": -0.12, "accuracyM": 5, "acquiredAt": "2030-01-01T00:00:00Z"}
    body = {"location": {**claim, field: value}}

    response = player.call("POST", f"/quest/events/{uuid.uuid4()}/attempt", json=body)

    refused = assert_problem(response, 422, "validation_failed")
    assert refused["fields"] == {"location": {field: ["Not a valid number."]}}


# -- unicode look-alike card names ------------------------------------------------------


def _card(name: str) -> dict[str, Any]:
    return {
        "kind": "power_card",
        "game": "quest",
        "body": {"name": name, "rarity": "Common", "effects": []},
    }


LOOK_ALIKES = {
    "cyrillic-i": "Qu\u0456llip",  # CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
    "greek-iota": "Qu\u03b9llip",  # GREEK SMALL LETTER IOTA
    "full-width": "\uff31\uff55\uff49\uff4c\uff4c\uff49\uff50",  # FULLWIDTH LATIN LETTERS
    "zero-width-joiner": "Quil\u200dlip",
    "zero-width-space": "Qu\u200billip",
    "soft-hyphen": "Quil\u00adlip",
    "upper-case": "QUILLIP",
    "spaces": "  Quillip \u3000",
    "dotless-i": "Qu\u0131llip",  # LATIN SMALL LETTER DOTLESS I
    "mathematical-bold": "\U0001d410\U0001d42e\U0001d422\U0001d425\U0001d425\U0001d422\U0001d429",
}


@pytest.mark.parametrize("name", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_a_look_alike_of_a_card_name_is_the_same_name(author, catalogue, name):
    assert_problem(
        author.call("POST", "/authoring/content", json=_card(name)), 409, "duplicate_name"
    )


def test_composed_and_decomposed_accents_and_ligatures_are_one_name(author):
    suffix = random_suffix()
    first = author.call("POST", "/authoring/content", json=_card(f"Caf\u00e9 \ufb01nch {suffix}"))
    assert first.status_code == 201, first.text

    for same in (f"Cafe\u0301 finch {suffix}", f"CAFÉ  FINCH {suffix}"):
        response = author.call("POST", "/authoring/content", json=_card(same))
        assert_problem(response, 409, "duplicate_name")
    unaccented = author.call("POST", "/authoring/content", json=_card(f"Cafe finch {suffix}"))
    assert unaccented.status_code == 201, unaccented.text  # an accent is a different letter


def test_a_look_alike_cannot_be_edited_in_either(author, catalogue):
    draft = author.call("POST", "/authoring/content", json=_card(f"Harmless {random_suffix()}"))
    assert draft.status_code == 201, draft.text

    renamed = author.call(
        "PUT",
        f"/authoring/content/{draft.json()['id']}",
        json={"expectedVersion": 1, "body": _card(LOOK_ALIKES["cyrillic-i"])["body"]},
    )

    assert_problem(renamed, 409, "duplicate_name")


def test_names_that_only_look_different_stay_different(author, catalogue):
    for name in (f"Quillip {random_suffix()}", f"Quilllip{random_suffix()}"):
        response = author.call("POST", "/authoring/content", json=_card(name))
        assert response.status_code == 201, response.text
        assert response.json()["body"]["name"] == name  # stored as written


@pytest.mark.parametrize(
    "name",
    ["\u200b\u200d", "\u00ad", "\x07Quill", "Qu\x1bill", "\ufb03" * 80, "\u00df" * 80],
    ids=["only-invisible", "only-soft-hyphen", "bell", "escape", "ligatures-expand", "sharp-s"],
)
def test_card_names_that_normalise_to_nothing_or_too_much_are_422(author, name):
    assert_problem(
        author.call("POST", "/authoring/content", json=_card(name)), 422, "invalid_content"
    )


# -- injection strings in every free-text field -------------------------------------------

INJECTIONS = [
    "'; DROP TABLE decks; --",
    "Robert'); DROP TABLE content;--",
    "' OR '1'='1",
    '" OR ""="',
    "1; SELECT pg_sleep(5); --",
    "'||(SELECT current_user)||'",
    "%s %(name)s {0} $1 :name ?",
    "\\'; \\\" \\\\ \\u0000",
    '{"$gt": ""}',
    '"}, "state": "published", "x": {"',
    "</script><script>alert(1)</script>",
    "\u202eevil\u202c",
    "../../../../etc/passwd",
    "${jndi:ldap://127.0.0.1/a}",
]
UNSTORABLE = ["nul \x00 inside", "lone \ud800 surrogate"]


def _draft(author: Caller, kind: str = "challenge", body: dict[str, Any] | None = None):
    created = author.call(
        "POST",
        "/authoring/content",
        json={"kind": kind, "game": "quest", "body": body or {"title": "Draft"}},
    )
    assert created.status_code == 201, created.text
    return created.json()


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_strings_in_deck_names_are_stored_verbatim_or_refused(api, deck_owner, text):
    bystander = Caller(api)
    name = text[:30]
    before = deck_owner.call("GET", "/quest/decks").json()["items"]

    created = deck_owner.call(
        "POST", "/quest/decks", json={"name": name, "cards": deck_owner.copies}
    )
    renamed = deck_owner.call(
        "PUT",
        f"/quest/decks/{deck_owner.deck['id']}",
        json={"expectedVersion": 1, "name": name + " (renamed)"},
    )

    decks = {d["id"]: d for d in deck_owner.call("GET", "/quest/decks").json()["items"]}
    if created.status_code == 201:
        assert renamed.status_code == 200, renamed.text
        assert decks[created.json()["id"]]["name"] == name
        assert decks[deck_owner.deck["id"]]["name"] == name + " (renamed)"
        assert len(decks) == len(before) + 1
    else:  # refused cleanly, saying why (control characters such as U+202E)
        assert_problem(created, 422, "deck_name_invalid")
        assert_problem(renamed, 422, "deck_name_invalid")
        assert list(decks.values()) == before
    assert bystander.call("GET", "/quest/decks").json()["items"] == []


def _text_bodies(text: str) -> list[tuple[str, dict[str, Any]]]:
    """One body per kind, ``text`` in each of its free-text fields."""
    return [
        (
            "question",
            {
                **question_body(),
                "prompt": text,
                "topic": text[:80],
                "explanation": text,
                "choices": [{"text": text, "correct": True}]
                + [{"text": f"{text} {n}"} for n in range(3)],
            },
        ),
        (
            "ordering_question",
            {"prompt": text, "topic": text[:80], "items": [text], "explanation": text},
        ),
        ("challenge", {"title": text[:80]}),
        (
            "event",
            {
                "name": text[:80],
                "description": text,
                "location": {"lat": 1, "lon": 1},
                "radiusM": 100,
                "startsAt": "2030-01-01T00:00:00+00:00",
                "endsAt": "2030-01-02T00:00:00+00:00",
            },
        ),
        (
            "creature",
            {
                "name": f"{text[:60]} {random_suffix()}",
                "rarity": "Common",
                "affinity": "Wit",
                "hp": 50,
                "maxPower": 5,
                "flavor": text,
                "moves": [{"name": text[:80], "type": "Basic", "powerCost": 0}],
            },
        ),
        (
            "power_card",
            {"name": f"{text[:60]} {random_suffix()}", "rarity": "Common", "flavor": text},
        ),
        ("campaign", {"name": text[:80]}),
    ]


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_strings_in_content_bodies_are_stored_verbatim(author, text):
    sentinel = _draft(author, body={"title": "Sentinel"})
    for kind, body in _text_bodies(text):
        created = author.call(
            "POST", "/authoring/content", json={"kind": kind, "game": "quest", "body": body}
        )
        assert created.status_code == 201, (kind, created.text)
        read = author.call("GET", f"/authoring/content/{created.json()['id']}").json()
        for field, value in body.items():
            assert read["body"][field] == value or field in ("choices", "moves"), (kind, field)
        edited = author.call(
            "PUT",
            f"/authoring/content/{read['id']}",
            json={"expectedVersion": 1, "body": body},
        )
        assert edited.status_code == 200, (kind, edited.text)
    assert author.call("GET", f"/authoring/content/{sentinel['id']}").json() == sentinel


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_strings_as_reasons_and_filters_are_kept_or_refused(author, text):
    draft = _draft(author, "question", question_body())
    path = f"/authoring/content/{draft['id']}"

    submitted = author.call(
        "POST",
        path + "/transitions",
        json={"to": "in_review", "expectedVersion": 1, "reason": text},
    )
    assert submitted.status_code == 200, submitted.text
    assert author.call("GET", path + "/audit").json()["items"][-1]["reason"] == text

    listed = author.call("GET", "/authoring/content", params={"kind": text[:40]})
    assert listed.status_code == 200, listed.text
    assert listed.json() == {"items": [], "next": None}
    state = author.call("GET", "/authoring/content", params={"state": text})
    assert_problem(state, 422, "validation_failed")
    game = author.call("GET", "/cards/catalogue", params={"game": text})
    assert_problem(game, 422, "validation_failed")


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_strings_in_player_fields_are_refused_cleanly(api, text):
    caller = Caller(api)
    match = f"/quest/battles/{uuid.uuid4()}"
    for method, path, body, headers in (
        ("POST", "/quest/starter", {"affinity": text[:20]}, {}),
        ("PUT", f"/quest/attempts/{uuid.uuid4()}/answers/0", {"choice": text[:40]}, {}),
        ("PUT", f"/quest/attempts/{uuid.uuid4()}/answers/0", {"order": [text[:40]]}, {}),
        ("POST", match + "/actions", {"expectedVersion": 1, "action": {"kind": text[:40]}}, {}),
        ("POST", match + "/forfeit", {"expectedVersion": 1, "idempotencyKey": text}, {}),
        ("POST", match + "/forfeit", {"expectedVersion": 1}, {"Idempotency-Key": text.encode()}),
        ("POST", "/quest/battles", {"deckId": text}, {}),
    ):
        response = caller.call(method, path, json=body, headers=headers)
        assert_refused(response)
    assert caller.call("GET", "/me").json()["status"] == "active"


def test_an_injection_string_as_the_deletion_confirmation_deletes_nothing(api):
    caller = Caller(api)
    for text in INJECTIONS:
        assert_refused(caller.call("DELETE", "/me", json={"confirm": text}), 422)
    assert caller.call("GET", "/me").json()["status"] == "active"
    confirmed = caller.call("DELETE", "/me", json={"confirm": CONFIRMATION_PHRASE})
    assert confirmed.status_code == 202, confirmed.text


@pytest.mark.parametrize("text", UNSTORABLE, ids=["nul", "lone-surrogate"])
def test_text_postgresql_cannot_store_is_refused_not_500(deck_owner, author, text):
    escaped = json.dumps(text).encode()  # "\u0000" / "\ud800": valid JSON escapes
    deck = f"/quest/decks/{deck_owner.deck['id']}"
    cards = json.dumps(deck_owner.copies).encode()
    draft = _draft(author)
    content = f"/authoring/content/{draft['id']}"

    for caller, method, path, raw in (
        (deck_owner, "POST", "/quest/decks", b'{"name": %s, "cards": %s}' % (escaped, cards)),
        (deck_owner, "PUT", deck, b'{"expectedVersion": 1, "name": %s}' % escaped),
        (author, "PUT", content, b'{"expectedVersion": 1, "body": {"title": %s}}' % escaped),
        (
            author,
            "POST",
            "/authoring/content",
            b'{"kind": "question", "game": "quest", "body": {"prompt": %s}}' % escaped,
        ),
        (
            author,
            "POST",
            "/authoring/content",
            b'{"kind": "power_card", "game": "quest", "body": {"name": %s, "rarity": "Common"}}'
            % escaped,
        ),
        (
            deck_owner,
            "POST",
            "/quest/starter",
            b'{"affinity": "Wit", %s: 1}' % escaped,  # in a key too
        ),
        (
            author,
            "POST",
            content + "/transitions",
            b'{"to": "in_review", "expectedVersion": 1, "reason": %s}' % escaped,
        ),
    ):
        assert_problem(caller.raw(method, path, raw), 422, "invalid_text")
    assert deck_owner.call("GET", deck).json()["version"] == 1
    assert author.call("GET", content).json()["version"] == 1


def test_a_nul_in_a_query_is_refused_not_500(api, author, player):
    for caller, query in (
        (author, "/authoring/content?kind=%00"),
        (author, "/authoring/content?kind=a%00b"),
        (author, "/authoring/content?%00=1"),
        (author, "/authoring/content?state=draft%00"),
        (player, "/me/progression?limit=1%00"),
        (player, "/quest/events?lat=%00&lon=0"),
        (player, "/cards/catalogue?game=quest%00"),
        (player, f"/quest/decks/{uuid.uuid4()}?expectedVersion=%00"),
    ):
        response = caller.call("DELETE" if "decks" in query else "GET", query)
        assert_problem(response, 422, "invalid_text")


def test_invalid_utf_8_in_a_query_is_read_as_replacement_characters(author):
    for query in ("kind=%ED%A0%80", "kind=%FF%FE", "kind=%C3%28"):
        response = author.call("GET", f"/authoring/content?{query}")
        assert response.status_code == 200, response.text
        assert response.json() == {"items": [], "next": None}


# -- cursors and paths the parsers did not expect (issue 29) ---------------------------------

# The lists paged by a ``seq`` (services/cards/pages.py) and by a keyset (shared/pages.py).
HISTORY_LISTS = [
    "/v1/chronovore/wallet/history",
    "/v1/terrakard/wallet/history",
    "/v1/me/fairness/rolls",
    "/v1/me/fairness/export",
]
KEYSET_LISTS = [
    "/v1/quest/attempts",
    "/v1/quest/battles",
    "/v1/quest/pvp-matches",
    "/v1/quest/invitations",
    "/v1/chronovore/invitations",
    "/v1/chronovore/matches",
    "/v1/terrakard/attacks",
    "/v1/terrakard/defense-reports",
    "/v1/authoring/content",
]
HEX = "0f3c" * 8


@pytest.mark.parametrize(
    "cursor",
    [str(2**63), "9" * 19, str(2**64), "-1", "-" + "9" * 19, "\u0661\u0662\u0663", "\u00b2"],
    ids=["bigint-plus-one", "nineteen-nines", "two-to-the-64", "minus-one", "huge-negative",
         "arabic-indic-digits", "superscript-two"],
)  # fmt: skip
def test_a_history_cursor_past_a_bigint_or_in_other_digits_is_invalid_cursor(author, cursor):
    """Past a bigint the query failed (NumericValueOutOfRange, a 500); other scripts'
    digits read as ASCII ones, a superscript a 500."""
    before = [author.call("GET", path).json() for path in HISTORY_LISTS]

    for path in HISTORY_LISTS:
        assert_problem(author.call("GET", path, params={"cursor": cursor}), 422, "invalid_cursor")

    assert [author.call("GET", path).json() for path in HISTORY_LISTS] == before


@pytest.mark.parametrize(
    "cursor",
    ["\u0661\u0662\u0663-" + HEX, "\uff11-" + HEX, "1\u0969-" + HEX, "\u00b2-" + HEX],
    ids=["arabic-indic", "full-width", "devanagari", "superscript"],
)
def test_a_keyset_cursor_in_other_digits_is_invalid_cursor(author, cursor):
    """``\\d`` took any script's digits: every keyset list answered 200 and an empty page."""
    for path in KEYSET_LISTS:
        assert_problem(author.call("GET", path, params={"cursor": cursor}), 422, "invalid_cursor")


@pytest.mark.parametrize(
    "where, raw",
    [("lastId", "\u00b2"), ("lastId", "\u0661\u0662\u0663"), ("Last-Event-ID", "\u00b2")],
    ids=["superscript", "arabic-indic", "superscript-header"],
)
def test_a_push_stream_resumes_only_after_an_id_in_ascii_digits(player, where, raw):
    """``isdigit`` took a superscript (then ``int`` refused it: a 500) and other scripts'
    digits (another message's id)."""
    sent = {"headers": {where: raw}} if where[0].isupper() else {"params": {where: raw}}
    response = player.call("GET", "/v1/stream/sse", stream=True, **sent)
    try:  # never read the body of a stream that was opened: it does not end
        assert response.status_code == 422
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "invalid_last_id"
    finally:
        response.close()


def test_the_gateway_serves_its_web_client_at_the_root(api):
    """So the paths below reach the web client's files, as on a deployment."""
    served = api.get("/")
    assert served.status_code == 200 and served.text.startswith("<!doctype html>")


@pytest.mark.parametrize(
    "path",
    [
        "/foo%00bar",  # Path.resolve() raised ValueError: a 500 text/plain, no problem
        "/%00",
        "/index.html%00",
        "/v1%00",
        "/%00%2f..%2findex.html",  # escaped: a client would remove the dot segment
        "/" + "x" * 300,  # a name longer than the file system's (OSError)
        "/assets/" + "a/" * 3000,  # longer than PATH_MAX
        "/%ff",  # invalid UTF-8 escapes: read as U+FFFD
        "/caf%ed%a0%80",
        "/%c0%ae%c0%ae/etc/passwd",  # overlong dots
        "/..%2f..%2fetc%2fpasswd",
    ],
    ids=["nul-inside", "nul", "nul-after-a-file", "nul-after-v1", "nul-then-up",
         "long-name", "long-path", "ff", "encoded-surrogate", "overlong-dots", "escaped-up"],
)  # fmt: skip
def test_a_path_outside_v1_that_names_no_file_is_the_404_problem(api, path):
    for method in ("GET", "HEAD"):
        response = api.request(method, path)
        assert response.status_code == 404, (method, response.text)
        assert response.headers["Content-Type"] == "application/problem+json"
    assert_problem(api.get(path), 404, "route_not_found")


def test_a_path_with_raw_bytes_past_ascii_is_400_or_404_never_500(api):
    status, answer, _ = raw_exchange(api, b"GET /caf\xe9\xff HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status in (400, 404), answer
    assert json.loads(answer)["code"] in ("malformed_request", "route_not_found")


# -- the fuzzer's findings ----------------------------------------------------------------


def test_fuzz_finding_list_routes_are_documented_as_the_pages_they_answer(api, author, catalogue):
    """The document said one object where the routes answered a JSON array; every list
    is now a page, ``{items, next}``, documented as one (docs/api.md, "Lists")."""
    spec = build_spec(Gateway)
    for path, caller in (
        ("/cards/catalogue?game=quest", author),
        ("/quest/events?lat=0&lon=0", author),
        ("/quest/decks", author),
        ("/authoring/content", author),
    ):
        route = path.split("?")[0]
        documented = spec["paths"][route]["get"]["responses"]["200"]["content"]
        name = documented["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        page = spec["components"]["schemas"][name]
        assert page["properties"]["items"]["type"] == "array", path
        assert set(page["required"]) >= {"items", "next"}, path
        answer = caller.call("GET", path).json()
        assert isinstance(answer["items"], list) and "next" in answer, path


def test_fuzz_finding_problems_may_carry_extension_members(api, player):
    """Problem was documented with additionalProperties: false; a 422 carries ``fields``."""
    spec = build_spec(Gateway)
    assert spec["components"]["schemas"]["Problem"]["additionalProperties"] is True

    refused = player.call("POST", "/quest/decks", json={"name": 1})
    body = assert_problem(refused, 422, "validation_failed")
    assert "fields" in body


def test_fuzz_finding_query_parameters_are_documented(api):
    """The query parameters routes read (?lat=&lon=, ?game=, ...) were not in the document,
    so the fuzzer never sent them."""
    spec = build_spec(Gateway)
    names = {
        (path, method): {p["name"] for p in op.get("parameters", []) if p["in"] == "query"}
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
    }
    assert names[("/quest/events", "get")] == {"lat", "lon"}
    assert names[("/cards/catalogue", "get")] == {"game"}
    assert names[("/authoring/content", "get")] == {"kind", "state", "cursor", "limit"}
    assert names[("/quest/decks/{deck_id}", "delete")] == {"expectedVersion"}
    assert names[("/me/progression", "get")] == {"limit"}


def test_fuzz_finding_a_deleted_deck_answers_204_without_a_body_or_content_type(deck_owner):
    """204 was documented with an application/json body and answered as text/plain."""
    spec = build_spec(Gateway)
    assert "content" not in spec["paths"]["/quest/decks/{deck_id}"]["delete"]["responses"]["204"]

    response = deck_owner.call("DELETE", f"/quest/decks/{deck_owner.deck['id']}?expectedVersion=1")

    assert response.status_code == 204, response.text
    assert response.content == b""
    assert "Content-Type" not in response.headers


# -- casing: the API is camelCase, a snake_case member is an unknown field -------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "refused"),
    [
        (
            "PUT",
            "/quest/decks/{deck}",
            {"expected_version": 1, "name": "Snake"},
            "expected_version",
        ),
        ("POST", "/quest/battles", {"deck_id": "{deck}"}, "deck_id"),
        (
            "POST",
            "/quest/events/00000000-0000-4000-8000-000000000000/attempt",
            {"location": {"lat": 1, "lon": 1, "accuracy_m": 5, "acquiredAt": "2030-01-01T00:00Z"}},
            "location",
        ),
    ],
)
def test_a_snake_case_member_is_refused_as_an_unknown_field(
    deck_owner, method, path, body, refused
):
    deck = deck_owner.deck["id"]
    sent = json.loads(json.dumps(body).replace("{deck}", deck))
    answer = deck_owner.call(method, path.format(deck=deck), json=sent)

    problem = assert_refused(answer, 422)
    assert problem["code"] == "validation_failed"
    assert refused in problem["fields"], problem


def test_answers_and_problem_members_are_camel_case(deck_owner):
    started = deck_owner.call("POST", "/quest/battles", json={"deckId": deck_owner.deck["id"]})
    assert started.status_code == 201, started.text
    again = deck_owner.call("POST", "/quest/battles", json={"deckId": deck_owner.deck["id"]})

    assert {"deckId", "legalActions", "yourTurn", "turnNumber"} <= set(started.json())
    assert "legal_actions" not in started.text
    assert assert_refused(again, 409)["matchId"] == started.json()["id"]


def test_a_request_head_of_megabytes_is_431_not_read_whole(api):
    """The HTTP parser has no limit of its own (gateway/transport.py)."""
    head = ("GET /me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + "x" * 2_000_000).encode()
    status, answer, _ = raw_exchange(api, head, [b"\r\n\r\n"])
    assert status == 431
    assert b"headers_too_large" in answer

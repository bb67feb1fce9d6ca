"""Access-token verification and the signing-key cache.

Tokens are minted with throw-away RSA keys. PyJWT checks exp/nbf/iat against
the system clock, so token times are set relative to ``time.time()`` with
margins of minutes or hours; the JWKS cache gets an injected monotonic clock.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import http.server
import json
import socket
import time
from typing import Any

import eventlet
import jwt
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.auth import (
    MAX_TOKEN_LENGTH,
    JwksCache,
    TokenVerifier,
    bearer_token,
    fetch_jwks_over_http,
    roles_from_claims,
)
from gateway.devauth import mint_token, public_jwk
from shared.errors import ServiceUnavailable, Unauthorized

ISSUER = "https://deckyard-test.eu.auth0.com/"
AUDIENCE = "https://api.deckyard.dev"
ROLES_CLAIM = "https://deckyard.dev/roles"
KID = "test-key-1"
SUB = "auth0|64f1c0ffee"
HOUR = 3600


@pytest.fixture(scope="module")
def signing_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def other_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


class FakeMonotonic:
    """A monotonic clock that moves only when the test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class CountingFetch:
    """A JWKS endpoint double: serves ``jwks``, records when it was asked."""

    def __init__(self, jwks: dict[str, Any], clock: FakeMonotonic | None = None) -> None:
        self.jwks = jwks
        self.clock = clock
        self.calls: list[float | None] = []
        self.fail_with: Exception | None = None

    def __call__(self) -> dict[str, Any]:
        self.calls.append(self.clock() if self.clock else None)
        if self.fail_with is not None:
            raise self.fail_with
        return self.jwks

    @property
    def count(self) -> int:
        return len(self.calls)


def jwks_of(*pairs: tuple[rsa.RSAPrivateKey, str]) -> dict[str, Any]:
    return {"keys": [public_jwk(key, kid) for key, kid in pairs]}


@pytest.fixture
def fetch(signing_key) -> CountingFetch:
    return CountingFetch(jwks_of((signing_key, KID)))


@pytest.fixture
def verifier(fetch) -> TokenVerifier:
    return TokenVerifier(ISSUER, AUDIENCE, JwksCache(fetch=fetch), ROLES_CLAIM)


@pytest.fixture
def mint(signing_key):
    def mint_(sub: str = SUB, **overrides: Any) -> str:
        options: dict[str, Any] = {
            "audience": AUDIENCE,
            "issuer": ISSUER,
            "key": signing_key,
            "kid": KID,
            "roles_claim": ROLES_CLAIM,
            "now": time.time(),
        }
        options.update(overrides)
        return mint_token(sub, **options)

    return mint_


def valid_claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": SUB, "iat": now, "exp": now + HOUR}
    claims.update(overrides)
    return claims


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hand_made_token(header: dict[str, Any], claims: dict[str, Any], sign) -> str:
    signing_input = f"{b64url(json.dumps(header).encode())}.{b64url(json.dumps(claims).encode())}"
    return f"{signing_input}.{b64url(sign(signing_input.encode()))}"


def refusal(verifier: TokenVerifier, token: str) -> Unauthorized:
    with pytest.raises(Unauthorized) as caught:
        verifier.verify(token)
    return caught.value


# -- valid tokens ---------------------------------------------------------------


def test_valid_token_gives_the_subject_as_a_player(verifier, mint):
    identity = verifier.verify(mint())

    assert identity.sub == SUB
    assert identity.roles == frozenset({"player"})
    assert identity.is_author is False
    assert identity.claims["iss"] == ISSUER


def test_auth_time_is_carried_when_it_is_an_integer(verifier, mint):
    issued = int(time.time())

    identity = verifier.verify(mint(now=issued))

    assert identity.auth_time == issued


def test_author_role_comes_from_the_roles_claim(verifier, mint):
    identity = verifier.verify(mint(roles=["author"]))

    assert identity.roles == frozenset({"player", "author"})
    assert identity.is_author is True


@pytest.mark.parametrize("granted", [["AUTHOR"], [" Author "], "author", ["reviewer", "aUtHoR"]])
def test_author_role_is_matched_case_insensitively(verifier, mint, granted):
    identity = verifier.verify(mint(extra_claims={ROLES_CLAIM: granted}))

    assert identity.is_author is True


@pytest.mark.parametrize(
    "elsewhere",
    [
        {"roles": ["author"]},
        {"permissions": ["author"]},
        {"scope": "openid author"},
        {"https://deckyard.dev/other-roles": ["author"]},
        {"https://other.example/roles": ["Author"]},
    ],
    ids=["roles", "permissions", "scope", "similar_claim", "other_namespace"],
)
def test_author_role_is_ignored_outside_the_roles_claim(verifier, mint, elsewhere):
    identity = verifier.verify(mint(extra_claims=elsewhere))

    assert identity.roles == frozenset({"player"})


@pytest.mark.parametrize(
    "granted", [["authors"], ["co-author"], [1, None, {"author": True}], "", None, ["admin"]]
)
def test_roles_claim_without_exactly_author_grants_only_player(granted):
    assert roles_from_claims({ROLES_CLAIM: granted}, ROLES_CLAIM) == frozenset({"player"})


def test_aud_list_containing_our_audience_is_accepted(verifier, mint):
    token = mint(audience=["https://deckyard-test.eu.auth0.com/userinfo", AUDIENCE])

    assert verifier.verify(token).sub == SUB


def test_expiry_within_the_clock_skew_leeway_is_accepted(verifier, mint):
    token = mint(now=time.time() - HOUR - 5, ttl_seconds=HOUR)  # expired 5 s ago

    assert verifier.verify(token).sub == SUB


# -- refused tokens ---------------------------------------------------------------


def test_expired_token_is_refused_as_expired(verifier, mint):
    token = mint(now=time.time() - 2 * HOUR, ttl_seconds=HOUR)

    assert refusal(verifier, token).code == "token_expired"


def test_token_for_another_audience_is_refused(verifier, mint):
    assert refusal(verifier, mint(audience="https://api.other.dev")).code == "invalid_audience"


def test_aud_list_without_our_audience_is_refused(verifier, mint):
    token = mint(audience=["https://api.other.dev", "https://x.example"])

    assert refusal(verifier, token).code == "invalid_audience"


def test_token_from_another_issuer_is_refused(verifier, mint):
    token = mint(issuer="https://evil.eu.auth0.com/")

    assert refusal(verifier, token).code == "invalid_issuer"


def test_token_signed_by_another_key_under_our_kid_is_refused(verifier, mint, other_key):
    assert refusal(verifier, mint(key=other_key)).code == "invalid_token"


def test_token_with_an_unknown_kid_is_refused(verifier, mint):
    assert refusal(verifier, mint(kid="nobody-knows-me")).code == "unknown_signing_key"


def test_hs256_token_signed_with_the_public_key_as_secret_is_refused(verifier, signing_key):
    public_pem = signing_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    token = hand_made_token(
        {"alg": "HS256", "typ": "JWT", "kid": KID},
        valid_claims(),
        lambda data: hmac.new(public_pem, data, hashlib.sha256).digest(),
    )

    assert refusal(verifier, token).code == "invalid_token"


@pytest.mark.parametrize("alg", ["none", "None", "NONE"])
def test_unsigned_alg_none_token_is_refused(verifier, alg):
    token = hand_made_token({"alg": alg, "typ": "JWT", "kid": KID}, valid_claims(), lambda _: b"")

    assert refusal(verifier, token).code == "invalid_token"


def test_rs256_header_with_a_stripped_signature_is_refused(verifier, mint):
    header_and_claims = mint().rsplit(".", 1)[0]

    assert refusal(verifier, header_and_claims + ".").code == "invalid_token"


def test_token_with_an_edited_claim_is_refused(verifier, mint):
    header, _, signature = mint().split(".")
    forged = b64url(json.dumps(valid_claims(sub="auth0|someone-else")).encode())

    assert refusal(verifier, f"{header}.{forged}.{signature}").code == "invalid_token"


@pytest.mark.parametrize("claim", ["sub", "exp", "iat", "iss", "aud"])
def test_token_missing_a_required_claim_is_refused(verifier, signing_key, claim):
    claims = valid_claims()
    del claims[claim]
    token = jwt.encode(claims, signing_key, algorithm="RS256", headers={"kid": KID})

    assert refusal(verifier, token).code == "invalid_token"


UNUSABLE_SUBJECTS = [
    "",
    "   ",
    "x" * 256,
    12345,
    ["auth0|1"],
    "auth0|abc\x00",  # PostgreSQL text cannot hold a NUL
    "\x00",
    "auth0|\ud800",  # an unpaired surrogate is not Unicode text (no UTF-8 for it)
    "auth0|\udfff-abc",
    "auth0|abc\n",  # control characters: a subject is printed in logs and audit trails
    "auth0|a\tb",
    "auth0|a\x7fb",
    "auth0|a\u0085b",
    "auth0|a\u202eb",  # a bidirectional override (format character)
    "auth0|a\u2028b",  # a line separator
    " auth0|abc",  # Auth0 never pads a subject; padded, it would be another player
    "auth0|abc ",
]


@pytest.mark.parametrize("sub", UNUSABLE_SUBJECTS, ids=repr)
def test_token_with_an_unusable_subject_is_refused(verifier, signing_key, sub):
    token = jwt.encode(valid_claims(sub=sub), signing_key, algorithm="RS256", headers={"kid": KID})

    assert refusal(verifier, token).code == "invalid_token"


@pytest.mark.parametrize(
    "sub",
    [
        "auth0|64f1c0ffee",
        "google-oauth2|109876543210987654321",
        "samlp|Contoso|jöhn.o'brien@contoso.example",  # enterprise connections carry names
        "email|5f1c0ffee",
        "x" * 255,
        "a b",
    ],
)
def test_token_with_a_printable_subject_is_accepted(verifier, signing_key, sub):
    token = jwt.encode(valid_claims(sub=sub), signing_key, algorithm="RS256", headers={"kid": KID})

    assert verifier.verify(token).sub == sub


def test_token_not_yet_valid_by_nbf_is_refused(verifier, mint):
    token = mint(extra_claims={"nbf": int(time.time()) + HOUR})

    assert refusal(verifier, token).code == "token_not_yet_valid"


def test_token_issued_in_the_future_is_refused(verifier, mint):
    token = mint(now=time.time() + HOUR)

    assert refusal(verifier, token).code == "token_not_yet_valid"


def test_oversized_token_is_refused_without_fetching_keys(verifier, mint, fetch):
    token = mint(extra_claims={"padding": "x" * MAX_TOKEN_LENGTH})
    assert len(token) > MAX_TOKEN_LENGTH

    assert refusal(verifier, token).code == "invalid_token"
    assert fetch.count == 0


@pytest.mark.parametrize("garbage", ["", "not-a-jwt", "a.b.c", "....", "e30.e30.", "🔑.🔑.🔑"])
def test_malformed_token_is_refused(verifier, garbage):
    assert refusal(verifier, garbage).code == "invalid_token"


@pytest.mark.parametrize("kid", [None, "", 7, ["test-key-1"]])
def test_token_without_a_usable_kid_is_refused(verifier, signing_key, kid):
    header: dict[str, Any] = {"alg": "RS256", "typ": "JWT"}
    if kid is not None:
        header["kid"] = kid
    token = hand_made_token(
        header,
        valid_claims(),
        lambda data: signing_key.sign(data, padding.PKCS1v15(), hashes.SHA256()),
    )

    assert refusal(verifier, token).code == "invalid_token"


# -- the Authorization header -----------------------------------------------------


@pytest.mark.parametrize(
    "header", ["Bearer abc.def.ghi", "bearer abc.def.ghi", "BEARER  abc.def.ghi "]
)
def test_bearer_token_is_taken_from_the_header(header):
    assert bearer_token(header) == "abc.def.ghi"


@pytest.mark.parametrize("header", [None, ""])
def test_missing_authorization_header_is_missing_token(header):
    with pytest.raises(Unauthorized) as caught:
        bearer_token(header)

    assert caught.value.code == "missing_token"


@pytest.mark.parametrize(
    "header", ["Basic dXNlcjpwYXNz", "Token abc", "Bearer", "Bearer ", "Bearer    ", "abc.def.ghi"]
)
def test_authorization_header_of_another_shape_is_invalid_token(header):
    with pytest.raises(Unauthorized) as caught:
        bearer_token(header)

    assert caught.value.code == "invalid_token"


# -- the JWKS cache -----------------------------------------------------------------


@pytest.fixture
def clock() -> FakeMonotonic:
    return FakeMonotonic()


@pytest.fixture
def timed_fetch(signing_key, clock) -> CountingFetch:
    return CountingFetch(jwks_of((signing_key, KID)), clock)


def make_cache(fetch, clock, max_age=600.0, min_refresh=30.0) -> JwksCache:
    return JwksCache(
        fetch=fetch, max_age_seconds=max_age, min_refresh_seconds=min_refresh, monotonic=clock
    )


def test_cache_fetches_on_first_use_not_before(timed_fetch, clock):
    cache = make_cache(timed_fetch, clock)
    assert timed_fetch.count == 0

    key = cache.signing_key(KID)

    assert timed_fetch.count == 1
    assert key.key_id == KID


def test_known_kid_is_served_from_the_cache(timed_fetch, clock):
    cache = make_cache(timed_fetch, clock)

    for _ in range(50):
        cache.signing_key(KID)
        clock.advance(10)  # 490 s in all, within max_age

    assert timed_fetch.count == 1


def test_unknown_kid_right_after_a_fetch_does_not_refetch(timed_fetch, clock):
    cache = make_cache(timed_fetch, clock)
    cache.signing_key(KID)
    clock.advance(29)

    with pytest.raises(Unauthorized, match="unknown_signing_key"):
        cache.signing_key("made-up")

    assert timed_fetch.count == 1


def test_flood_of_unknown_kids_causes_exactly_one_refetch_per_window(timed_fetch, clock):
    cache = make_cache(timed_fetch, clock, min_refresh=30)
    cache.signing_key(KID)
    clock.advance(30)

    for i in range(500):
        with pytest.raises(Unauthorized):
            cache.signing_key(f"random-{i}")
        clock.advance(0.05)  # 25 s of flood, inside one window

    assert timed_fetch.count == 2

    clock.advance(10)  # the window after the refetch has passed
    with pytest.raises(Unauthorized):
        cache.signing_key("random-again")
    assert timed_fetch.count == 3


@settings(max_examples=60, deadline=None)
@given(
    requests=st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=45, allow_nan=False),
            st.sampled_from([KID, "rotated", "made-up"]) | st.text(min_size=1, max_size=8),
        ),
        max_size=80,
    )
)
def test_fetches_are_never_closer_than_min_refresh_seconds(signing_key, requests):
    clock = FakeMonotonic()
    fetch = CountingFetch(jwks_of((signing_key, KID)), clock)
    cache = make_cache(fetch, clock, max_age=600, min_refresh=30)

    for step, kid in requests:
        clock.advance(step)
        with contextlib.suppress(Unauthorized):
            cache.signing_key(kid)

    gaps = [later - earlier for earlier, later in zip(fetch.calls, fetch.calls[1:], strict=False)]
    assert all(gap >= 30 for gap in gaps)


def test_cache_refetches_after_max_age(timed_fetch, clock):
    cache = make_cache(timed_fetch, clock, max_age=600)
    cache.signing_key(KID)

    clock.advance(600)
    cache.signing_key(KID)
    assert timed_fetch.count == 1  # exactly max_age old is still fresh

    clock.advance(1)
    cache.signing_key(KID)
    assert timed_fetch.count == 2


def test_rotated_key_is_picked_up_by_an_unknown_kid_refetch(signing_key, other_key, clock):
    fetch = CountingFetch(jwks_of((signing_key, KID)), clock)
    cache = make_cache(fetch, clock, min_refresh=30)
    cache.signing_key(KID)

    fetch.jwks = jwks_of((signing_key, KID), (other_key, "rotated"))
    clock.advance(30)
    key = cache.signing_key("rotated")

    assert key.key_id == "rotated"
    assert fetch.count == 2


def test_key_rotation_within_the_refresh_window_is_seen_once_the_window_passes(
    signing_key, other_key, clock
):
    fetch = CountingFetch(jwks_of((signing_key, KID)), clock)
    cache = make_cache(fetch, clock, min_refresh=30)
    cache.signing_key(KID)
    fetch.jwks = jwks_of((other_key, "rotated"))

    clock.advance(5)
    with pytest.raises(Unauthorized):
        cache.signing_key("rotated")

    clock.advance(25)
    assert cache.signing_key("rotated").key_id == "rotated"


def test_verifier_accepts_tokens_from_a_rotated_key(signing_key, other_key, clock, mint):
    fetch = CountingFetch(jwks_of((signing_key, KID)), clock)
    verifier = TokenVerifier(ISSUER, AUDIENCE, make_cache(fetch, clock), ROLES_CLAIM)
    verifier.verify(mint())

    fetch.jwks = jwks_of((signing_key, KID), (other_key, "rotated"))
    clock.advance(31)

    assert verifier.verify(mint(key=other_key, kid="rotated")).sub == SUB


def test_cache_uses_only_rsa_signing_keys_with_a_kid(signing_key, other_key, clock):
    ec_jwk = jwt.algorithms.ECAlgorithm.to_jwk(
        ec.generate_private_key(ec.SECP256R1()).public_key(), as_dict=True
    )
    encryption_jwk = {**public_jwk(other_key, "enc-key"), "use": "enc"}
    no_kid = {k: v for k, v in public_jwk(other_key, "x").items() if k != "kid"}
    fetch = CountingFetch(
        {
            "keys": [
                {**ec_jwk, "kid": "ec-key"},
                encryption_jwk,
                no_kid,
                public_jwk(signing_key, KID),
            ]
        },
        clock,
    )
    cache = make_cache(fetch, clock)

    assert cache.signing_key(KID).key_id == KID
    for kid in ("ec-key", "enc-key"):
        with pytest.raises(Unauthorized, match="unknown_signing_key"):
            cache.signing_key(kid)


def test_one_malformed_key_in_the_jwks_does_not_spoil_the_others(signing_key, clock):
    broken = {"kty": "RSA", "kid": "broken", "use": "sig", "n": "!!!", "e": "AQAB"}
    fetch = CountingFetch({"keys": [broken, public_jwk(signing_key, KID)]}, clock)

    assert make_cache(fetch, clock).signing_key(KID).key_id == KID


def test_failed_fetch_is_reported_as_service_unavailable(timed_fetch, clock):
    timed_fetch.fail_with = ServiceUnavailable("identity_provider_unavailable", "down")

    with pytest.raises(ServiceUnavailable, match="identity_provider_unavailable"):
        make_cache(timed_fetch, clock).signing_key(KID)


def test_failing_identity_provider_is_not_asked_more_than_once_per_window(timed_fetch, clock):
    cache = make_cache(timed_fetch, clock, min_refresh=30)
    cache.signing_key(KID)
    timed_fetch.fail_with = ServiceUnavailable("identity_provider_unavailable", "down")
    clock.advance(30)

    for i in range(100):
        with pytest.raises((Unauthorized, ServiceUnavailable)):
            cache.signing_key(f"made-up-{i}")
        clock.advance(0.1)

    assert timed_fetch.count == 2


# -- fetching the JWKS over HTTP ------------------------------------------------------


@pytest.fixture
def jwks_server(signing_key, monkeypatch):
    """A real HTTP server on 127.0.0.1 serving the JWKS; runs in a green thread."""
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    body = json.dumps(jwks_of((signing_key, KID))).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/.well-known/jwks.json":
                payload, status, kind = body, 200, "application/json"
            elif self.path == "/not-json":
                payload, status, kind = b"<html>maintenance</html>", 200, "text/html"
            else:
                payload, status, kind = b"{}", 404, "application/json"
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    runner = eventlet.spawn(server.serve_forever, poll_interval=0.05)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        with eventlet.Timeout(5):
            server.shutdown()
            runner.wait()
        server.server_close()


def test_fetch_jwks_over_http_reads_the_issuers_keys(jwks_server, mint):
    fetch = fetch_jwks_over_http(f"{jwks_server}/.well-known/jwks.json", timeout=5)
    verifier = TokenVerifier(ISSUER, AUDIENCE, JwksCache(fetch=fetch), ROLES_CLAIM)

    with eventlet.Timeout(10):
        jwks = fetch()
        identity = verifier.verify(mint())

    assert [key["kid"] for key in jwks["keys"]] == [KID]
    assert identity.sub == SUB


@pytest.mark.parametrize("path", ["/missing", "/not-json"])
def test_fetch_jwks_over_http_reports_a_bad_reply_as_unavailable(jwks_server, path):
    fetch = fetch_jwks_over_http(f"{jwks_server}{path}", timeout=5)

    with eventlet.Timeout(10), pytest.raises(ServiceUnavailable) as caught:
        fetch()

    assert caught.value.code == "identity_provider_unavailable"


def test_fetch_jwks_from_an_unreachable_url_is_service_unavailable():
    with socket.socket() as probe:  # a port that was free a moment ago and is now closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    fetch = fetch_jwks_over_http(f"http://127.0.0.1:{port}/.well-known/jwks.json", timeout=2)

    with eventlet.Timeout(10), pytest.raises(ServiceUnavailable) as caught:
        fetch()

    assert caught.value.code == "identity_provider_unavailable"


# -- remembering verified tokens --------------------------------------------------------


class WallClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_verified_token_is_not_fetched_or_parsed_again_until_it_expires(fetch, mint):
    issued = time.time()
    wall = WallClock(issued)
    verifier = TokenVerifier(ISSUER, AUDIENCE, JwksCache(fetch=fetch), ROLES_CLAIM, now=wall)
    token = mint(now=issued, ttl_seconds=60)
    first = verifier.verify(token)

    wall.now = issued + 59
    assert verifier.verify(token) is first  # the remembered identity

    wall.now = issued + 60  # at exp the memory no longer vouches; a full check decides
    assert verifier.verify(token) is not first


def test_the_memory_of_verified_tokens_is_bounded(fetch, mint):
    verifier = TokenVerifier(ISSUER, AUDIENCE, JwksCache(fetch=fetch), ROLES_CLAIM, cache_size=3)
    tokens = [mint(sub=f"auth0|{i}") for i in range(5)]
    for token in tokens:
        verifier.verify(token)
    assert list(verifier._verified) == tokens[2:]


def test_a_refused_token_is_not_remembered(verifier, mint):
    token = mint(audience="https://other.example.com")
    for _ in range(2):
        with pytest.raises(Unauthorized, match="invalid_audience"):
            verifier.verify(token)
    assert verifier._verified == {}

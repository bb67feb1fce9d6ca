"""Forged and broken access tokens, end to end: the gateway answers 401 and registers nobody.

tests/unit/gateway/test_auth.py proves the verifier refuses these; here every one
goes through HTTP to a read (``GET /me``, which registers a player on first sight)
and to a change (``POST /quest/starter``, which would grant cards), and afterwards
a valid token for the same subject finds no player and no starter: nothing was
registered or granted on the forged token's word. The forgeries are made the way
the unit tests make them (``hand_made_token``, ``mint_token`` with other keys,
claims or headers), against the development issuer the gateway trusts in tests.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from gateway.devauth import DEV_ISSUER, DEV_KEY_ID, dev_jwks, dev_private_key
from shared.config import SERVICE_NAMES
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.platform.test_authorization_matrix import UNLIMITED
from tests.e2e.quest import test_cards_api as cards_api
from tests.random_refs import random_sub
from tests.unit.gateway.test_auth import b64url, hand_made_token

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)

HOUR = 3600
ATTACKER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture
def platform(start_service, settings):
    containers = {name: start_service(name) for name in SERVICE_NAMES}
    containers["gateway"] = start_service(
        "gateway", MAX_BODY_BYTES=settings.max_body_bytes, **UNLIMITED
    )
    return containers


# -- ways of forging -----------------------------------------------------------------------


def claims_for(api, subject: str | None, **overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {
        "iss": DEV_ISSUER,
        "aud": api.settings.auth0_audience,
        "iat": now,
        "exp": now + HOUR,
        "auth_time": now,
        api.settings.auth0_roles_claim: ["Author"],
    }
    if subject is not None:
        claims["sub"] = subject
    claims.update(overrides)
    return claims


def public_pem() -> bytes:
    return (
        dev_private_key()
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )


def hs256_with(secret: bytes) -> Callable[[bytes], bytes]:
    return lambda data: hmac.new(secret, data, hashlib.sha256).digest()


def rs256_with(key: rsa.RSAPrivateKey) -> Callable[[bytes], bytes]:
    return lambda data: key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def edited(token: str, header: dict[str, Any] | None = None, **changes: Any) -> str:
    """A genuine token with its header or claims edited afterwards; the signature is the
    original's."""
    head, claims, signature = token.split(".")
    if header is not None:
        head = b64url(json.dumps(header).encode())
    if changes:
        genuine = jwt.decode(token, options={"verify_signature": False})
        claims = b64url(json.dumps({**genuine, **changes}).encode())
    return f"{head}.{claims}.{signature}"


def forgeries(api) -> list[tuple[str, Callable[[str], str], str]]:
    """(what, token for a subject, the code the gateway must answer)."""
    dev = dev_private_key()
    attacker_jwk = jwt.algorithms.RSAAlgorithm.to_jwk(ATTACKER_KEY.public_key(), as_dict=True)
    jwks_text = json.dumps(dev_jwks()).encode()

    def hand(header: dict[str, Any], sign, **overrides: Any) -> Callable[[str], str]:
        return lambda sub: hand_made_token(header, claims_for(api, sub, **overrides), sign)

    def signed(key, headers: dict[str, Any], sub_claim: bool = True, **overrides: Any):
        def make(sub: str) -> str:
            claims = claims_for(api, sub if sub_claim else None, **overrides)
            return jwt.encode(claims, key, algorithm="RS256", headers=headers)

        return make

    ours = {"kid": DEV_KEY_ID}
    return [
        *(
            (f"alg {alg}", hand({"alg": alg, "typ": "JWT", **ours}, lambda _: b""), "invalid_token")
            for alg in ("none", "None", "NONE", "nOnE")
        ),
        (
            "alg none over a genuine token, its signature left on",
            lambda sub: edited(api.token(sub), header={"alg": "none", **ours}),
            "invalid_token",
        ),
        (
            "HS256 signed with the public key (PEM) as the secret",
            hand({"alg": "HS256", "typ": "JWT", **ours}, hs256_with(public_pem())),
            "invalid_token",
        ),
        (
            "HS256 signed with the public key (PEM, no final newline) as the secret",
            hand({"alg": "HS256", "typ": "JWT", **ours}, hs256_with(public_pem().strip())),
            "invalid_token",
        ),
        (
            "HS256 signed with the published JWKS as the secret",
            hand({"alg": "HS256", "typ": "JWT", **ours}, hs256_with(jwks_text)),
            "invalid_token",
        ),
        (
            "RS256 by another key under our kid",
            signed(ATTACKER_KEY, ours),
            "invalid_token",
        ),
        (
            "RS256 by another key, embedded in the header (jwk)",
            signed(ATTACKER_KEY, {**ours, "jwk": attacker_jwk}),
            "invalid_token",
        ),
        (
            "RS256 by another key, fetched from an attacker's URL (jku)",
            signed(ATTACKER_KEY, {**ours, "jku": "https://attacker.example/jwks.json"}),
            "invalid_token",
        ),
        (
            "PS256 by our key",
            lambda sub: jwt.encode(claims_for(api, sub), dev, algorithm="PS256", headers=ours),
            "invalid_token",
        ),
        (
            "wrong issuer",
            signed(dev, ours, iss="https://evil.example.com/"),
            "invalid_issuer",
        ),
        (
            "the issuer without its final slash",
            signed(dev, ours, iss=DEV_ISSUER.rstrip("/")),
            "invalid_issuer",
        ),
        (
            "wrong audience",
            signed(dev, ours, aud="https://api.someone-else.example"),
            "invalid_audience",
        ),
        (
            "an audience list without ours",
            signed(dev, ours, aud=["https://a.example", "https://b.example"]),
            "invalid_audience",
        ),
        (
            "expired",
            signed(dev, ours, iat=int(time.time()) - 2 * HOUR, exp=int(time.time()) - HOUR),
            "token_expired",
        ),
        (
            "not yet valid (nbf)",
            signed(dev, ours, nbf=int(time.time()) + HOUR),
            "token_not_yet_valid",
        ),
        (
            "issued in the future (iat)",
            signed(dev, ours, iat=int(time.time()) + HOUR, exp=int(time.time()) + 2 * HOUR),
            "token_not_yet_valid",
        ),
        ("unknown kid, our key", signed(dev, {"kid": "deckyard-dev-2"}), "unknown_signing_key"),
        (
            "unknown kid, another key",
            signed(ATTACKER_KEY, {"kid": "attacker-1"}),
            "unknown_signing_key",
        ),
        (
            "kid with a path and a quote in it",
            signed(dev, {"kid": "../../dev/null' OR '1'='1"}),
            "unknown_signing_key",
        ),
        ("no kid", signed(dev, {}), "invalid_token"),
        ("missing sub", signed(dev, ours, sub_claim=False), "invalid_token"),
        ("blank sub", signed(dev, ours, sub="   "), "invalid_token"),
        ("sub that is not a string", signed(dev, ours, sub=12345), "invalid_token"),
        # Validly signed, but no player could be stored under these subjects: each must be
        # refused as a token, not reach accounts (PostgreSQL refuses a NUL: it was a 500).
        ("sub with a NUL", lambda sub: api.token(sub + "\x00"), "invalid_token"),
        ("sub with an unpaired surrogate", lambda sub: api.token(sub + "\ud800"), "invalid_token"),
        ("sub with a control character", lambda sub: api.token(sub + "\n"), "invalid_token"),
        ("sub of 256 characters", lambda sub: api.token(sub.ljust(256, "x")), "invalid_token"),
        (
            "missing exp",
            lambda sub: jwt.encode(
                {k: v for k, v in claims_for(api, sub).items() if k != "exp"},
                dev,
                algorithm="RS256",
                headers=ours,
            ),
            "invalid_token",
        ),
        (
            "a genuine token with its sub edited",
            lambda sub: edited(api.token(random_sub("victim")), sub=sub),
            "invalid_token",
        ),
        (
            "a genuine token given the Author role afterwards",
            lambda sub: edited(api.token(sub), **{api.settings.auth0_roles_claim: ["Author"]}),
            "invalid_token",
        ),
        (
            "a genuine token without its signature",
            lambda sub: api.token(sub).rsplit(".", 1)[0] + ".",
            "invalid_token",
        ),
        (
            "RS256 header, signature by another key over our header",
            hand({"alg": "RS256", "typ": "JWT", **ours}, rs256_with(ATTACKER_KEY)),
            "invalid_token",
        ),
        ("garbage", lambda sub: "not.a.jwt", "invalid_token"),
        ("garbage with three parts", lambda sub: "a.b.c", "invalid_token"),
        ("garbage of empty json", lambda sub: "e30.e30.", "invalid_token"),
        ("garbage, just dots", lambda sub: "....", "invalid_token"),
    ]


# -- the test ------------------------------------------------------------------------------


PROBES = (  # a read that registers on first sight, a change that grants cards, an Author route
    ("GET", "/me", None),
    ("POST", "/quest/starter", {"affinity": "Grit"}),
    ("GET", "/authoring/content", None),
)


def answer_to(api, method: str, path: str, body: Any, authorization: str) -> tuple[Any, ...]:
    """(status, content type, problem code, WWW-Authenticate) of one request."""
    response = api.request(method, path, headers={"Authorization": authorization}, json=body)
    is_problem = response.headers.get("Content-Type") == "application/problem+json"
    return (
        response.status_code,
        response.headers.get("Content-Type"),
        response.json().get("code") if is_problem else response.text[:100],
        response.headers.get("WWW-Authenticate"),
    )


PROBLEM = "application/problem+json"


def refused(code: str) -> tuple[Any, ...]:
    return (401, PROBLEM, code, 'Bearer error="invalid_token"')


def test_every_forged_token_is_401_and_registers_nobody(api, starters):
    wrong = []
    subjects = []
    for what, forge, code in forgeries(api):
        sub = random_sub("forged")
        subjects.append((what, sub))
        token = forge(sub)
        for method, path, body in PROBES:
            answer = answer_to(api, method, path, body, f"Bearer {token}")
            if answer != refused(code):
                wrong.append((what, method, path, "expected", refused(code), "got", answer))
    assert not wrong, "\n".join(map(str, wrong))

    # Nothing was registered or granted on a forged token's word.
    for what, sub in subjects:
        token = api.token(sub)
        me = api.get("/me", token=token)
        assert me.status_code == 200 and me.json()["registeredNow"] is True, (what, me.text)
        assert_problem(api.get("/quest/starter", token=token), 404, "starter_not_chosen")


@pytest.mark.parametrize(
    "authorization",
    ["Basic dXNlcjpwYXNz", "Token abc", "Bearer", "Bearer    ", "bearer", "abc.def.ghi"],
)
def test_an_authorization_header_of_another_shape_is_401(api, authorization):
    for method, path, body in PROBES:
        answer = answer_to(api, method, path, body, authorization)
        assert answer == refused("invalid_token"), (authorization, method, path, answer)


OVERSIZED = "x" * 9000  # a token of about 12 kB: over MAX_TOKEN_LENGTH (8192)


def test_an_oversized_token_is_refused_and_registers_nobody(api):
    sub = random_sub("huge")
    token = api.token(sub, extra_claims={"padding": OVERSIZED})
    for method, path, body in PROBES:
        status = answer_to(api, method, path, body, f"Bearer {token}")[0]
        assert 400 <= status < 500, (method, path, status)
    assert api.me(sub).json()["registeredNow"] is True


def test_an_oversized_token_is_answered_with_a_problem(api):
    token = api.token(random_sub("huge"), extra_claims={"padding": OVERSIZED})
    for method, path, body in PROBES:
        status, content_type, _, _ = answer_to(api, method, path, body, f"Bearer {token}")
        assert (status, content_type) in ((401, PROBLEM), (431, PROBLEM)), (method, path)

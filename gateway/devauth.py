"""The development token issuer (``DEV_AUTH=1`` only).

It stands in for Auth0 in tests and on a developer's machine: a key pair that
ships with the project, tokens shaped like Auth0 access tokens (RS256, kid,
iss, aud, sub, iat, exp, auth_time, the RBAC roles claim) and the public
JWKS, which the gateway serves at ``/dev/jwks.json``. The private key is
public knowledge, which is exactly why the issuer is trusted only when
``DEV_AUTH=1`` is set and why the Kubernetes manifests never set it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

DEV_ISSUER = "https://dev-issuer.deckyard.local/"
DEV_KEY_ID = "deckyard-dev-1"
DEV_KEY_FILE = Path(__file__).with_name("dev_signing_key.pem")
DEFAULT_TTL_SECONDS = 3600


@cache
def dev_private_key() -> rsa.RSAPrivateKey:
    key = serialization.load_pem_private_key(DEV_KEY_FILE.read_bytes(), password=None)
    assert isinstance(key, rsa.RSAPrivateKey)
    return key


def public_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    jwk: dict[str, Any] = jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key(), as_dict=True)
    jwk.update({"kid": kid, "use": "sig", "alg": "RS256"})
    return jwk


def dev_jwks() -> dict[str, Any]:
    return {"keys": [public_jwk(dev_private_key(), DEV_KEY_ID)]}


def mint_token(
    sub: str,
    *,
    audience: str | list[str],
    roles: Iterable[str] = (),
    roles_claim: str = "https://deckyard.dev/roles",
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    now: float | None = None,
    issuer: str = DEV_ISSUER,
    key: rsa.RSAPrivateKey | None = None,
    kid: str = DEV_KEY_ID,
    extra_claims: dict[str, Any] | None = None,
) -> str:
    """An access token as Auth0 would issue it, signed with the dev key by default."""
    issued = int(time.time() if now is None else now)
    claims: dict[str, Any] = {
        "iss": issuer,
        "sub": sub,
        "aud": audience,
        "iat": issued,
        "exp": issued + ttl_seconds,
        "auth_time": issued,
        "jti": str(uuid.uuid4()),
        roles_claim: sorted({r.strip().capitalize() for r in roles if r.strip()}),
    }
    claims.update(extra_claims or {})
    return jwt.encode(claims, key or dev_private_key(), algorithm="RS256", headers={"kid": kid})

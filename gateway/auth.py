"""Verifying Auth0 RS256 access tokens.

PyJWT does the cryptography and the registered-claim checks (signature,
issuer, audience, expiry, not-before; exp, iat, iss, aud and sub required).
auth0-python's TokenVerifier is not used: it is made for ID tokens and
refuses a typical access token whose ``aud`` is a list.

Signing keys come from the issuer's JWKS, cached. A token with a key id we do
not know triggers one refetch (Auth0 rotates keys), but at most once per
``min_refresh_seconds``, so a flood of made-up key ids cannot turn into a flood
of requests to Auth0.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.request
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import jwt

from shared.errors import ServiceUnavailable, Unauthorized

log = logging.getLogger(__name__)

ALGORITHMS = ["RS256"]
REQUIRED_CLAIMS = ["exp", "iat", "iss", "aud", "sub"]
LEEWAY_SECONDS = 30  # assumed: tolerated clock skew between Auth0 and us
MAX_TOKEN_LENGTH = 8192
MAX_SUBJECT_LENGTH = 255  # accounts stores the subject as VARCHAR(255)
AUTHOR_ROLE = "author"


@dataclass(frozen=True)
class Identity:
    """Who called: the token subject and the roles the token grants."""

    sub: str
    roles: frozenset[str]
    auth_time: int | None = None
    claims: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_author(self) -> bool:
        return AUTHOR_ROLE in self.roles


def fetch_jwks_over_http(url: str, timeout: float = 5.0) -> Callable[[], Mapping[str, Any]]:
    def fetch() -> Mapping[str, Any]:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                data: Mapping[str, Any] = json.loads(response.read(1_000_000))
                return data  # its shape is checked by JwksCache
        except (OSError, ValueError) as exc:
            raise ServiceUnavailable(
                "identity_provider_unavailable", "the signing keys could not be fetched"
            ) from exc

    return fetch


class JwksCache:
    def __init__(
        self,
        fetch: Callable[[], Mapping[str, Any]],
        max_age_seconds: float = 600.0,
        min_refresh_seconds: float = 30.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._fetch = fetch
        self._max_age = max_age_seconds
        self._min_refresh = min_refresh_seconds
        self._monotonic = monotonic
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched_at: float | None = None
        self._attempted_at: float | None = None
        self.fetch_count = 0

    def _refresh(self) -> None:
        # The attempt counts, not only a success: while the identity provider
        # fails, it is still asked at most once per min_refresh window.
        self._attempted_at = self._monotonic()
        try:
            jwks = self._fetch()
            if not isinstance(jwks, Mapping) or not isinstance(jwks.get("keys"), list):
                raise ServiceUnavailable(
                    "identity_provider_unavailable", "the signing keys are malformed"
                )
        except ServiceUnavailable:
            if self._keys:  # keep verifying with the keys we have
                log.warning("JWKS refresh failed; keeping %d cached keys", len(self._keys))
                return
            raise
        self.fetch_count += 1
        keys = {}
        for entry in jwks["keys"]:
            if not isinstance(entry, Mapping):
                continue
            if entry.get("kid") and entry.get("kty") == "RSA" and entry.get("use", "sig") == "sig":
                try:
                    keys[entry["kid"]] = jwt.PyJWK(dict(entry), algorithm="RS256")
                except jwt.PyJWTError:
                    continue  # one unusable key does not spoil the others
        self._keys = keys
        self._fetched_at = self._attempted_at

    @property
    def loaded(self) -> bool:
        return self._fetched_at is not None

    def refresh_due(self, kid: str) -> bool:
        """Whether ``signing_key(kid)`` would ask the identity provider now."""
        now = self._monotonic()
        stale = self._fetched_at is None or now - self._fetched_at > self._max_age
        may_ask = self._attempted_at is None or now - self._attempted_at >= self._min_refresh
        return may_ask and (stale or kid not in self._keys)

    def signing_key(self, kid: str) -> jwt.PyJWK:
        now = self._monotonic()
        stale = self._fetched_at is None or now - self._fetched_at > self._max_age
        may_ask = self._attempted_at is None or now - self._attempted_at >= self._min_refresh
        if may_ask and (stale or kid not in self._keys):
            self._refresh()
        if self._fetched_at is None:
            raise ServiceUnavailable(
                "identity_provider_unavailable", "the signing keys could not be fetched"
            )
        key = self._keys.get(kid)
        if key is None:
            raise Unauthorized("unknown_signing_key", "the token was signed with an unknown key")
        return key


def usable_subject(sub: Any) -> TypeGuard[str]:
    """Whether ``sub`` can name a player: printable text of 1 to 255 characters, unpadded.

    Auth0 subjects are printable (``auth0|64f1...``, ``google-oauth2|1098...``,
    enterprise ones such as ``samlp|Contoso|jöhn@contoso.example``). A signed token
    with anything else is refused as a token, before any RPC: a NUL cannot be stored
    in PostgreSQL text and an unpaired surrogate cannot be encoded at all (both were
    a 500 further down); control, format and line-separator characters would forge
    lines in logs and audit trails (``str.isprintable`` refuses all of these, and
    every space but U+0020); padding would make a second player of the same person.
    """
    return (
        isinstance(sub, str)
        and 0 < len(sub) <= MAX_SUBJECT_LENGTH
        and sub.isprintable()
        and sub == sub.strip()
    )


def roles_from_claims(claims: Mapping[str, Any], roles_claim: str) -> frozenset[str]:
    """Every account is a Player; Author comes from Auth0 RBAC roles in the token."""
    granted: Iterable[Any] = claims.get(roles_claim) or []
    if isinstance(granted, str):
        granted = [granted]
    roles = {"player"}
    if any(isinstance(r, str) and r.strip().lower() == AUTHOR_ROLE for r in granted):
        roles.add(AUTHOR_ROLE)
    return frozenset(roles)


class TokenVerifier:
    """Verifies access tokens, remembering the ones it verified until they expire.

    A client sends the same token with every request for up to an hour;
    parsing and checking it again each time was the gateway's largest cost
    after the RPC (docs/performance.md). A remembered token is honoured only
    until its ``exp`` - without the leeway a fresh check allows - and the
    memory is bounded (oldest first out).
    """

    def __init__(
        self,
        issuer: str,
        audience: str,
        keys: JwksCache,
        roles_claim: str,
        cache_size: int = 10_000,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.issuer = issuer
        self.audience = audience
        self._keys = keys
        self._roles_claim = roles_claim
        self._cache_size = cache_size
        self._now = now
        self._verified: OrderedDict[str, tuple[float, Identity]] = OrderedDict()
        self._refreshing = asyncio.Lock()

    def verify(self, token: str) -> Identity:
        remembered = self._verified.get(token)
        if remembered is not None:
            expires_at, identity = remembered
            if self._now() < expires_at:
                return identity
            del self._verified[token]
        identity = self._verify_signature_and_claims(token)
        if self._cache_size > 0:
            self._verified[token] = (float(identity.claims["exp"]), identity)
            while len(self._verified) > self._cache_size:
                self._verified.popitem(last=False)
        return identity

    async def verify_async(self, token: str) -> Identity:
        """``verify`` for the event loop: a refetch of the signing keys (an HTTP call to
        the identity provider, at most once per window) runs in a thread, never here."""
        if token not in self._verified:
            kid = _key_id(token)
            if kid is not None and (self._keys.refresh_due(kid) or not self._keys.loaded):
                async with self._refreshing:  # one fetch; the others wait for its keys
                    if self._keys.refresh_due(kid):
                        await asyncio.to_thread(self._keys.signing_key, kid)
        return self.verify(token)

    def _verify_signature_and_claims(self, token: str) -> Identity:
        if not token or len(token) > MAX_TOKEN_LENGTH:
            raise Unauthorized("invalid_token", "the access token is missing or malformed")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError as exc:
            raise Unauthorized("invalid_token", "the access token is malformed") from exc
        if header.get("alg") not in ALGORITHMS:
            raise Unauthorized("invalid_token", "the access token must be signed with RS256")
        kid = header.get("kid")
        if not isinstance(kid, str) or not kid:
            raise Unauthorized("invalid_token", "the access token names no signing key")
        key = self._keys.signing_key(kid)
        try:
            claims = jwt.decode(
                token,
                key.key,
                algorithms=ALGORITHMS,
                audience=self.audience,
                issuer=self.issuer,
                leeway=LEEWAY_SECONDS,
                options={"require": REQUIRED_CLAIMS},
            )
        except jwt.ExpiredSignatureError as exc:
            raise Unauthorized("token_expired", "the access token has expired") from exc
        except jwt.ImmatureSignatureError as exc:
            raise Unauthorized("token_not_yet_valid", "the access token is not valid yet") from exc
        except jwt.InvalidAudienceError as exc:
            raise Unauthorized("invalid_audience", "the access token is not for this API") from exc
        except jwt.InvalidIssuerError as exc:
            raise Unauthorized("invalid_issuer", "the access token has an unknown issuer") from exc
        except jwt.InvalidTokenError as exc:
            raise Unauthorized("invalid_token", "the access token is invalid") from exc
        sub = claims.get("sub")
        if not usable_subject(sub):
            raise Unauthorized("invalid_token", "the access token has an unusable subject")
        auth_time = claims.get("auth_time")
        return Identity(
            sub=sub,
            roles=roles_from_claims(claims, self._roles_claim),
            auth_time=auth_time if isinstance(auth_time, int) else None,
            claims=claims,
        )


def _key_id(token: str) -> str | None:
    try:
        kid = jwt.get_unverified_header(token).get("kid")
    except jwt.InvalidTokenError:
        return None
    return kid if isinstance(kid, str) and kid else None


def bearer_token(authorization_header: str | None) -> str:
    if not authorization_header:
        raise Unauthorized("missing_token", "send an Authorization: Bearer <access token> header")
    scheme, _, token = authorization_header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("invalid_token", "the Authorization header must be 'Bearer <token>'")
    return token.strip()

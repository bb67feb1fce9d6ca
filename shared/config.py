"""Configuration from environment variables, with documented defaults.

Defaults suit a development machine (PostgreSQL and RabbitMQ on 127.0.0.1).
With ``DECKYARD_ENV=production`` the settings that carry credentials have no
default and must be given, so a forgotten variable fails at start instead of
connecting somewhere with a well-known password.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

SERVICE_NAMES = ("accounts", "authoring", "challenge", "cards", "battle")

DEV_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
DEV_AMQP_URI = "amqp://guest:guest@127.0.0.1:5672/"


class ConfigError(RuntimeError):
    """A required setting is missing or malformed."""


@dataclass(frozen=True)
class Settings:
    """Every setting the platform reads, with its meaning.

    database_url: the PostgreSQL *server*; each service uses its own database
        ``<database_prefix>_<service>`` on it (``DATABASE_URL``).
    database_prefix: prefix of the per-service database names
        (``DATABASE_PREFIX``, default ``deckyard``; tests use a random one).
    amqp_uri: the RabbitMQ broker (``AMQP_URI``).
    rpc_exchange: nameko's RPC exchange (``RPC_EXCHANGE``, default ``nameko-rpc``). It does
        not isolate two stacks on one vhost (every service queue is ``rpc-<service>``
        whatever the exchange): give each stack its own vhost in ``AMQP_URI``.
    auth0_domain / auth0_audience: the Auth0 tenant and API identifier whose
        access tokens the gateway accepts (``AUTH0_DOMAIN``, ``AUTH0_AUDIENCE``).
    auth0_roles_claim: the custom claim carrying Auth0 RBAC role names
        (``AUTH0_ROLES_CLAIM``).
    dev_auth: trust the shipped development issuer instead of Auth0
        (``DEV_AUTH=1``; never set in the Kubernetes manifests).
    clock_control: the test clock (``CLOCK_CONTROL=1``): an operator moves every
        process's clock forward together (shared/test_clock.py); refused without
        ``DEV_AUTH=1``, so never in production.
    bind_host: the address HTTP servers listen on (``BIND_HOST``, default
        127.0.0.1; 0.0.0.0 in containers).
    gateway_port / health_port: HTTP ports of the gateway and of each
        service's health endpoint (``GATEWAY_PORT``, ``HEALTH_PORT``).
    status_port: the gateway's internal port, ``GET /internal/status`` (every
        service's health) for operators; never behind the Ingress (``STATUS_PORT``,
        8090: clear of the health ports a one-process run numbers from 8080).
    rpc_timeout: seconds the gateway waits for a service before answering 503
        (``RPC_TIMEOUT_SECONDS``).
    max_body_bytes: largest request body the gateway reads (``MAX_BODY_BYTES``).
    claim_max_age_seconds: how old a location claim may be (``CLAIM_MAX_AGE_SECONDS``,
        120: the rulebook's provisional limit).
    max_speed_kmh: fastest plausible movement between two location claims
        (``MAX_SPEED_KMH``, 300: ours, see services/challenge/domain/claims.py).
    deletion_reauth_seconds: how recent the caller's login (the token's ``auth_time``)
        must be to delete the account (``DELETION_REAUTH_SECONDS``, 300: ours).
    deletion_digest_secret: the HMAC key of the private digest that keeps a deleted
        identity from coming back for 30 days (``DELETION_DIGEST_SECRET``; accounts
        refuses to start without it in production).
    auth0_mgmt_domain: the Auth0 tenant whose Management API deletes users
        (``AUTH0_MGMT_DOMAIN``, default ``AUTH0_DOMAIN``).
    auth0_mgmt_client_id / auth0_mgmt_client_secret: the machine-to-machine client
        allowed ``delete:users`` (``AUTH0_MGMT_CLIENT_ID``, ``AUTH0_MGMT_CLIENT_SECRET``).
    auth0_mgmt_protocol: ``https`` (``AUTH0_MGMT_PROTOCOL``; ``http`` only for the test
        suite's stand-in, refused in production).
    rate_limit_player_per_minute / rate_limit_player_burst,
    rate_limit_address_per_minute / rate_limit_address_burst: the gateway's token
        buckets for mutating routes, per player (valid token) and per client address
        (token missing or refused) (``RATE_LIMIT_PLAYER_PER_MINUTE`` 120,
        ``RATE_LIMIT_PLAYER_BURST`` 30, ``RATE_LIMIT_ADDRESS_PER_MINUTE`` 600,
        ``RATE_LIMIT_ADDRESS_BURST`` 100: ours, see gateway/ratelimit.py).
    rate_limit_author_per_minute / rate_limit_author_burst: an Author's bucket for its
        writes on the authoring routes, apart from its player's
        (``RATE_LIMIT_AUTHOR_PER_MINUTE`` 600, ``RATE_LIMIT_AUTHOR_BURST`` 120: ours).
    trusted_proxy_hops / trusted_proxy_header: how many proxies in front of the gateway
        append the client address to which header (``TRUSTED_PROXY_HOPS``, 0: none, the
        socket peer is the client and headers are ignored; ``TRUSTED_PROXY_HEADER``,
        ``X-Forwarded-For`` or ``Forwarded``); see gateway/clientaddress.py.
    api_servers: the API's base URLs with its version, the OpenAPI document's
        ``servers`` (``API_SERVERS``, comma-separated; default ``/v1``: the version on
        the host that served it).
    cors_origins: the browser origins allowed to call the API from another origin
        (``CORS_ORIGINS``, comma-separated exact origins such as
        ``https://play.deckyard.example.com``; empty, the default: no CORS headers).
    web_root: the built browser client the gateway serves at ``/`` (``WEB_ROOT``; default
        ``web/dist`` of the source tree when it exists; empty: no client served).
    auth0_client_id: the browser client's Auth0 application (a public id; ``AUTH0_CLIENT_ID``).
    map_tiles_url / map_tiles_attribution: the client's map tiles, a ``{z}/{x}/{y}``
        template and its credit (``MAP_TILES_URL``, ``MAP_TILES_ATTRIBUTION``; empty: the
        client lists events without a map).
    player_lease_seconds: how long the gateway trusts accounts' "this player is
        active" before asking again (``PLAYER_LEASE_SECONDS``, 1: ours; 0 asks on
        every request); deleting an account waits this long, see gateway/players.py.
    player_trust_seconds: how long the gateway trusts that answer while it is caught up
        with the push stream, which carries every lock (``PLAYER_TRUST_SECONDS``, 300:
        ours; 0 keeps only the short lease); see gateway/players.py.
    """

    database_url: str
    amqp_uri: str
    database_prefix: str = "deckyard"
    rpc_exchange: str = "nameko-rpc"
    auth0_domain: str = ""
    auth0_audience: str = "https://api.deckyard.dev"
    auth0_roles_claim: str = "https://deckyard.dev/roles"
    dev_auth: bool = False
    clock_control: bool = False
    bind_host: str = "127.0.0.1"
    gateway_port: int = 8000
    health_port: int = 8080
    status_port: int = 8090
    rpc_timeout: float = 5.0
    max_body_bytes: int = 64 * 1024
    claim_max_age_seconds: float = 120.0
    max_speed_kmh: float = 300.0
    production: bool = False
    extra: Mapping[str, str] = field(default_factory=dict, repr=False)
    deletion_reauth_seconds: float = 300.0
    deletion_digest_secret: str = field(default="", repr=False)
    auth0_mgmt_domain: str = ""
    auth0_mgmt_client_id: str = ""
    auth0_mgmt_client_secret: str = field(default="", repr=False)
    auth0_mgmt_protocol: str = "https"
    rate_limit_player_per_minute: float = 120.0
    rate_limit_player_burst: int = 30
    rate_limit_address_per_minute: float = 600.0
    rate_limit_address_burst: int = 100
    rate_limit_author_per_minute: float = 600.0
    rate_limit_author_burst: int = 120
    player_lease_seconds: float = 1.0
    player_trust_seconds: float = 300.0
    trusted_proxy_hops: int = 0
    trusted_proxy_header: str = "X-Forwarded-For"
    log_format: str = "text"
    log_level: str = "INFO"
    api_servers: tuple[str, ...] = ("/v1",)
    cors_origins: tuple[str, ...] = ()
    web_root: str = ""
    auth0_client_id: str = ""
    map_tiles_url: str = ""
    map_tiles_attribution: str = ""
    quorum_queues: bool = False  # QUORUM_QUEUES: the services' queues replicated (shared/queues.py)

    def database_url_for(self, service: str) -> URL:
        """The SQLAlchemy URL of one service's own database (psycopg 3 driver)."""
        if not self.database_url:  # production without one: only the gateway may do so
            raise ConfigError("DATABASE_URL must be set when DECKYARD_ENV=production")
        return service_database_url(self.database_url, f"{self.database_prefix}_{service}")

    def nameko_config(self, **overrides: object) -> dict[str, object]:
        """The config dict nameko containers are started with."""
        config: dict[str, object] = {
            "AMQP_URI": self.amqp_uri,
            "rpc_exchange": self.rpc_exchange,
            "serializer": "json",
            "max_workers": 10,
            "parent_calls_tracked": 10,
            "DECKYARD_SETTINGS": self,
            "QUORUM_QUEUES": self.quorum_queues,
        }
        config.update(overrides)
        return config


def service_database_url(server_url: str, database: str) -> URL:
    from sqlalchemy.engine import make_url  # here: the gateway never imports SQLAlchemy

    url = make_url(server_url).set(drivername="postgresql+psycopg", database=database)
    return url


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from exc
    if not math.isfinite(value) or value < 0:
        raise ConfigError(f"{name} must be a finite, non-negative number, got {raw!r}")
    return value


def _whole_number(env: Mapping[str, str], name: str, default: int) -> int:
    value = _number(env, name, default)
    if value != int(value):
        raise ConfigError(f"{name} must be a whole number, got {env.get(name)!r}")
    return int(value)


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read settings from ``env`` (the process environment by default)."""
    env = os.environ if env is None else env
    production = env.get("DECKYARD_ENV", "development").strip().lower() == "production"

    def required(name: str, dev_default: str) -> str:
        value = env.get(name, "").strip()
        if value:
            return value
        if production:
            raise ConfigError(f"{name} must be set when DECKYARD_ENV=production")
        return dev_default

    dev_auth = _flag(env.get("DEV_AUTH"))
    if dev_auth and production:
        raise ConfigError("DEV_AUTH cannot be enabled when DECKYARD_ENV=production")
    clock_control = _flag(env.get("CLOCK_CONTROL"))
    if clock_control and not dev_auth:  # a stack whose time anyone may move is a test stack
        raise ConfigError("CLOCK_CONTROL=1 needs DEV_AUTH=1 (a test stack, never production)")
    auth0_domain = env.get("AUTH0_DOMAIN", "").strip()
    if production and not auth0_domain:
        raise ConfigError("AUTH0_DOMAIN must be set when DECKYARD_ENV=production")
    auth0_mgmt_protocol = env.get("AUTH0_MGMT_PROTOCOL", "").strip().lower() or "https"
    if auth0_mgmt_protocol not in ("https", "http"):
        raise ConfigError(f"AUTH0_MGMT_PROTOCOL must be https or http, got {auth0_mgmt_protocol!r}")
    if production and auth0_mgmt_protocol != "https":
        raise ConfigError("AUTH0_MGMT_PROTOCOL must be https when DECKYARD_ENV=production")

    return Settings(
        # The gateway has no database: in production a process without DATABASE_URL
        # starts, and refuses only when it opens a service's database.
        database_url=env.get("DATABASE_URL", "").strip()
        or ("" if production else DEV_DATABASE_URL),
        amqp_uri=required("AMQP_URI", DEV_AMQP_URI),
        database_prefix=env.get("DATABASE_PREFIX", "deckyard").strip() or "deckyard",
        rpc_exchange=env.get("RPC_EXCHANGE", "nameko-rpc").strip() or "nameko-rpc",
        auth0_domain=auth0_domain,
        auth0_audience=env.get("AUTH0_AUDIENCE", "").strip() or "https://api.deckyard.dev",
        auth0_roles_claim=env.get("AUTH0_ROLES_CLAIM", "").strip() or "https://deckyard.dev/roles",
        dev_auth=dev_auth,
        clock_control=clock_control,
        bind_host=env.get("BIND_HOST", "127.0.0.1").strip() or "127.0.0.1",
        gateway_port=_whole_number(env, "GATEWAY_PORT", 8000),
        health_port=_whole_number(env, "HEALTH_PORT", 8080),
        status_port=_whole_number(env, "STATUS_PORT", 8090),
        rpc_timeout=_number(env, "RPC_TIMEOUT_SECONDS", 5.0),
        max_body_bytes=_whole_number(env, "MAX_BODY_BYTES", 64 * 1024),
        claim_max_age_seconds=_number(env, "CLAIM_MAX_AGE_SECONDS", 120.0),
        max_speed_kmh=_number(env, "MAX_SPEED_KMH", 300.0),
        production=production,
        extra={k: v for k, v in env.items() if k.startswith(("AUTH0_MGMT_", "AUTH0_MANAGEMENT_"))},
        deletion_reauth_seconds=_number(env, "DELETION_REAUTH_SECONDS", 300.0),
        deletion_digest_secret=env.get("DELETION_DIGEST_SECRET", "").strip(),
        auth0_mgmt_domain=env.get("AUTH0_MGMT_DOMAIN", "").strip() or auth0_domain,
        auth0_mgmt_client_id=env.get("AUTH0_MGMT_CLIENT_ID", "").strip(),
        auth0_mgmt_client_secret=env.get("AUTH0_MGMT_CLIENT_SECRET", "").strip(),
        auth0_mgmt_protocol=auth0_mgmt_protocol,
        rate_limit_player_per_minute=_number(env, "RATE_LIMIT_PLAYER_PER_MINUTE", 120.0),
        rate_limit_player_burst=_whole_number(env, "RATE_LIMIT_PLAYER_BURST", 30),
        rate_limit_address_per_minute=_number(env, "RATE_LIMIT_ADDRESS_PER_MINUTE", 600.0),
        rate_limit_address_burst=_whole_number(env, "RATE_LIMIT_ADDRESS_BURST", 100),
        rate_limit_author_per_minute=_number(env, "RATE_LIMIT_AUTHOR_PER_MINUTE", 600.0),
        rate_limit_author_burst=_whole_number(env, "RATE_LIMIT_AUTHOR_BURST", 120),
        player_lease_seconds=_player_lease_seconds(env),
        player_trust_seconds=_player_trust_seconds(env),
        trusted_proxy_hops=_whole_number(env, "TRUSTED_PROXY_HOPS", 0),
        trusted_proxy_header=_forwarding_header(env),
        log_format=_choice(env, "LOG_FORMAT", ("text", "json"), "text"),
        log_level=_choice(env, "LOG_LEVEL", ("DEBUG", "INFO", "WARNING", "ERROR"), "INFO"),
        api_servers=_list(env, "API_SERVERS") or ("/v1",),
        cors_origins=_origins(env),
        web_root=env.get("WEB_ROOT", "").strip() or _default_web_root(),
        auth0_client_id=env.get("AUTH0_CLIENT_ID", "").strip(),
        map_tiles_url=env.get("MAP_TILES_URL", "").strip(),
        map_tiles_attribution=env.get("MAP_TILES_ATTRIBUTION", "").strip(),
        quorum_queues=_flag(env.get("QUORUM_QUEUES")),
    )


def _default_web_root() -> str:
    built = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "web", "dist")
    return built if os.path.isfile(os.path.join(built, "index.html")) else ""


def _list(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in env.get(name, "").split(",") if item.strip())


def _origins(env: Mapping[str, str]) -> tuple[str, ...]:
    """Exact origins (scheme://host[:port], no path, no wildcard): a browser sends
    exactly that in ``Origin``, and only an exact match is ever allowed."""
    origins = _list(env, "CORS_ORIGINS")
    for origin in origins:
        scheme, _, rest = origin.partition("://")
        if scheme not in ("http", "https") or not rest or "/" in rest or "*" in rest:
            raise ConfigError(
                f"CORS_ORIGINS must list origins such as https://app.example.com, got {origin!r}"
            )
    return tuple(origin.lower() for origin in origins)


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    raw = env.get(name, "").strip() or default
    for choice in choices:
        if raw.lower() == choice.lower():
            return choice
    raise ConfigError(f"{name} must be one of {', '.join(choices)}, got {raw!r}")


FORWARDING_HEADERS = ("X-Forwarded-For", "Forwarded")  # gateway/clientaddress.py reads these


def _forwarding_header(env: Mapping[str, str]) -> str:
    raw = env.get("TRUSTED_PROXY_HEADER", "").strip() or FORWARDING_HEADERS[0]
    for header in FORWARDING_HEADERS:
        if raw.lower() == header.lower():
            return header
    raise ConfigError(f"TRUSTED_PROXY_HEADER must be X-Forwarded-For or Forwarded, got {raw!r}")


MAX_PLAYER_LEASE_SECONDS = 10.0  # a deletion request waits this long at most


def _player_lease_seconds(env: Mapping[str, str]) -> float:
    value = _number(env, "PLAYER_LEASE_SECONDS", 1.0)
    if value > MAX_PLAYER_LEASE_SECONDS:
        raise ConfigError(
            f"PLAYER_LEASE_SECONDS must be at most {MAX_PLAYER_LEASE_SECONDS:g} "
            f"(a deletion request waits that long), got {value:g}"
        )
    return value


MAX_PLAYER_TRUST_SECONDS = 3600.0


def _player_trust_seconds(env: Mapping[str, str]) -> float:
    value = _number(env, "PLAYER_TRUST_SECONDS", 300.0)
    if value > MAX_PLAYER_TRUST_SECONDS:
        raise ConfigError(
            f"PLAYER_TRUST_SECONDS must be at most {MAX_PLAYER_TRUST_SECONDS:g}, got {value:g}"
        )
    return value


def settings_from_nameko_config(config: Mapping[str, object]) -> Settings:
    """The Settings a container was started with (or the environment's)."""
    settings = config.get("DECKYARD_SETTINGS")
    if isinstance(settings, Settings):
        return settings
    return load_settings()

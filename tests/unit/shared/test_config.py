"""Settings from the environment: development defaults, production strictness."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.config import (
    DEV_AMQP_URI,
    DEV_DATABASE_URL,
    ConfigError,
    Settings,
    load_settings,
    settings_from_nameko_config,
)

PRODUCTION = {
    "DECKYARD_ENV": "production",
    "DATABASE_URL": "postgresql://app:s3cret@db.internal:6543/postgres",
    "AMQP_URI": "amqp://app:s3cret@mq.internal:5672/",
    "AUTH0_DOMAIN": "deckyard.eu.auth0.com",
}


def test_development_defaults_point_at_local_servers():
    settings = load_settings({})

    assert settings.production is False
    assert settings.database_url == DEV_DATABASE_URL
    assert settings.amqp_uri == DEV_AMQP_URI
    assert settings.database_prefix == "deckyard"
    assert settings.rpc_exchange == "nameko-rpc"
    assert settings.auth0_domain == ""
    assert settings.auth0_audience == "https://api.deckyard.dev"
    assert settings.auth0_roles_claim == "https://deckyard.dev/roles"
    assert settings.dev_auth is False
    assert settings.bind_host == "127.0.0.1"
    assert settings.gateway_port == 8000
    assert settings.health_port == 8080
    assert settings.rpc_timeout == 5.0
    assert settings.max_body_bytes == 64 * 1024


def test_blank_values_fall_back_to_defaults_in_development():
    settings = load_settings(
        {"DATABASE_URL": "  ", "AMQP_URI": "", "DATABASE_PREFIX": " ", "GATEWAY_PORT": ""}
    )

    assert settings.database_url == DEV_DATABASE_URL
    assert settings.amqp_uri == DEV_AMQP_URI
    assert settings.database_prefix == "deckyard"
    assert settings.gateway_port == 8000


def test_explicit_values_override_defaults():
    settings = load_settings(
        {
            "DATABASE_URL": "postgresql://u@h/db",
            "DATABASE_PREFIX": "t123",
            "GATEWAY_PORT": "9001",
            "RPC_TIMEOUT_SECONDS": "2.5",
            "MAX_BODY_BYTES": "1024",
            "BIND_HOST": "0.0.0.0",
        }
    )

    assert settings.database_url == "postgresql://u@h/db"
    assert settings.database_prefix == "t123"
    assert settings.gateway_port == 9001
    assert settings.rpc_timeout == 2.5
    assert settings.max_body_bytes == 1024
    assert settings.bind_host == "0.0.0.0"


@pytest.mark.parametrize("value", ["1", "true", "YES", " on "])
def test_dev_auth_flag_accepts_the_usual_truthy_spellings(value):
    assert load_settings({"DEV_AUTH": value}).dev_auth is True


@pytest.mark.parametrize("value", ["0", "false", "no", "", "enabled"])
def test_dev_auth_flag_is_off_for_anything_else(value):
    assert load_settings({"DEV_AUTH": value}).dev_auth is False


def test_production_with_every_required_setting_loads():
    settings = load_settings(PRODUCTION)

    assert settings.production is True
    assert settings.database_url == PRODUCTION["DATABASE_URL"]
    assert settings.amqp_uri == PRODUCTION["AMQP_URI"]
    assert settings.auth0_domain == "deckyard.eu.auth0.com"


def test_production_is_recognised_case_and_space_insensitively():
    assert load_settings({**PRODUCTION, "DECKYARD_ENV": " Production "}).production is True


def test_production_without_a_database_url_refuses_only_a_database():
    """The gateway runs without one (it holds no database credentials); a service
    opening its database is refused with the setting's name."""
    settings = load_settings({k: v for k, v in PRODUCTION.items() if k != "DATABASE_URL"})
    assert settings.database_url == ""
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        settings.database_url_for("cards")
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        load_settings({**PRODUCTION, "DATABASE_URL": "  "}).database_url_for("cards")


@pytest.mark.parametrize("missing", ["AMQP_URI", "AUTH0_DOMAIN"])
def test_production_refuses_to_start_without_a_credential_setting(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}

    with pytest.raises(ConfigError, match=missing):
        load_settings(env)


@pytest.mark.parametrize("missing", ["AMQP_URI", "AUTH0_DOMAIN"])
def test_production_treats_a_blank_credential_setting_as_missing(missing):
    with pytest.raises(ConfigError, match=missing):
        load_settings({**PRODUCTION, missing: "   "})


def test_production_refuses_dev_auth():
    with pytest.raises(ConfigError, match="DEV_AUTH"):
        load_settings({**PRODUCTION, "DEV_AUTH": "1"})


def test_production_accepts_dev_auth_explicitly_off():
    assert load_settings({**PRODUCTION, "DEV_AUTH": "0"}).dev_auth is False


def test_database_url_for_uses_psycopg3_and_a_per_service_database():
    settings = load_settings(PRODUCTION)

    url = settings.database_url_for("accounts")

    assert url.drivername == "postgresql+psycopg"
    assert url.database == "deckyard_accounts"
    assert url.username == "app"
    assert url.password == "s3cret"
    assert url.host == "db.internal"
    assert url.port == 6543


def test_database_url_for_uses_the_configured_prefix():
    settings = load_settings({"DATABASE_PREFIX": "t_ab12"})

    assert settings.database_url_for("cards").database == "t_ab12_cards"


@given(
    service=st.sampled_from(["accounts", "authoring", "challenge", "cards", "battle"]),
    prefix=st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True),
)
def test_database_url_for_never_changes_the_server_or_credentials(service, prefix):
    settings = Settings(
        database_url="postgresql://user:p%40ss@pg.example:5433/ignored",
        amqp_uri=DEV_AMQP_URI,
        database_prefix=prefix,
    )

    url = settings.database_url_for(service)

    assert url.database == f"{prefix}_{service}"
    assert (url.username, url.password, url.host, url.port) == ("user", "p@ss", "pg.example", 5433)
    assert url.drivername == "postgresql+psycopg"


@pytest.mark.parametrize(
    "name", ["GATEWAY_PORT", "HEALTH_PORT", "RPC_TIMEOUT_SECONDS", "MAX_BODY_BYTES"]
)
@pytest.mark.parametrize("raw", ["eighty", "80x", "1,5", "--1"])
def test_malformed_numbers_raise_config_error_naming_the_setting(name, raw):
    with pytest.raises(ConfigError, match=name):
        load_settings({name: raw})


@pytest.mark.parametrize("raw", ["nan", "inf"])
def test_non_finite_port_raises_config_error(raw):
    with pytest.raises(ConfigError, match="GATEWAY_PORT"):
        load_settings({"GATEWAY_PORT": raw})


def test_only_management_credentials_are_kept_as_extra():
    settings = load_settings(
        {"AUTH0_MGMT_CLIENT_ID": "id", "AUTH0_MANAGEMENT_AUDIENCE": "aud", "HOME": "/root"}
    )

    assert dict(settings.extra) == {
        "AUTH0_MGMT_CLIENT_ID": "id",
        "AUTH0_MANAGEMENT_AUDIENCE": "aud",
    }


def test_nameko_config_carries_the_settings_and_accepts_overrides():
    settings = load_settings({})

    config = settings.nameko_config(max_workers=3)

    assert config["AMQP_URI"] == DEV_AMQP_URI
    assert config["serializer"] == "json"
    assert config["max_workers"] == 3
    assert settings_from_nameko_config(config) is settings


@pytest.mark.parametrize(("raw", "seconds"), [(None, 1.0), ("0", 0.0), ("2.5", 2.5), ("10", 10.0)])
def test_the_player_lease_defaults_to_a_second_and_may_be_off(raw, seconds):
    env = {} if raw is None else {"PLAYER_LEASE_SECONDS": raw}
    assert load_settings(env).player_lease_seconds == seconds


@pytest.mark.parametrize("raw", ["10.01", "3600", "-1", "nan"])
def test_a_player_lease_a_deletion_could_not_wait_out_is_refused(raw):
    with pytest.raises(ConfigError, match="PLAYER_LEASE_SECONDS"):
        load_settings({"PLAYER_LEASE_SECONDS": raw})


def test_no_proxy_is_trusted_unless_configured():
    settings = load_settings({})
    assert (settings.trusted_proxy_hops, settings.trusted_proxy_header) == (0, "X-Forwarded-For")


@pytest.mark.parametrize(
    ("raw", "header"),
    [("forwarded", "Forwarded"), (" X-FORWARDED-FOR ", "X-Forwarded-For"), ("", "X-Forwarded-For")],
)
def test_trusted_proxies_are_read(raw, header):
    settings = load_settings({"TRUSTED_PROXY_HOPS": "2", "TRUSTED_PROXY_HEADER": raw})
    assert (settings.trusted_proxy_hops, settings.trusted_proxy_header) == (2, header)


@pytest.mark.parametrize(
    "env",
    [
        {"TRUSTED_PROXY_HOPS": "-1"},
        {"TRUSTED_PROXY_HOPS": "1.5"},
        {"TRUSTED_PROXY_HOPS": "one"},
        {"TRUSTED_PROXY_HEADER": "X-Real-IP"},
    ],
)
def test_malformed_trusted_proxy_settings_are_refused(env):
    with pytest.raises(ConfigError, match=next(iter(env))):
        load_settings(env)

"""Each service's own database role (docs/deploy.md, "Database roles"): after a migration
the role reads and writes the rows of its service's tables, changes no schema, and
cannot even connect to another service's database."""

import uuid
from dataclasses import replace

import psycopg
import pytest
from sqlalchemy.engine import URL

from shared.migrations import drop_database, service_role, upgrade
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration


@pytest.fixture
def own(settings):
    own = replace(settings, database_prefix=f"{settings.database_prefix}_r{random_suffix()}")
    yield own
    for service in ("accounts", "challenge"):
        drop_database(own, service)


@pytest.fixture
def accounts_role(own):
    """The role an operator creates for accounts (no password: the test server trusts)."""
    role = service_role(own, "accounts")
    admin = _conninfo(own.database_url_for("accounts").set(database="postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
    yield role
    drop_database(own, "accounts")  # its grants go with it: the role can then be dropped
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def _conninfo(url: URL, user: str | None = None) -> str:
    if user is not None:
        url = url.set(username=user, password=None)
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def test_a_service_role_uses_its_own_tables_and_nothing_else(own, accounts_role):
    upgrade(own, "accounts")
    upgrade(own, "challenge")
    event = uuid.uuid4()
    as_accounts = _conninfo(own.database_url_for("accounts"), user=accounts_role)
    with psycopg.connect(as_accounts) as conn:
        conn.execute(  # its sequence too: seq is a bigserial
            "INSERT INTO outbox (event_id, exchange, routing_key, payload, created_at) "
            "VALUES (%s, 'accounts.events', 'Test', '{}', now())",
            (event,),
        )
        found = conn.execute("SELECT count(*) FROM outbox WHERE event_id = %s", (event,))
        assert found.fetchone() == (1,)
        conn.execute("DELETE FROM outbox WHERE event_id = %s", (event,))
        conn.commit()
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("CREATE TABLE sneaky (id int)")
        conn.rollback()
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("ALTER TABLE outbox ADD COLUMN sneaky int")
        conn.rollback()
    as_accounts_elsewhere = _conninfo(own.database_url_for("challenge"), user=accounts_role)
    with pytest.raises(psycopg.OperationalError, match="permission denied"):
        psycopg.connect(as_accounts_elsewhere)


def test_a_missing_role_is_not_an_error_and_the_database_still_refuses_strangers(own):
    upgrade(own, "challenge")  # no role deckyard_..._challenge: nothing to grant
    stranger = f"stranger_{random_suffix()}"
    admin = _conninfo(own.database_url_for("challenge").set(database="postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{stranger}" LOGIN')
    try:
        with pytest.raises(psycopg.OperationalError, match="permission denied"):
            psycopg.connect(_conninfo(own.database_url_for("challenge"), user=stranger))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP ROLE "{stranger}"')

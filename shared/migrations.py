"""Creating each service's database and running its Alembic migrations.

Every service keeps its migrations in ``services/<name>/migrations``; there is
no alembic.ini: the configuration is built here, so ``deckyard migrate`` and
the tests run migrations the same way.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import psycopg
from alembic import command, context
from alembic.config import Config
from psycopg import sql
from sqlalchemy import MetaData, create_engine, pool, text
from sqlalchemy.engine import URL, make_url

from shared.config import Settings

# Tables that extensions own (PostGIS) are not ours to compare or drop.
EXTENSION_TABLES = frozenset({"spatial_ref_sys"})


def include_name(name: str | None, type_: str, parent_names: object) -> bool:
    return not (type_ == "table" and name in EXTENSION_TABLES)


# One number for every service: concurrent `deckyard migrate` runs take turns.
MIGRATION_LOCK_KEY = 0x0DEC_CA4D


def _plain_conninfo(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def ensure_database(settings: Settings, service: str) -> bool:
    """Create the service's database if it is missing; True if it was created."""
    target = settings.database_url_for(service)
    server = make_url(settings.database_url)
    with psycopg.connect(_plain_conninfo(server), autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (target.database,)
        ).fetchone()
        if exists:
            return False
        try:
            conn.execute(f'CREATE DATABASE "{target.database}"')
        except psycopg.errors.DuplicateDatabase:  # another migrate run was first
            return False
        return True


def drop_database(settings: Settings, service: str) -> None:
    target = settings.database_url_for(service)
    server = make_url(settings.database_url)
    with psycopg.connect(_plain_conninfo(server), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)')


def alembic_config(settings: Settings, service: str) -> Config:
    package = importlib.import_module(f"services.{service}")
    assert package.__file__ is not None
    config = Config()
    config.set_main_option("script_location", str(Path(package.__file__).parent / "migrations"))
    url = settings.database_url_for(service).render_as_string(hide_password=False)
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(settings: Settings, service: str, revision: str = "head") -> None:
    ensure_database(settings, service)
    command.upgrade(alembic_config(settings, service), revision)
    grant_service_role(settings, service)


def service_role(settings: Settings, service: str) -> str:
    """The login role a service runs as in production (docs/deploy.md, "Database roles"):
    named like its database, ``deckyard_cards``."""
    return f"{settings.database_prefix}_{service}"


def grant_service_role(settings: Settings, service: str) -> bool:
    """Give the service's own role, when the operator has created it, exactly what a
    running service needs on its database and nothing elsewhere: connect, and read and
    write the rows of its tables (no DDL: only migrations change the schema, as the
    migration role). Every service database refuses connections from other roles
    (CONNECT revoked from PUBLIC), so one service's credentials cannot open another's
    data. Run after every migration, so new tables are granted too. True if granted."""
    target = settings.database_url_for(service)
    role = service_role(settings, service)
    with psycopg.connect(_plain_conninfo(target), autocommit=True) as conn:
        database = sql.Identifier(target.database or "")
        conn.execute(
            sql.SQL("REVOKE CONNECT, TEMPORARY ON DATABASE {} FROM PUBLIC").format(database)
        )
        conn.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        if not exists:
            return False
        grantee = sql.Identifier(role)
        for statement in (
            "GRANT CONNECT ON DATABASE {database} TO {role}",
            "GRANT USAGE ON SCHEMA public TO {role}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
            "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {role}",
        ):
            conn.execute(sql.SQL(statement).format(database=database, role=grantee))
        return True


def run_migrations_online(target_metadata: MetaData) -> None:
    """The body of every service's ``migrations/env.py``."""
    config = context.config
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "", poolclass=pool.NullPool)
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        connection.commit()
        try:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                compare_type=True,
                compare_server_default=True,
                include_name=include_name,
            )
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
            connection.commit()
    engine.dispose()

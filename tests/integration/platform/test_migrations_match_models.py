"""Each service's models and migrations describe the same tables (checked on PostgreSQL)."""

import importlib

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from shared.config import SERVICE_NAMES
from shared.migrations import include_name

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("service", SERVICE_NAMES)
def test_models_and_migrations_agree(settings, service):
    metadata = importlib.import_module(f"services.{service}.orm").metadata
    engine = create_engine(settings.database_url_for(service))
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn,
            opts={
                "compare_type": True,
                "compare_server_default": True,
                "include_name": include_name,
            },
        )
        differences = compare_metadata(context, metadata)
    engine.dispose()
    assert differences == []


@pytest.mark.parametrize("service", SERVICE_NAMES)
def test_every_service_database_has_outbox_and_processed_messages(settings, service):
    engine = create_engine(settings.database_url_for(service))
    tables = set(inspect(engine).get_table_names())
    engine.dispose()
    assert {"outbox", "processed_messages", "alembic_version"} <= tables


def test_challenge_database_has_postgis(settings):
    engine = create_engine(settings.database_url_for("challenge"))
    with engine.connect() as conn:
        # Two points 100 m apart on geography: within 101 m, not within 99 m.
        inside, outside = conn.exec_driver_sql(
            "SELECT ST_DWithin(a, b, 101), ST_DWithin(a, b, 99) "
            "FROM (SELECT ST_GeogFromText('POINT(13.4050 52.5200)') AS a, "
            "ST_Project(ST_GeogFromText('POINT(13.4050 52.5200)'), 100, 0) AS b) AS p"
        ).one()
    engine.dispose()
    assert inside is True
    assert outside is False

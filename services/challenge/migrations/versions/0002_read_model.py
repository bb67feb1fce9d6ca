"""read model of published questions, challenges, events and campaigns

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from typing import Any

import sqlalchemy as sa
from alembic import op
from geoalchemy2 import Geography
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _published() -> list[sa.Column[Any]]:
    return [
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
    ]


def upgrade() -> None:
    op.create_table(
        "questions",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("body", postgresql.JSONB(), nullable=False),
        *_published(),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("question_ids", postgresql.JSONB(), nullable=False),
        *_published(),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column(
            "geog",
            Geography(geometry_type="POINT", srid=4326, spatial_index=False),
            nullable=False,
        ),
        sa.Column("radius_m", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("challenge_id", sa.Uuid(), nullable=False),
        sa.Column("reward_definition_id", sa.Uuid(), nullable=False),
        *_published(),
    )
    op.create_index("ix_events_geog", "events", ["geog"], postgresql_using="gist")
    op.create_table(
        "campaigns",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("event_ids", postgresql.JSONB(), nullable=False),
        *_published(),
    )


def downgrade() -> None:
    for table in ("campaigns", "events", "challenges", "questions"):
        op.drop_table(table)

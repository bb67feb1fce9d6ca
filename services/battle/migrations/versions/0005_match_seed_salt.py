"""matches.seed_salt: the salt of the seed commitment shown from a match's first move

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

Expand only (docs/deploy.md): a nullable column. A match started before it, or by the
previous release during a rolling update, has no salt: it shows no commitment and
reveals nothing (services/battle/match_seeds.py).
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("seed_salt", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "seed_salt")

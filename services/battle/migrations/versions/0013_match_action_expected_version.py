"""The expected version a keyed request was made at, logged with its idempotency key.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03

A seat's expected version is the version that seat sees, which another seat's hidden
actions do not move (a Chronovore row before its lock: docs/chronovore.md, "Face
down"); it is no longer always the step's place in the log less one, so a retried key
is compared with the version it was first sent at. Null on the rows before it (and on
unkeyed rows): their place in the log says it. A nullable column: instant, and either
release may run beside it.
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("match_actions", sa.Column("expected_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("match_actions", "expected_version")

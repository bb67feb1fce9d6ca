"""A match's state kept in its row, compressed with lz4 (issue 15, docs/performance.md
"What is left, by size", item 4): the state (about 6.5 KB of JSON, 2.5 KB compressed) is
written at every action. pglz into the TOAST table cost PostgreSQL 0.50-0.58 ms of CPU an
update, measured in isolation; lz4 with ``STORAGE MAIN`` (compressed, kept in the row:
no TOAST chunks to write and delete) 0.37-0.38 ms.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02

Both settings apply to values written from now on; nothing is rewritten, so the
migration is instant and either release may run beside it. lz4 needs a PostgreSQL built
with it (Debian's and the official images are).
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE matches ALTER COLUMN state SET COMPRESSION lz4, "
        "ALTER COLUMN state SET STORAGE MAIN"
    )


def downgrade() -> None:
    op.execute(
        "ALTER TABLE matches ALTER COLUMN state SET COMPRESSION pglz, "
        "ALTER COLUMN state SET STORAGE EXTENDED"
    )

"""one active card definition per lineage (a replacement supersedes its original)

Existing rows are carried over: each card already has its lineage (authoring sent it).
Where a lineage has more than one active version (a replacement was published before
this), the newest stays active and the older ones are retired as of its publication.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        UPDATE card_definitions AS old
        SET retired_at = newest.published_at
        FROM (
            SELECT DISTINCT ON (lineage_id) id, lineage_id, published_at
            FROM card_definitions
            WHERE retired_at IS NULL
            ORDER BY lineage_id, published_at DESC, id DESC
        ) AS newest
        WHERE old.lineage_id = newest.lineage_id
          AND old.id <> newest.id
          AND old.retired_at IS NULL
        """
    )
    op.create_index(
        "uq_card_definitions_active_lineage",
        "card_definitions",
        ["lineage_id"],
        unique=True,
        postgresql_where="retired_at IS NULL",
    )


def downgrade() -> None:
    op.drop_index("uq_card_definitions_active_lineage", table_name="card_definitions")

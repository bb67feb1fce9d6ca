"""one published version per card lineage: older published versions are superseded

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

Each existing card is already its own lineage (or shares its original's, when it was
made as a replacement). Before this revision a published replacement left its
original published too; here every card lineage keeps only its newest published
version, and the older ones are retired as of its publication, with the audit entry
a replacement's publication now writes. No ContentRetired is sent: the cards service's
own migration (cards 0006) applies the same rule to its read model.
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

NEWEST = """
    SELECT DISTINCT ON (lineage_id) id, lineage_id, published_at
    FROM content
    WHERE state = 'published' AND kind IN ('creature', 'power_card')
    ORDER BY lineage_id, published_at DESC, id DESC
"""


def upgrade() -> None:
    op.execute(
        f"""
        WITH superseded AS (
            UPDATE content AS old
            SET state = 'retired', retired_at = newest.published_at,
                updated_at = newest.published_at, version = old.version + 1
            FROM ({NEWEST}) AS newest
            WHERE old.lineage_id = newest.lineage_id
              AND old.id <> newest.id
              AND old.state = 'published'
            RETURNING old.id, old.version, newest.id AS by_id, newest.published_at AS at
        )
        INSERT INTO content_audit
            (content_id, version, actor, at, action, from_state, to_state, reason)
        SELECT id, version, 'deckyard|migration', at, 'supersede', 'published', 'retired',
               'superseded by ' || by_id
        FROM superseded
        """
    )


def downgrade() -> None:
    pass  # retirement is final (rulebook); the audit entries say what happened

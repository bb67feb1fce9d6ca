"""card name keys recomputed with the look-alike rules (NFKC, invisibles, homoglyphs)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

Existing keys were made by the earlier rule (case and whitespace only). Plain
ASCII names get the same key either way; others may now collide with names
that look the same. The migration recomputes every card's key and logs each
pair of lineages that now share one (authors resolve those by renaming, since
both cards already exist); it never deletes or renames content itself.
"""

import logging
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

from services.authoring.kinds import name_key

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")
KEY_LENGTH = 80  # the column's size


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.text(
            "SELECT id, lineage_id, body->>'name' AS name FROM content "
            "WHERE kind IN ('creature', 'power_card') AND body ? 'name'"
        )
    ).all()
    lineages_by_key: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        key = name_key(str(row.name))
        if not key or len(key) > KEY_LENGTH:
            log.warning("content %s keeps its old name key: %r has no usable key", row.id, row.name)
            continue
        conn.execute(
            sa.text("UPDATE content SET name_key = :key WHERE id = :id"), {"key": key, "id": row.id}
        )
        lineages_by_key[key].add(str(row.lineage_id))
    for key, lineages in lineages_by_key.items():
        if len(lineages) > 1:
            log.warning("card name %r is now shared by lineages %s", key, sorted(lineages))


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(
        sa.text(
            "UPDATE content SET name_key = "
            "lower(regexp_replace(btrim(body->>'name'), '\\s+', ' ', 'g')) "
            "WHERE kind IN ('creature', 'power_card') AND body ? 'name'"
        )
    )

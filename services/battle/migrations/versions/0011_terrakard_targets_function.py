"""TerraKard's arena targets as a function of the database, ``terrakard_targets``, whose
plan PostgreSQL makes once per connection (a generic plan, cached by PL/pgSQL) instead
of on every call: planning the statement cost PostgreSQL about three times what running
it did (docs/performance.md, "The arena's targets, planned once").

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02

The query is 0008's (the closest players in trophies found by two index walks, one
each way from the attacker's trophies, each stopping at ``size``), ordered and cut to
``size`` here rather than in Python. ``plan_cache_mode = force_generic_plan`` holds
inside the function only: with the parameters unknown, the plan is those two ordered
index walks (``LIMIT size`` each), whatever the values.

Deploy this before the code that calls it (migrations run as a Job before the
services roll out); the code before it does not call it, so it may run alongside.
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

# Eligible: tutorial finished, level in [low, high], not excluded, not protected as a
# new player nor by a shield, seen since ``active_since``, not defending a live attack.
_ELIGIBLE = """
        SELECT a.* FROM terrakard_arena a
        WHERE a.tutorial_done_at IS NOT NULL
          AND a.level BETWEEN p_low AND p_high
          AND a.player_id <> ALL (p_exclude)
          AND a.started_at <= p_protected_before
          AND (a.shield_until IS NULL OR a.shield_until <= p_now)
          AND a.seen_at >= p_active_since
          AND NOT EXISTS (
              SELECT FROM match_seats s
              WHERE s.player_id = a.player_id AND s.kind = 'plan' AND s.one_active
          )"""

FUNCTION = f"""
CREATE FUNCTION terrakard_targets(
    p_low integer, p_high integer, p_trophies integer, p_exclude uuid[],
    p_now timestamptz, p_protected_before timestamptz, p_active_since timestamptz,
    p_size integer
) RETURNS SETOF terrakard_arena
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    RETURN QUERY
    SELECT t.* FROM (
        ({_ELIGIBLE}
          AND a.trophies >= p_trophies
        ORDER BY a.trophies, a.seen_at DESC, a.player_id
        LIMIT p_size)
        UNION ALL
        ({_ELIGIBLE}
          AND a.trophies < p_trophies
        ORDER BY a.trophies DESC, a.seen_at DESC, a.player_id
        LIMIT p_size)
    ) t
    ORDER BY abs(t.trophies - p_trophies), t.seen_at DESC, t.player_id
    LIMIT p_size;
END
$$
"""


def upgrade() -> None:
    op.execute(FUNCTION)


def downgrade() -> None:
    op.execute("DROP FUNCTION terrakard_targets")

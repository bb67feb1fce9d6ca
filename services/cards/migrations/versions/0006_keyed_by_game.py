"""cards keyed by game: decks have a game, copies a finish and an open source, and a
definition's game attributes live in one JSONB column its game's package validates

Existing rows are carried over: every deck so far is a Quest deck; every copy is a
standard one; Quest's four attribute columns (affinity, reward_eligible, evolved,
starter) become the keys of ``attributes``, with the values they had, then go.
Downgrade puts them back from ``attributes`` (rows of another game cannot go back:
the old schema had no place for them, so downgrade refuses while any exist).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_QUEST_COLUMNS = ("affinity", "reward_eligible", "evolved", "starter")


def upgrade() -> None:
    op.add_column(
        "card_definitions",
        sa.Column(
            "attributes",
            postgresql.JSONB(),
            nullable=False,
            server_default=sa.text("'{}'::jsonb"),
        ),
    )
    op.execute(
        """
        UPDATE card_definitions SET attributes = jsonb_build_object(
            'affinity', affinity,
            'reward_eligible', reward_eligible,
            'evolved', evolved,
            'starter', starter)
        """
    )
    op.alter_column("card_definitions", "attributes", server_default=None)
    for column in _QUEST_COLUMNS:
        op.drop_column("card_definitions", column)

    op.add_column(
        "decks",
        sa.Column("game", sa.String(20), nullable=False, server_default=sa.text("'quest'")),
    )
    op.alter_column("decks", "game", server_default=None)
    op.drop_index("ix_decks_player", table_name="decks")
    op.create_index("ix_decks_player_game", "decks", ["player_id", "game"])

    op.add_column(
        "owned_cards",
        sa.Column("finish", sa.String(20), nullable=False, server_default=sa.text("'standard'")),
    )
    # Sources are each game's (reward, starter, pack, craft...): checked in code by the
    # game's rules, not by a list in the schema that every new game would migrate.
    op.drop_constraint("ck_owned_cards_source_type", "owned_cards", type_="check")


def downgrade() -> None:
    op.execute(
        """
        DO $$ BEGIN
            IF EXISTS (SELECT 1 FROM card_definitions WHERE game <> 'quest')
               OR EXISTS (SELECT 1 FROM decks WHERE game <> 'quest')
               OR EXISTS (SELECT 1 FROM owned_cards
                          WHERE source_type NOT IN ('reward', 'starter')
                             OR finish <> 'standard') THEN
                RAISE EXCEPTION 'cards of another game than Quest cannot be downgraded';
            END IF;
        END $$
        """
    )
    op.create_check_constraint(
        "ck_owned_cards_source_type", "owned_cards", "source_type IN ('reward', 'starter')"
    )
    op.drop_column("owned_cards", "finish")
    op.drop_index("ix_decks_player_game", table_name="decks")
    op.create_index("ix_decks_player", "decks", ["player_id"])
    op.drop_column("decks", "game")
    op.add_column("card_definitions", sa.Column("affinity", sa.String(20), nullable=True))
    for column in _QUEST_COLUMNS[1:]:
        op.add_column(
            "card_definitions",
            sa.Column(column, sa.Boolean(), nullable=False, server_default=sa.false()),
        )
        op.alter_column("card_definitions", column, server_default=None)
    op.execute(
        """
        UPDATE card_definitions SET
            affinity = attributes->>'affinity',
            reward_eligible = COALESCE((attributes->>'reward_eligible')::boolean, false),
            evolved = COALESCE((attributes->>'evolved')::boolean, false),
            starter = COALESCE((attributes->>'starter')::boolean, false)
        """
    )
    op.drop_column("card_definitions", "attributes")

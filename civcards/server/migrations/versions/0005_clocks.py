"""clocks: each game's clock and absent-player state; the service's heartbeat

Revision ID: 0005_clocks
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_clocks"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # one row per game: whose turn it is since when (wall time), the time each seat has
    # banked, the deadline (in service time, which stands still while no server runs), the
    # votes to replace the seat to move, and the bots' takeovers (the record's `takeovers`)
    op.create_table(
        "clocks",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("remaining", sa.Text, nullable=False, server_default="[]"),
        sa.Column("votes", sa.Text, nullable=False, server_default="[]"),
        sa.Column("takeovers", sa.Text, nullable=False, server_default="[]"),
    )
    op.create_index("ix_clocks_deadline", "clocks", ["deadline"])
    # one row: when a server last showed it was running, and how long no server ran in
    # all (the downtime that no clock counts)
    op.create_table(
        "clock_service",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("beat", sa.Float, nullable=False),
        sa.Column("downtime", sa.Float, nullable=False),
        sa.Column("stopped", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_table("clock_service")
    op.drop_index("ix_clocks_deadline", table_name="clocks")
    op.drop_table("clocks")

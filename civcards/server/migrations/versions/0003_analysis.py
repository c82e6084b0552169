"""post-game analysis and hints: each review's analysis and progress; the hints used

Revision ID: 0003_analysis
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_analysis"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # one row per review: a finished game of the table (its id) or a record pasted on the
    # review page (its own id, the record kept here); the analysis fills as it runs
    op.create_table(
        "analyses",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("record", sa.Text, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("bot", sa.String(40), nullable=False),
        sa.Column("data", sa.Text, nullable=True),
        sa.Column("error", sa.String(300), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    # a hint a seat asked for (games created with hints allowed): shown in the log to all
    op.create_table(
        "hint_uses",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hint_uses")
    op.drop_table("analyses")

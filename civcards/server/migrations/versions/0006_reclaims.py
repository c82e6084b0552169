"""reclaims: the seats taken over for time whose players asked for them back

Revision ID: 0006_reclaims
Revises: 0005_clocks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_reclaims"
down_revision = "0005_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # JSON: the seats whose players asked, while the bot played their turn, to take them
    # back; the move that ends that turn gives them back (clocks.py, issue 38)
    with op.batch_alter_table("clocks") as batch:
        batch.add_column(sa.Column("reclaims", sa.Text, nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("clocks") as batch:
        batch.drop_column("reclaims")

"""invitations apart from seat tokens, the bots' secret, private games

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as b:
        # an unused invitation (hash); claiming the seat replaces it by the seat's own token
        b.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        b.create_index("ix_seats_invite_hash", ["invite_hash"])
    with op.batch_alter_table("games") as b:
        # the bots' randomness is drawn from it; shown with the record once the game is over
        b.add_column(sa.Column("bot_secret", sa.String(64), nullable=True))
        # a private game is listed only to those holding one of its seats
        b.add_column(sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
        b.create_index("ix_games_private_created", ["private", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("games") as b:
        b.drop_index("ix_games_private_created")
        b.drop_column("private")
        b.drop_column("bot_secret")
    with op.batch_alter_table("seats") as b:
        b.drop_index("ix_seats_invite_hash")
        b.drop_column("invite_hash")

"""Alembic environment: runs on the connection handed over by :func:`civcards.server.db.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from civcards.server.db import Base

config = context.config
target_metadata = Base.metadata

connection = config.attributes.get("connection")
if connection is None:  # the alembic command line: sqlalchemy.url from alembic.ini
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///civcards.db")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()

"""Alembic environment: migrations run on the connection the library hands over."""

from __future__ import annotations

from alembic import context

from papershelf.core.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only `alembic` on the command line gets here
    raise RuntimeError("Papershelf migrations run through papershelf.core.db.migrate()")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,
    transaction_per_migration=False,
)
with context.begin_transaction():
    context.run_migrations()

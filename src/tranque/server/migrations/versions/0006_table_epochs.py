"""Table epochs: tables.epoch, for fencing the writes of a table's former owners.

With several server processes on one database, one process owns a table at a time. A process
that takes a table over increments its epoch (`Store.claim_table`) and its writes carry the
epoch it got; a write carrying an older epoch (a former owner, paused or cut off from the
others) is refused, in the same transaction as the check. Existing tables get epoch 0 (no
process has claimed them yet). A column with a constant default: no rebuild of the table,
on SQLite or PostgreSQL.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("epoch", sa.Integer, nullable=False, server_default=sa.text("0")))


def downgrade() -> None:
    op.drop_column("tables", "epoch")

"""Alembic revision scripts, applied in order by `upgrade_to_head`."""

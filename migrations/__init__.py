"""Alembic migrations; applied at start-up and by `muster migrate`."""

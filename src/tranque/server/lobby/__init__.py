"""Finding a table: the registry of live tables, quick match, per-client quotas and presence."""

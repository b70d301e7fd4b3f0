"""Peñas: groups of accounts with their leaders, members, join requests and invitation links,
their own tables and tournaments (docs/penas.md)."""

"""Tournaments: formats, pairings, standings and their director (docs/tournaments.md)."""

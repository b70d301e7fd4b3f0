"""Fichas: play money staked at competitive tables and tournaments, on a double-entry ledger
that never loses a chip (docs/fichas.md). Never sold, never transferable, worth nothing."""

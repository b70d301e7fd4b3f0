"""Seasons of a peña and peña-against-peña battles (docs/penas.md#seasons)."""

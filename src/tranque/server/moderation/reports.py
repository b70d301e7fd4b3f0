"""A player's report of another: its reasons and its note (http/reports.py checks the rest:
not oneself, not a bot, one per game and person, a few a day)."""

from __future__ import annotations

# Reason codes, as the API takes them; the site names each in Spanish and English.
REASONS = ("cheating", "bot_use", "abuse", "boosting", "stalling", "other")
NOTE_MAX = 500  # characters of a report's note

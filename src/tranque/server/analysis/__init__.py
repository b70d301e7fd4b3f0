"""Looking back at a game: post-game analysis, hints, and checking a record's deals."""

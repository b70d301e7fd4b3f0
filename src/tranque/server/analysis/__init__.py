"""Looking back at a game: post-game analysis, and checking a record's deals."""

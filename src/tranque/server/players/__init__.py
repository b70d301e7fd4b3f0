"""Players over time: ratings, XP, rankings and profiles, kept games, friends and blocks."""

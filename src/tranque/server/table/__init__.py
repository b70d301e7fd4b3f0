"""The table: its actor, the commands it decides, the events it folds, seats, clocks and the line."""

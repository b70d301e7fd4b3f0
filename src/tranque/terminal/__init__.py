"""The terminal side of the `tranque` command: its subcommands and how they show a game."""

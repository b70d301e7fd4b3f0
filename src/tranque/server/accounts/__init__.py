"""Accounts: names, passwords, sessions, login throttling and bot tokens."""

"""Helpers the server tests share: harnesses, clients, scripted players."""

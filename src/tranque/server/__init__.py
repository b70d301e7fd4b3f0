"""The real-time server: HTTP API, WebSocket protocol, tables, accounts and persistence."""

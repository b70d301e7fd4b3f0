"""The WebSocket: the endpoint, the inbound messages, each socket's queue and limits."""

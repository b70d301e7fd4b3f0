"""The HTTP API: thin routers, refusals as JSON, and the HTTP plumbing around them."""

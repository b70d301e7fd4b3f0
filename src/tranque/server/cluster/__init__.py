"""Several server processes: table ownership by lease, the bus between processes."""

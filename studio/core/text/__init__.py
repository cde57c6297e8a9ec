"""Plain-text helpers shared by the resolver, the evals and the reports (no Qt, no I/O)."""

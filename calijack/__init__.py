"""California Jack: the rules engine, records, opponents and views."""

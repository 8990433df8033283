"""Placeholder; filled in with the arena's live wiki tables."""

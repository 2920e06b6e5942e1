"""sfdbg's bots."""

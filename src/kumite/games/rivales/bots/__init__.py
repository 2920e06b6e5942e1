"""rivales's bots."""

"""sfrivals's bots."""

"""SF Rivals' solver: its fight values, bounds, certificates and strength tables."""

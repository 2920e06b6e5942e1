"""Things that drive many games: matches, tournaments, simulations."""

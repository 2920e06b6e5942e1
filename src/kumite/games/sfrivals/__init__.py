"""Street Fighter Rivals (Cubist/Capcom): rules, cards and the state machine."""

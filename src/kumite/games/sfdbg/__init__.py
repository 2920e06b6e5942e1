"""The Street Fighter Deck-Building Game (Cryptozoic, 2014): rules, cards and the engine."""

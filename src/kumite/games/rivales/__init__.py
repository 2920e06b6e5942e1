"""Rivales: Capítulo 1 – Justicia (1vs1 and 2vs2): rules, cards and the state machine."""

"""Solving Street Fighter Rivals: exact fight values once set-ups are known
(:mod:`.fight`), the set-up stage with hidden covers (:mod:`.setup`), and what agents and
UIs use (:mod:`.strategy`, :mod:`.hint`)."""

"""Solving Street Fighter Rivals: exact fight values once set-ups are known
(:mod:`.fight`), the set-up stage with hidden covers (:mod:`.setup`), and what agents and
UIs use (:mod:`.strategy`, :mod:`.hint`)."""

# First, before any module imports Numba: the solver bots' memory counts the process's growth
# from here (:mod:`.resident`), the solver's own code included.
from kumite.games.sfrivals.solver import resident as resident

"""Research interfaces: every game with an observation encoding as a PettingZoo, Gymnasium
and OpenSpiel environment (docs/envs.md).

Generic: the games come from the registry and declare their encodings in their specs
(``GameSpec.observation``); no game is named here. The modules import their framework, so
install the extras first: ``pip install 'kumite[rl]'`` (PettingZoo, Gymnasium) or
``'kumite[openspiel]'``.
"""

from kumite.envs.base import EnvGame, NoEnvError

__all__ = ["EnvGame", "NoEnvError"]

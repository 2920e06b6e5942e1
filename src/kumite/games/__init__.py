"""The games kumite ships, one folder each (docs/architecture.md); they register through the
entry-point group ``kumite.games`` like any other (see :mod:`kumite.core.registry`)."""

"""The ``kumite`` command line (Typer + Rich)."""

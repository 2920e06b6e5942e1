"""Bring a database made by an earlier kumite up to the current schema, in place.

Run by :class:`~kumite.server.storage.Store` when it opens a database, under the lock that
also guards creating the schema. Each step looks at what is there (so it runs once, and a
database made by this version needs none); Alembic's operations do the work, rebuilding a
SQLite table where SQLite cannot change a column (its "batch" mode).
"""

from __future__ import annotations

from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import JSON, Boolean, Column, Integer, String, bindparam, false, inspect, text
from sqlalchemy.engine import Connection

from kumite.server.seeds import new_seed


def upgrade(conn: Connection) -> list[str]:
    """Migrate the tables found on ``conn`` (inside its transaction); returns what was done."""
    inspector = inspect(conn)
    if "kumite_tables" not in inspector.get_table_names():
        return []  # a new database: the schema is created as it is now
    done: list[str] = []
    columns = {c["name"]: c for c in inspector.get_columns("kumite_tables")}
    int_seed = isinstance(columns["seed"]["type"], Integer)
    no_bot_seed = "bot_seed" not in columns
    if int_seed or no_bot_seed:
        ops = Operations(MigrationContext.configure(conn))
        with ops.batch_alter_table("kumite_tables") as batch:
            if int_seed:
                # Seeds of 128 bits: SQLite's and PostgreSQL's integers are 64 and 32 bits.
                batch.alter_column(
                    "seed",
                    existing_type=Integer(),
                    type_=String(80),
                    existing_nullable=False,
                    postgresql_using="seed::varchar",
                )
                done.append("kumite_tables.seed: integer -> text")
            if no_bot_seed:
                batch.add_column(Column("bot_seed", String(80), nullable=True))
                done.append("kumite_tables.bot_seed added")
    for name, default in (("private", false()), ("rated", false())):
        # Issue 18: invite-only tables (every older one was listed) and rated ones (no
        # older game was rated: it had no players to rate).
        if name not in columns:
            ops = Operations(MigrationContext.configure(conn))
            ops.add_column(
                "kumite_tables", Column(name, Boolean(), nullable=False, server_default=default)
            )
            done.append(f"kumite_tables.{name} added")
    if "clock" not in columns:
        ops = Operations(MigrationContext.configure(conn))
        ops.add_column("kumite_tables", Column("clock", JSON(), nullable=True))
        done.append("kumite_tables.clock added")
    if "maker" not in columns:
        # Issue 28: the open-table limit counts a client's unfinished tables in the database
        # (every process of it at once); older tables count for nobody.
        ops = Operations(MigrationContext.configure(conn))
        ops.add_column("kumite_tables", Column("maker", String(64), nullable=True))
        ops.create_index("ix_kumite_tables_maker", "kumite_tables", ["maker"])
        done.append("kumite_tables.maker added")
    if no_bot_seed:
        # Bots of unfinished tables get their own secret (before, it was derived from the
        # game's seed, which the old server handed out).
        ids = conn.execute(
            text("SELECT id FROM kumite_tables WHERE bot_seed IS NULL AND status <> 'finished'")
        ).scalars()
        rows = [{"i": table_id, "s": str(new_seed())} for table_id in ids]
        if rows:
            conn.execute(
                text("UPDATE kumite_tables SET bot_seed = :s WHERE id = :i").bindparams(
                    bindparam("i"), bindparam("s")
                ),
                rows,
            )
            done.append(f"{len(rows)} unfinished tables given a bot seed")
    return done

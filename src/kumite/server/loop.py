"""A part of a live table that acts in one background task while the game goes on (its
bots, its clock): started when it has something to do, stopped with the table."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kumite.server.runtime import TableRuntime


class TableLoop:
    """One background task of a table: :meth:`kick` starts it (once) when :meth:`wanted`."""

    table: TableRuntime
    task: asyncio.Task[None] | None = None

    def wanted(self) -> bool:
        """Whether the task has anything to do at this table."""
        raise NotImplementedError

    async def _run(self) -> None:
        raise NotImplementedError

    def kick(self) -> None:
        if not self.wanted() or self.table.over:
            return
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

"""Who sits where at a table: each seat's record, its secret token (kept as a hash) and the
player holding it (docs/protocol.md, "Players")."""

from __future__ import annotations

import dataclasses
import hmac
import secrets

from kumite.server.saving import stored
from kumite.server.storage import Seat, Store, token_hash


class Seating:
    """The seats of one table and what lets a client act for one; every change is stored
    before it is made here."""

    def __init__(
        self,
        table_id: str,
        store: Store,
        seats: list[Seat],
        token_hashes: dict[int, str],
        holders: dict[int, str],
    ) -> None:
        self.table_id = table_id
        self.store = store
        self.seats = seats
        # Kept here, so that a client saying hello costs no database round trip.
        self.token_hashes = token_hashes
        self.holders = holders
        """seat -> the id of the player holding it."""

    def check_token(self, seat: int, token: str) -> bool:
        """Whether ``token`` is ``seat``'s."""
        known = self.token_hashes.get(seat) if 0 <= seat < len(self.seats) else None
        return known is not None and hmac.compare_digest(known, token_hash(token))

    async def set_token(self, seat: int, token: str) -> None:
        await stored(self.store.set_token(self.table_id, seat, token))
        self.token_hashes[seat] = token_hash(token)

    def held_by(self, player_id: str) -> int | None:
        """The seat ``player_id`` holds at this table, if any: a person holds one seat."""
        return next((seat for seat, p in self.holders.items() if p == player_id), None)

    async def seat_person(
        self, seat: int, player: tuple[str, str] | None, chat_from: int | None
    ) -> str:
        """Seat a person at ``seat``: a fresh token, known to them alone and stored in one
        transaction with the seat held by their ``player`` (if any), so that every earlier
        copy of the seat's token stops working. Returns the token. ``chat_from``: where
        the seat's reading of its channel starts (an open seat taken mid-game), if it
        changes."""
        token = secrets.token_urlsafe(18)
        taken = dataclasses.replace(self.seats[seat], kind="human", claimed=True)
        if player is not None:
            taken.name = player[1]
        if chat_from is not None:
            taken.chat_from = chat_from
        seats = [taken if i == seat else s for i, s in enumerate(self.seats)]
        holder = None if player is None else player[0]
        await stored(self.store.seat_person(self.table_id, seat, token, holder, seats))
        self.seats[seat] = taken
        self.token_hashes[seat] = token_hash(token)
        if holder is None:
            self.holders.pop(seat, None)
        else:
            self.holders[seat] = holder
        return token

    async def release(self, seat: int) -> str:
        """The seat's holder leaves: a fresh token (kept by nobody) and an open seat."""
        token = secrets.token_urlsafe(18)
        await self.set_token(seat, token)
        self.seats[seat].claimed = False
        self.seats[seat].kind = "open"
        await stored(self.store.set_seats(self.table_id, self.seats))
        return token

    async def hold(self, seat: int, player: str | None) -> None:
        """``player`` holds the seat now (``None``: nobody)."""
        await stored(self.store.set_holder(self.table_id, seat, player))
        if player is None:
            self.holders.pop(seat, None)
        else:
            self.holders[seat] = player

"""The browser faces: the lobby, table and replay pages, the generic front end
(``static/``), and the base of a game's web-table adapter (:mod:`.table`)."""

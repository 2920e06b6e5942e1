"""The authoritative game server: storage, table runtimes, HTTP + WebSocket API."""

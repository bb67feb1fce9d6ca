"""The push channel: each player's own events, live (WebSocket, SSE fallback)."""

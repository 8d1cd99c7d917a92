"""One router per concern: health, examples, runs (REST), websocket, the built frontend."""

"""backscope's server: sandboxed runs streamed over websockets (FastAPI)."""

__version__ = "0.1.0"

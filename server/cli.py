"""The `backscope` command: `backscope serve`, `backscope trace`."""

from __future__ import annotations

import argparse
import sys
import webbrowser


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.app import create_app

    app = create_app()
    if args.open:
        webbrowser.open(f"http://{args.host}:{args.port}/")
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `backscope` console script."""
    parser = argparse.ArgumentParser(prog="backscope", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="start the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.set_defaults(func=_serve)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())

"""`GET /api/examples`: the example gallery (seed notes first)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from pydantic import BaseModel

router = APIRouter()


class Example(BaseModel):
    id: str
    title: str
    code: str


def load_examples(folder: Path) -> list[Example]:
    """Every `examples/*.py`, titled by its `# title:` line; numbered (seed) files first."""
    out = []
    for path in sorted(folder.glob("*.py"), key=lambda p: (not p.name[0].isdigit(), p.name)):
        code = path.read_text(encoding="utf-8")
        title = path.stem.replace("_", " ")
        first = code.splitlines()[0] if code else ""
        if first.startswith("# title:"):
            title = first[len("# title:") :].strip()
        out.append(Example(id=path.stem, title=title, code=code))
    return out


@router.get("/api/examples", response_model=list[Example])
def examples(request: Request) -> list[Example]:
    return load_examples(request.app.state.settings.examples_dir)

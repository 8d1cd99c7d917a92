"""A static snapshot of a run for viewers that run nothing (nbviewer, GitHub): the backward
graph as inline SVG (a plain layered drawing: roots on top, leaves below) and the gradients that
reached the leaves, as HTML without scripts.

>>> snapshot_html([])[:4]
'<div'
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

MAX_NODES = 400
CHAR_W, BOX_H, GAP_X, GAP_Y, PAD = 7.2, 26, 18, 46, 12


def _short(name: str) -> str:
    return name.rsplit("::", 1)[-1]


def _values(v: Any) -> str:
    if not isinstance(v, dict):
        return "None"
    if "values" in v:
        text = str(v["values"])
    else:
        s = v.get("stats") or {}
        text = f"shape {v.get('shape')} · mean {s.get('mean', float('nan')):.4g}"
    return text if len(text) <= 160 else text[:157] + "..."


def layout(nodes: dict[int, dict[str, Any]]) -> dict[int, tuple[float, float, float]]:
    """(x, y, width) of each node: rank = longest path from a root (a node nothing points to),
    order within a rank by arrival."""
    parents: dict[int, list[int]] = {n: [] for n in nodes}
    for nid, e in nodes.items():
        for x in e["next"]:
            if x["node"] in parents:
                parents[x["node"]].append(nid)
    rank: dict[int, int] = {}
    for nid in sorted(nodes, reverse=True):  # (a node's inputs have smaller ids)
        rank[nid] = 1 + max((rank[p] for p in parents[nid] if p in rank), default=-1)
    rows: dict[int, list[int]] = {}
    for nid in sorted(nodes):
        rows.setdefault(rank[nid], []).append(nid)
    out: dict[int, tuple[float, float, float]] = {}
    for r, ids in rows.items():
        x = float(PAD)
        for nid in ids:
            w = max(60.0, CHAR_W * len(_short(nodes[nid]["name"])) + 16)
            out[nid] = (x, PAD + r * (BOX_H + GAP_Y), w)
            x += w + GAP_X
    return out


def graph_svg(nodes: dict[int, dict[str, Any]]) -> str:
    pos = layout(nodes)
    if not pos:
        return ""
    width = max(x + w for x, _, w in pos.values()) + PAD
    height = max(y for _, y, _ in pos.values()) + BOX_H + PAD
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12">'
    ]
    for nid, e in nodes.items():
        x, y, w = pos[nid]
        for nxt in e["next"]:
            if nxt["node"] in pos:
                x2, y2, w2 = pos[nxt["node"]]
                parts.append(
                    f'<line x1="{x + w / 2:.1f}" y1="{y + BOX_H:.1f}" x2="{x2 + w2 / 2:.1f}" '
                    f'y2="{y2:.1f}" stroke="#7a8599" stroke-width="1.2"/>'
                )
    for nid, e in nodes.items():
        x, y, w = pos[nid]
        leaf = e.get("variable") is not None
        fill = "#1f6f4a" if leaf else "#2b4b8c"
        label = html.escape(_short(e["name"]))
        parts.append(
            f"<g><title>{html.escape(e['name'])} (node {nid}, line {e.get('line')})</title>"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{BOX_H}" rx="5" fill="{fill}"/>'
            f'<text x="{x + w / 2:.1f}" y="{y + 17:.1f}" fill="#fff" text-anchor="middle">'
            f"{label}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def snapshot_html(
    events: Iterable[dict[str, Any]], title: str = "backscope snapshot", engine: str = ""
) -> str:
    """The snapshot of a run's events as an HTML fragment (no scripts); `engine` names what
    ran it when the events hold no run_started."""
    nodes: dict[int, dict[str, Any]] = {}
    names: dict[int, str] = {}
    grads: dict[int, Any] = {}
    error = None
    for e in events:
        kind = e.get("type")
        if kind == "node":
            nodes[e["id"]] = e
            for o in e["outputs"]:
                if o.get("name"):
                    names.setdefault(o["id"], o["name"])
        elif kind == "tensor" and e["tensor"].get("name"):
            names.setdefault(e["tensor"]["id"], e["tensor"]["name"])
        elif kind == "grad_accumulated":
            grads[e["tensor"]] = e["total"]
        elif kind == "run_started":
            engine = e.get("engine") or "backscope engine"
        elif kind == "error":
            error = e
    head = f"<b>{html.escape(title)}</b>"
    if engine:
        badge = "border:1px solid #37d5ff;border-radius:8px;padding:0 6px"
        head += f' <span style="{badge}">{html.escape(engine)}</span>'
    body = [f'<div class="backscope-snapshot" style="font-family:sans-serif">{head}']
    body.append(f"<p>{len(nodes)} nodes, {len(grads)} leaves with gradients.</p>")
    if len(nodes) > MAX_NODES:
        body.append(f"<p>Too many nodes to draw here (over {MAX_NODES}): open the run live.</p>")
    else:
        body.append(f'<div style="overflow:auto;max-height:600px">{graph_svg(nodes)}</div>')
    if grads:
        body.append('<table><tr><th align="left">leaf</th><th align="left">.grad</th></tr>')
        for tid, total in grads.items():
            name = html.escape(names.get(tid, f"tensor {tid}"))
            body.append(
                f"<tr><td>{name}</td><td><code>{html.escape(_values(total))}</code></td></tr>"
            )
        body.append("</table>")
    if error is not None:
        msg = html.escape(f"{error['error_type']}: {error['message']}")
        body.append(f'<pre style="color:#c33">line {error.get("line")}: {msg}</pre>')
    body.append("</div>")
    return "".join(body)

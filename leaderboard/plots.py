"""Small inline SVG charts, drawn by hand so the site needs no fonts, scripts or images from anywhere.

Each function is pure: data in, an ``<svg>`` string out (text escaped). Points carry a ``<title>``
so hovering shows the exact number.
"""

from __future__ import annotations

import math
from html import escape

PALETTE = ("#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7b83", "#57606a")
W, H = 520, 260
ML, MR, MT, MB = 48, 16, 28, 42  # margins: left, right, top, bottom


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if abs(v) < 1000 else f"{v:.0f}"


def _frame(title: str, body: list[str], legend: list[tuple[str, str]] | None = None, height: int = H) -> str:
    """Wrap a chart body; the legend goes under the plot, two entries a row, so it never hides a line."""
    legend = legend or []
    rows = (len(legend) + 1) // 2
    total = height + (14 * rows + 6 if rows else 0)
    parts = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {total}" '
             f'role="img" aria-label="{escape(title)}">',
             f'<text x="{W / 2}" y="16" text-anchor="middle" class="chart-title">{escape(title)}</text>']
    parts += body
    for i, (label, color) in enumerate(legend):
        x, y = ML + (i % 2) * 230, height + 10 + 14 * (i // 2)
        parts.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{color}"/>'
                     f'<text x="{x + 15}" y="{y}" class="chart-legend">{escape(label[:36])}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _y_axis(lo: float, hi: float, label: str, height: int = H) -> list[str]:
    out = []
    for i in range(6):
        v = lo + (hi - lo) * i / 5
        y = height - MB - (height - MT - MB) * i / 5
        out.append(f'<line x1="{ML}" x2="{W - MR}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                   f'<text x="{ML - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">{_fmt(v)}</text>')
    out.append(f'<text x="12" y="{(MT + height - MB) / 2}" transform="rotate(-90 12 {(MT + height - MB) / 2})" '
               f'text-anchor="middle" class="axis-label">{escape(label)}</text>')
    return out


def line_chart(series: list[tuple[str, list[float]]], title: str, x_label: str = "round",
               y_label: str = "pass rate (%)") -> str:
    """One line per (label, values); x is the index (round 1, 2, ...), y is 0..100."""
    # Colours follow the caller's order (the table's), so one model has one colour on every chart.
    series = [(j, lab, vals) for j, (lab, vals) in enumerate(series) if vals]
    n = max((len(v) for _, _, v in series), default=0)
    body = _y_axis(0, 100, y_label)
    if n == 0:
        body.append(f'<text x="{W / 2}" y="{H / 2}" text-anchor="middle" class="tick">no data</text>')
        return _frame(title, body)
    def x_of(i: int) -> float:
        return ML + (W - ML - MR) * (i / (n - 1) if n > 1 else 0.5)

    def y_of(v: float) -> float:
        return H - MB - (H - MT - MB) * max(0.0, min(v, 100.0)) / 100.0

    for i in range(n):
        body.append(f'<text x="{x_of(i):.1f}" y="{H - MB + 16}" text-anchor="middle" class="tick">{i + 1}</text>')
    body.append(f'<text x="{(ML + W - MR) / 2}" y="{H - 6}" text-anchor="middle" class="axis-label">'
                f'{escape(x_label)}</text>')
    legend = []
    for j, label, vals in series:
        color = PALETTE[j % len(PALETTE)]
        pts = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(vals))
        body.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        for i, v in enumerate(vals):
            body.append(f'<circle cx="{x_of(i):.1f}" cy="{y_of(v):.1f}" r="3.5" fill="{color}">'
                        f'<title>{escape(label)}, {x_label} {i + 1}: {v:.2f}</title></circle>')
        legend.append((label, color))
    return _frame(title, body, legend if len(series) > 1 else None)


def histogram_chart(counts: list[int], title: str, x_label: str = "final overall coverage (%)",
                    lo: float = 0.0, hi: float = 100.0) -> str:
    """Bars over equal bins of [lo, hi]."""
    bins = len(counts)
    top = max(max(counts, default=0), 1)
    top = int(math.ceil(top / 5.0) * 5) if top > 5 else 5
    body = _y_axis(0, top, "samples")
    bw = (W - ML - MR) / max(bins, 1)
    for i, c in enumerate(counts):
        h = (H - MT - MB) * c / top
        a, b = lo + (hi - lo) * i / bins, lo + (hi - lo) * (i + 1) / bins
        body.append(f'<rect x="{ML + i * bw + 1:.1f}" y="{H - MB - h:.1f}" width="{bw - 2:.1f}" '
                    f'height="{h:.1f}" fill="{PALETTE[0]}"><title>{_fmt(a)}-{_fmt(b)}%: {c} samples</title></rect>')
    for i in range(bins + 1):
        if i % max(1, bins // 5) == 0:
            x = ML + i * bw
            body.append(f'<text x="{x:.1f}" y="{H - MB + 16}" text-anchor="middle" class="tick">'
                        f'{_fmt(lo + (hi - lo) * i / bins)}</text>')
    body.append(f'<text x="{(ML + W - MR) / 2}" y="{H - 6}" text-anchor="middle" class="axis-label">'
                f'{escape(x_label)}</text>')
    return _frame(title, body)


SIZE_RANGE = (1e-3, 1e5)  # billions of parameters


def scatter_chart(points: list[tuple[float, float, str]], title: str,
                  x_label: str = "model size (billions of parameters, log scale)",
                  y_label: str = "pass rate (%)") -> str:
    """(x, y, label) points; x on a log scale (model sizes span orders of magnitude), y 0..100."""
    # Sizes outside a million to a hundred trillion parameters (the schema's range) are drawn at its edge:
    # a denormal or infinite size must not stretch the axis over hundreds of decades.
    points = [(j, min(max(x, SIZE_RANGE[0]), SIZE_RANGE[1]), y, lab) for j, (x, y, lab) in enumerate(points)
              if x and x > 0 and math.isfinite(x)]
    body = _y_axis(0, 100, y_label)
    if not points:
        body.append(f'<text x="{W / 2}" y="{H / 2}" text-anchor="middle" class="tick">'
                    'no submission with a known size</text>')
        return _frame(title, body)
    lx = [math.log10(x) for _, x, _, _ in points]
    lo, hi = math.floor(min(lx)), math.ceil(max(lx))
    if hi == lo:
        hi = lo + 1

    def x_of(v: float) -> float:
        return ML + 10 + (W - ML - MR - 20) * (math.log10(v) - lo) / (hi - lo)

    for e in range(lo, hi + 1):
        x = x_of(10.0 ** e)
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{MT}" y2="{H - MB}" class="grid"/>'
                    f'<text x="{x:.1f}" y="{H - MB + 16}" text-anchor="middle" class="tick">{_fmt(10.0 ** e)}</text>')
    body.append(f'<text x="{(ML + W - MR) / 2}" y="{H - 6}" text-anchor="middle" class="axis-label">'
                f'{escape(x_label)}</text>')
    for j, x, y, label in points:
        cx, cy = x_of(x), H - MB - (H - MT - MB) * max(0.0, min(y, 100.0)) / 100.0
        body.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{PALETTE[j % len(PALETTE)]}">'
                    f'<title>{escape(label)}: {_fmt(x)}B, {y:.2f}%</title></circle>'
                    f'<text x="{cx + 7:.1f}" y="{cy - 6:.1f}" class="chart-point">{escape(label[:24])}</text>')
    return _frame(title, body)


def bar_ci_chart(bars: list[tuple[str, float, tuple[float, float] | None]], title: str,
                 y_label: str = "pass rate (%)", lines: list[tuple[str, float]] = ()) -> str:
    """One bar per (label, value, (lo, hi)) with its interval drawn as an error bar; y is 0..100.
    ``lines``: (label, value) reference lines across the chart (the baselines' floor and ceiling)."""
    body = _y_axis(0, 100, y_label)

    def y_of(v: float) -> float:
        return H - MB - (H - MT - MB) * max(0.0, min(v, 100.0)) / 100.0

    if not bars:
        if not lines:
            body.append(f'<text x="{W / 2}" y="{H / 2}" text-anchor="middle" class="tick">no data</text>')
        return _frame(title, body + reference_lines(lines, y_of))
    bw = (W - ML - MR) / len(bars)

    for j, (label, v, ci) in enumerate(bars):
        color = PALETTE[j % len(PALETTE)]
        x = ML + j * bw
        tip = f"{label}: {v:.1f}%" + (f", 95% CI {ci[0]:.1f} to {ci[1]:.1f}" if ci else "")
        body.append(f'<rect class="bar" x="{x + bw * 0.15:.1f}" y="{y_of(v):.1f}" width="{bw * 0.7:.1f}" '
                    f'height="{H - MB - y_of(v):.1f}" fill="{color}" fill-opacity="0.75"><title>{escape(tip)}</title></rect>')
        if ci:
            cx, lo, hi = x + bw / 2, y_of(ci[0]), y_of(ci[1])
            body.append(f'<g class="errbar" stroke="#1f2328" stroke-width="1.4"><title>{escape(tip)}</title>'
                        f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{lo:.1f}" y2="{hi:.1f}"/>'
                        f'<line x1="{cx - 5:.1f}" x2="{cx + 5:.1f}" y1="{lo:.1f}" y2="{lo:.1f}"/>'
                        f'<line x1="{cx - 5:.1f}" x2="{cx + 5:.1f}" y1="{hi:.1f}" y2="{hi:.1f}"/></g>')
        # The bar is named under itself (cut to the bar's width; the tooltip has the whole name).
        fit = max(3, int(bw / 5.6))
        name = label if len(label) <= fit else label[:fit - 1] + "…"
        body.append(f'<text x="{x + bw / 2:.1f}" y="{H - MB + 14}" text-anchor="middle" class="tick bar-name">'
                    f'<title>{escape(label)}</title>{escape(name)}</text>')
    body.append(f'<text x="{(ML + W - MR) / 2}" y="{H - 6}" text-anchor="middle" class="axis-label">'
                'error bars: 95% bootstrap interval over tasks</text>')
    return _frame(title, body + reference_lines(lines, y_of))  # the lines over the bars


def reference_lines(lines: list[tuple[str, float]], y_of) -> list[str]:
    """Dashed horizontal lines, each labelled with its name and value at its right end (issue 32: the
    baselines are drawn as lines, not ranked as bars); labels of lines that nearly meet are stacked."""
    out, last_y = [], None
    for label, v in sorted(lines, key=lambda lv: -lv[1]):
        y = y_of(v)
        ty = y - 3 if y - 3 >= MT + 8 else y + 11  # under the line where the title would cover it
        ty = ty if last_y is None or ty - last_y >= 11 else last_y + 11
        last_y = ty
        text = f"{label} {v:.1f}%"
        out.append(f'<g class="ref-line"><title>{escape(text)}</title>'
                   f'<line x1="{ML}" x2="{W - MR}" y1="{y:.1f}" y2="{y:.1f}" stroke="#59636e" stroke-width="1.2" '
                   f'stroke-dasharray="5 4"/><text x="{W - MR - 2}" y="{ty:.1f}" text-anchor="end" '
                   f'class="tick ref-label" stroke="#fff" stroke-width="3" paint-order="stroke">'
                   f'{escape(text)}</text></g>')
    return out


def _heat_color(v: float) -> str:
    """Coverage 0..100 % to a white-to-blue ramp (light cells: little coverage)."""
    t = max(0.0, min(v, 100.0)) / 100.0
    r, g, b = (int(255 + (c - 255) * t) for c in (31, 111, 235))
    return f"#{r:02x}{g:02x}{b:02x}"


HEAT_LABEL = 24  # characters of a heatmap column label; the full task name is its tooltip


def heatmap(rows: list[str], cols: list[str], cells: dict[tuple[int, int], dict], title: str,
            col_marks: set[int] | None = None) -> str:
    """Model x task grid: colour = mean final coverage; a check mark when every sample passed, a dot when
    some did. ``cells[(i, j)]``: {"overall", "passed", "samples"}; ``col_marks``: columns to flag (*)."""
    col_marks = col_marks or set()
    labels = [(c if len(c) <= HEAT_LABEL else c[:HEAT_LABEL - 1] + "…") + (" *" if j in col_marks else "")
              for j, c in enumerate(cols)]
    # Column labels are rotated 60°: the grid starts below the longest one, so none reaches the title.
    cell, left = 18, 12 + 6.2 * max((len(r[:40]) for r in rows), default=4)
    top = 24 + int(0.87 * 6.2 * max((len(s) for s in labels), default=4)) + 8
    width = max(int(left + cell * len(cols) + 24), 640)  # at least the legend's width
    height = int(top + cell * len(rows) + 34)
    parts = [f'<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
             f'<text x="4" y="14" class="chart-title">{escape(title)}</text>']
    for j, c in enumerate(cols):
        x = left + j * cell + cell / 2
        parts.append(f'<text x="{x:.1f}" y="{top - 4}" transform="rotate(-60 {x:.1f} {top - 4})" '
                     f'class="heat-col{" heat-hard" if j in col_marks else ""}"><title>{escape(c)}</title>'
                     f'{escape(labels[j])}</text>')
    for i, r in enumerate(rows):
        y = top + i * cell
        parts.append(f'<text x="{left - 6:.1f}" y="{y + cell - 4}" text-anchor="end" class="heat-row">'
                     f'{escape(r[:40])}</text>')
        for j, c in enumerate(cols):
            d = cells.get((i, j))
            x = left + j * cell
            if d is None:
                parts.append(f'<rect x="{x:.1f}" y="{y}" width="{cell - 1}" height="{cell - 1}" class="heat-na">'
                             f'<title>{escape(r)} · {escape(c)}: not run</title></rect>')
                continue
            n, p, v = int(d["samples"]), int(d["passed"]), float(d["overall"])
            state = "pass" if p == n and n else ("some" if p else "fail")
            tip = f"{r} · {c}: coverage {v:.1f}%, passed {p}/{n}"
            parts.append(f'<g class="heat-cell" data-row="{escape(r)}" data-col="{escape(c)}" data-pass="{state}">'
                         f'<title>{escape(tip)}</title><rect x="{x:.1f}" y="{y}" width="{cell - 1}" '
                         f'height="{cell - 1}" fill="{_heat_color(v)}"/>')
            ink = "#fff" if v > 60 else "#1f2328"
            if state == "pass":
                k = cell / 16
                parts.append(f'<path d="M{x + 3.5 * k:.1f} {y + 8 * k:.1f} l{3 * k:.1f} {3 * k:.1f} '
                             f'l{5.5 * k:.1f} {-6.5 * k:.1f}" fill="none" stroke="{ink}" stroke-width="1.8"/>')
            elif state == "some":
                parts.append(f'<circle cx="{x + cell / 2 - 0.5:.1f}" cy="{y + cell / 2 - 0.5:.1f}" r="2.5" fill="{ink}"/>')
            parts.append("</g>")
    ly = top + cell * len(rows) + 18
    parts.append(f'<text x="4" y="{ly}" class="chart-legend">colour: mean final coverage '
                 '(white 0% to blue 100%); ✓ every sample passed; • some passed'
                 + ('; * random-hard task' if col_marks else '') + '</text>')
    parts.append("</svg>")
    return "\n".join(parts)

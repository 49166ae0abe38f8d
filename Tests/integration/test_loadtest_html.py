"""`layercast loadtest --html FILE --mark-file FILE` (docs/loadtest.md, "The page"): a short
two-stage scenario against the real server on 127.0.0.1 writes one self-contained page, which
headless Chromium opens from disk: every chart is drawn with its series, the clients chart
follows the stages (4 clients after the ramp, 2 after the drop), and the stage markers and the
marks of the file are on every chart. Bounded: 6 s of run, 4 clients, loopback only."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from browser import Console, chromium, skip_module_without_browser
from conftest import BINARY, REPO, unique_room

skip_module_without_browser()

DURATION = 6
# TimelineChart's frame: the plot's bottom and height in SVG units.
PLOT_BOTTOM, PLOT_HEIGHT = 192.0, 164.0


@pytest.fixture
def drv():
    yield from chromium(1000, 800)


def series_values(drv, chart: str, series: str) -> tuple[float, list[tuple[float, float]]]:
    """The y axis' top and the (x pixel, value) points of one series' polylines and dots."""
    top = float(drv.execute_script(
        f"const t = document.querySelectorAll('svg[data-chart=\"{chart}\"] g.axis.y text'); return t[t.length - 1].textContent;"))
    points = drv.execute_script(
        f"const g = document.querySelector('svg[data-chart=\"{chart}\"] g.series[data-series=\"{series}\"]');"
        "const out = [];"
        "for (const e of g.querySelectorAll('polyline, circle')) {"
        "  if (e.tagName === 'circle') out.push([+e.getAttribute('cx'), +e.getAttribute('cy')]);"
        "  else for (const p of e.getAttribute('points').split(' ')) out.push(p.split(',').map(Number)); }"
        "return out;")
    return top, [(x, (PLOT_BOTTOM - y) / PLOT_HEIGHT * top) for x, y in points]


def test_the_html_report_draws_the_timeline_with_its_stages_and_marks(start_server, tmp_path, drv):
    srv = start_server()
    scenario = {
        "name": "html <page>", "url": f"ws://127.0.0.1:{srv.port}", "scene": "radar", "room": unique_room("html"),
        "populations": [{"name": "watchers", "weight": 1, "behaviour": "spectate"}],
        "stages": [{"name": "ramp", "start": 0, "end": 1, "clients": 4},
                   {"name": "drop", "start": 4, "end": 4, "clients": 2}],
        "duration": DURATION,
    }
    (tmp_path / "scenario.json").write_text(json.dumps(scenario))
    marks = tmp_path / "marks.txt"
    # One mark in seconds from the start, one in wall-clock time about 3 s into the run.
    marks.write_text(f"# the bench's events\n2.5 kill node-2\n@{time.time() + 3:.3f} restart node-2\n")
    page, report = tmp_path / "report.html", tmp_path / "report.json"
    proc = subprocess.run([str(BINARY), "loadtest", "--scenario", str(tmp_path / "scenario.json"), "--threads", "1",
                           "--json", str(report), "--html", str(page), "--mark-file", str(marks)],
                          cwd=REPO, capture_output=True, text=True, timeout=DURATION + 30)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    made = json.loads(report.read_text())["connections"]["made"]
    html = page.read_text()
    assert "<script" not in html and "src=" not in html and "href=" not in html
    assert "html &lt;page&gt;" in html and "html <page>" not in html

    console = Console(drv)
    drv.get(page.as_uri())
    charts = drv.execute_script("return [...document.querySelectorAll('svg.chart')].map(s => s.dataset.chart);")
    assert charts == ["clients", "frames", "frame-age", "errors"], charts
    size = drv.execute_script("const r = document.querySelector('svg[data-chart=\"clients\"]').getBoundingClientRect();"
                              "return [r.width, r.height];")
    assert size == [800, 220], size
    names = drv.execute_script("return [...document.querySelectorAll('svg[data-chart=\"frame-age\"] g.series')]"
                               ".map(g => [g.dataset.series, g.querySelectorAll('polyline').length]);")
    assert [n for n, _ in names] == ["p50", "p99"] and all(lines >= 1 for _, lines in names), names
    assert drv.execute_script("return document.querySelectorAll('svg[data-chart=\"errors\"] g.series').length;") == 2

    # A point a second (the last may be lost to a loaded machine); 4 in after the ramp, 2 after the drop.
    top, connected = series_values(drv, "clients", "connected")
    assert top == 5 and len(connected) in (DURATION - 1, DURATION), (top, connected)
    xs = [x for x, _ in connected]
    assert xs == sorted(xs), xs
    values = [round(v, 3) for _, v in connected]
    assert values[1:3] == [4, 4] and values[4] == 2, values
    _, frames = series_values(drv, "frames", "frames/s")
    assert sum(v for _, v in frames) > 0 and all(v >= 0 for _, v in frames), frames

    for chart in charts:
        stages = drv.execute_script(f"return [...document.querySelectorAll('svg[data-chart=\"{chart}\"] g.marker.stage')]"
                                    ".map(g => [g.dataset.name, g.querySelector('text').textContent]);")
        assert stages == [["ramp", "ramp"], ["drop", "drop"]], (chart, stages)
        events = drv.execute_script(f"return [...document.querySelectorAll('svg[data-chart=\"{chart}\"] g.marker.mark')]"
                                    ".map(g => g.dataset.name);")
        assert events == ["kill node-2", "restart node-2"], (chart, events)
    rows = drv.execute_script("return Object.fromEntries([...document.querySelectorAll('table.summary tr')]"
                              ".map(r => [r.cells[0].textContent, r.cells[1].textContent]));")
    assert rows["connections"].startswith(f"made {made} of {made} attempted"), rows
    assert rows["result"] == "passed", rows
    assert console.severe() == [], console.severe()

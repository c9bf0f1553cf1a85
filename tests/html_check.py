#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report.html in a real browser: Debian's headless Chromium, driven over the
DevTools protocol (python3-websocket), no script in the page.

  html_check.py --chromium PATH --shots DIR [--th TIMERHARNESS] PAGE...

A PAGE is a report.html, or a results file rendered first (report --format
html) with --th.

For each page, at a desktop width (1280 px) and a phone's (412 px):
  - nothing is logged to the console (an error, a Content-Security-Policy
    violation, an exception) and no request leaves the file (only file: and
    data: URLs load);
  - the page has no script;
  - the verdict card is the first thing on the first screen, and shows a
    row per API generation, each with its answer;
  - both charts render: SVG with marks, at a readable size;
  - the page is never wider than the window (nothing cut off on a phone);
  - the grid's headers stay in view when the grid scrolls;
  - the grid fits a phone and a laptop: its pinned attack names take at most
    a third of its box, each name within its cell (broken, not cut); every
    column reachable by scrolling the box sideways, clear of the pinned
    names; a visible cue in its corner while more columns lie to the right,
    and none when nothing does (the widest grid of all pages: every column
    reached at 1280 px; a grid wider than its box at 412 px, with its cue);
  - the headline findings are collapsible (details/summary);
  - colour is never the only signal: under each bar of the outcome chart a
    line names every segment by symbol and count (checked against the
    segment's own title), symbols inside the segments are at WCAG AA
    against them, and the chart's numbers are also a table;
  - a grid cell's evidence is reachable without hover, and without a tab
    stop per cell: at most one tab stop per row of the grid; Enter on the
    focused attack name shows that row's evidence (every cell in it, as
    text); a tap (412 px) or a click (1280 px) on a cell shows its own
    entry, naming its outcome; no entry is shown before that;
and a screenshot of the first screen is written to DIR/<page>-<width>.png,
and of the first grid, scrolled into view, to DIR/<page>-<width>-grid.png
(and, when it scrolls sideways, scrolled to its last column:
DIR/<page>-<width>-grid-end.png).
Exit 0, or 1 naming every failure.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket

failures = []
sticky_seen = set()     # widths at which a scrolling grid kept its headers
evidence_seen = set()   # widths at which a cell's evidence was reached
cue_seen = set()        # widths at which a grid wider than its box said so
reached = {}            # width -> the most columns of a grid all reached there
widest = 0              # the most columns of any page's grid


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


class Browser:
    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="th-chromium-")
        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + self.profile, "--remote-debugging-port=0",
             "--hide-scrollbars", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(port_file):
                with open(port_file) as f:
                    lines = f.read().split("\n")
                if len(lines) >= 2 and lines[0]:
                    self.port = int(lines[0])
                    break
            if self.proc.poll() is not None:
                raise SystemExit(f"FAIL: chromium exited {self.proc.returncode} at start")
            time.sleep(0.1)
        else:
            raise SystemExit("FAIL: chromium wrote no DevToolsActivePort in 30 s")
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list") as r:
            pages = [t for t in json.load(r) if t["type"] == "page"]
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=60)
        self.id = 0
        self.events = []

    def call(self, method, **params):
        self.id += 1
        self.ws.send(json.dumps({"id": self.id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.id:
                if "error" in msg:
                    raise SystemExit(f"FAIL: {method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, timeout=60):
        end = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                del self.events[i]
                return e
        while time.time() < end:
            msg = json.loads(self.ws.recv())
            if msg.get("method") == method:
                return msg
            self.events.append(msg)
        raise SystemExit(f"FAIL: no {method} in {timeout} s")

    def js(self, expr, wait=False):
        """expr's value; wait: expr is a promise, its value awaited."""
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=wait)
        if "exceptionDetails" in r:
            raise SystemExit(f"FAIL: evaluating {expr[:60]}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def close(self):
        try:
            self.ws.close()
        finally:
            self.proc.kill()
            self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)


# What the page must show, measured in the browser (the page has no script:
# these run from the DevTools side).
CHECKS = r"""
((device) => {
  const r = {};
  // Mobile emulation widens innerWidth to the page: the device's width is
  // what a phone shows.
  const vh = innerHeight, vw = device;
  r.scripts = document.scripts.length;
  r.overflow = document.documentElement.scrollWidth - vw;
  // What sticks out, outside any box that scrolls it: the culprits named.
  r.wide = [];
  const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; }
    return false; };
  for (const el of document.body.querySelectorAll('*')) {
    const b = el.getBoundingClientRect();
    if (b.right > vw + 1 && !scrolls(el) && r.wide.length < 8)
      r.wide.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                  (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') +
                  ' ' + Math.round(b.right) + 'px');
  }
  const card = document.querySelector('#verdict');
  if (card) {
    const b = card.getBoundingClientRect();
    r.cardTop = b.top; r.cardHeight = b.height;
    r.cardText = card.innerText;
    // Nothing but the page's one-line head before it.
    r.before = [...(document.querySelector('main') || document.body).children].indexOf(card);
    r.rows = [...card.querySelectorAll('.cve .vrow')].map(row => {
      const rb = row.getBoundingClientRect();
      return {text: row.innerText, top: rb.top, bottom: rb.bottom,
              width: rb.width, answer: !!row.querySelector('.o, .muted')};
    });
  }
  // The outcome chart: each bar's counts line against its segments.
  const sym = {};
  for (const b of document.querySelectorAll('.legend span.o')) {
    const m = b.textContent.match(/^(\S+) \((.)\)$/);
    if (m) sym[m[1]] = m[2];
  }
  r.bars = [...document.querySelectorAll('svg.chart g.bar')].map(g => {
    const want = [...g.querySelectorAll('rect')].map(x => {
      const m = x.querySelector('title').textContent.match(/: (\S+) in (\d+) of/);
      return m ? (sym[m[1]] || '?' + m[1]) + ' ' + m[2] : '?';
    }).join(', ');
    const sc = g.querySelector('text.sc');
    return {want, got: sc ? sc.textContent : null};
  });
  r.barsBad = r.bars.filter(x => x.want !== x.got).slice(0, 3);
  r.chartTable = document.querySelectorAll('details.chartdata table tbody tr').length;
  r.charts = [...document.querySelectorAll('svg.chart')].map(s => {
    const b = s.getBoundingClientRect();
    // Every label inside the chart's box: none cut by its edge.
    const cut = [...s.querySelectorAll('text')].filter(t => {
      const x = t.getBoundingClientRect();
      return x.top < b.top - 1 || x.left < b.left - 1 || x.bottom > b.bottom + 1 || x.right > b.right + 1;
    }).map(t => t.textContent);
    return {w: b.width, h: b.height, rects: s.querySelectorAll('rect').length, cut: cut.slice(0, 5),
            texts: s.querySelectorAll('text').length,
            font: parseFloat(getComputedStyle(s.querySelector('text')).fontSize) * b.width /
                  s.viewBox.baseVal.width};
  });
  r.findings = document.querySelectorAll('details.finding > summary h3').length;
  // Accessibility: a <main>, every header cell's scope, and the text of
  // every outcome badge and grid cell against its colour (WCAG 2 contrast;
  // a striped background is taken at its worst stripe).
  r.main = document.querySelectorAll('main').length;
  r.thNoScope = document.querySelectorAll('th:not([scope])').length;
  const rgb = t => (t.match(/rgba?\(([^)]*)\)/g) || []).map(m =>
    m.replace(/rgba?\(|\)/g, '').split(',').map(Number));
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 :
    Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  r.contrast = {};
  for (const el of document.querySelectorAll('span.o, td.c')) {
    if (!el.textContent.trim()) continue;
    const cs = getComputedStyle(el), key = el.className;
    if (key in r.contrast) continue;
    const fg = rgb(cs.color)[0];
    let bgs = rgb(cs.backgroundColor).filter(c => c.length < 4 || c[3] > 0);
    if (cs.backgroundImage !== 'none') bgs = bgs.concat(rgb(cs.backgroundImage));
    if (!bgs.length) bgs = [[255, 255, 255]];
    r.contrast[key] = Math.min(...bgs.map(b => ratio(fg, b)));
  }
  // A segment's symbol against the segment.
  for (const t of document.querySelectorAll('svg.chart text.sy')) {
    const rect = t.previousElementSibling, key = 'svg ' + rect.getAttribute('class');
    if (key in r.contrast) continue;
    r.contrast[key] = ratio(rgb(getComputedStyle(t).fill)[0], rgb(getComputedStyle(rect).fill)[0]);
  }
  // The grid's tab stops, its cells' links, and no evidence shown yet.
  const g0 = document.querySelector('.gridwrap');
  if (g0) {
    r.gridRows = g0.querySelectorAll('tbody th.a').length;
    r.gridStops = [...g0.querySelectorAll('a[href], button, input, [tabindex]')]
      .filter(e => e.tabIndex >= 0).length;
    r.cellsNoLink = [...g0.querySelectorAll('td.c:not(.missing)')]
      .filter(td => !td.querySelector('a[href^="#e"]')).length;
    r.evShown = [...document.querySelectorAll('.ev')].filter(e => e.getClientRects().length).length;
  }
  // Sticky: scroll the first grid's box and see where its header row is.
  const wrap = document.querySelector('.gridwrap');
  if (wrap) {
    const th = wrap.querySelector('thead tr.ch th.cfg');
    const name = wrap.querySelector('tbody th.a');
    wrap.scrollTop = 0; wrap.scrollLeft = 0;
    r.scrollable = wrap.scrollHeight > wrap.clientHeight + 400;
    const top0 = th.getBoundingClientRect().top - wrap.getBoundingClientRect().top;
    wrap.scrollTop = 400; wrap.scrollLeft = 300;
    r.stickyDrift = Math.abs(th.getBoundingClientRect().top - wrap.getBoundingClientRect().top
                             - top0);
    r.nameLeft = name.getBoundingClientRect().left - wrap.getBoundingClientRect().left;
    r.scrolled = [wrap.scrollTop, wrap.scrollLeft];
    wrap.scrollTop = 0; wrap.scrollLeft = 0;
  }
  return r;
})(DEVICE_WIDTH)
"""


def check(b, html, shots, width, height, mobile):
    name = os.path.splitext(os.path.basename(html))[0]
    where = f"{html} at {width} px"
    b.events.clear()
    b.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
           deviceScaleFactor=1, mobile=mobile)
    b.call("Page.navigate", url="file://" + os.path.abspath(html))
    b.wait_event("Page.loadEventFired")
    time.sleep(0.3)     # late console messages and requests
    b.call("Runtime.evaluate", expression="0")   # flush events
    for e in b.events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled":
            fail(f"{where}: console.{p.get('type')}: {p.get('args')}")
        elif m == "Runtime.exceptionThrown":
            fail(f"{where}: exception: {p.get('exceptionDetails', {}).get('text')}")
        elif m == "Log.entryAdded":
            entry = p.get("entry", {})
            fail(f"{where}: console {entry.get('level')} ({entry.get('source')}): "
                 f"{entry.get('text')}")
        elif m == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if not url.startswith(("file:", "data:")):
                fail(f"{where}: a request left the file: {url}")
    r = b.js(CHECKS.replace("DEVICE_WIDTH", str(width)))
    if r["scripts"]:
        fail(f"{where}: {r['scripts']} script(s)")
    if r["overflow"] > 1:
        fail(f"{where}: the page is {r['overflow']} px wider than the device "
             f"(sticking out: {', '.join(r['wide']) or '?'})")
    if "cardTop" not in r:
        fail(f"{where}: no verdict card (#verdict)")
    else:
        if r["before"] > 3 or r["cardTop"] > height * 0.4:
            fail(f"{where}: the verdict card is not first: {r['before']} elements before it, "
                 f"its top at {r['cardTop']:.0f} px")
        if "CVE-2017-7308" not in r["cardText"]:
            fail(f"{where}: the card does not ask the CVE-2017-7308 question")
        gens = [x for x in r["rows"] if x["text"].startswith(("4.14 ", "4.14-rc3", "4.15 "))]
        if len(gens) < 3 or not all(x["answer"] for x in gens):
            fail(f"{where}: the card does not answer for each API generation: {r['rows']}")
        elif max(x["bottom"] for x in gens[:3]) > height:
            fail(f"{where}: the answers are not on the first screen (last at "
                 f"{max(x['bottom'] for x in gens[:3]):.0f} px of {height})")
    if len(r["charts"]) < 2:
        fail(f"{where}: {len(r['charts'])} chart(s), want 2")
    for i, c in enumerate(r["charts"]):
        if c["w"] < min(300, width * 0.7) or c["h"] < 60 or c["rects"] < 1 or c["texts"] < 2:
            fail(f"{where}: chart {i + 1} does not render: {c}")
        if c["cut"]:
            fail(f"{where}: chart {i + 1} cuts its labels: {c['cut']}")
        if c["font"] < 8:
            fail(f"{where}: chart {i + 1}'s text is {c['font']:.1f} px: unreadable")
    if not r["main"]:
        fail(f"{where}: no <main>")
    if r["thNoScope"]:
        fail(f"{where}: {r['thNoScope']} header cell(s) without scope")
    low = {k: round(v, 2) for k, v in r["contrast"].items() if v < 4.5}
    if low:
        fail(f"{where}: text below WCAG AA contrast (4.5:1) on: {low}")
    if not r["contrast"]:
        fail(f"{where}: no outcome badge or grid cell measured")
    if not r["bars"]:
        fail(f"{where}: the outcome chart has no bars (g.bar)")
    if r["barsBad"]:
        fail(f"{where}: an outcome bar's counts line does not name its segments: {r['barsBad']}")
    if r["chartTable"] < 1:
        fail(f"{where}: the outcome chart's numbers are not also a table (details.chartdata)")
    if "gridRows" in r:
        if r["gridStops"] > r["gridRows"]:
            fail(f"{where}: the grid has {r['gridStops']} tab stops for {r['gridRows']} rows")
        if r["cellsNoLink"]:
            fail(f"{where}: {r['cellsNoLink']} grid cell(s) lead to no evidence")
        if r["evShown"]:
            fail(f"{where}: {r['evShown']} evidence block(s) shown before any was asked for")
    if r["findings"] < 9:
        fail(f"{where}: {r['findings']} collapsible findings, want the 9 headline questions")
    # A grid taller than its box scrolls in it, headers and names in view.
    if r.get("scrollable"):
        if r["scrolled"][0] < 100:
            fail(f"{where}: the grid's box does not scroll ({r['scrolled']})")
        elif r["stickyDrift"] > 4 or abs(r["nameLeft"]) > 4:
            fail(f"{where}: the grid's headers do not stay in view (moved "
                 f"{r['stickyDrift']:.0f} px; attack names at {r['nameLeft']:.0f} px)")
        else:
            sticky_seen.add(width)
    path = os.path.join(shots, f"{name}-{width}.png")
    shot(b, path)
    if r.get("gridRows"):
        grids(b, html, shots, where, width)
        evidence(b, where, width, mobile)
    print(f"{where}: checked; first screen in {path}")


# Each grid's fit, in its box: the pinned names' width and overflow, then
# scrolled to its last column (a frame later: the box's scroll state, which
# the cue follows, is applied at the next style update) and back.
GRID = r"""
(async (i, phase) => {
  const wrap = document.querySelectorAll('.gridwrap')[i];
  const frame = () => new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const shown = el => !!el && el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== 'hidden';
  const box = wrap.getBoundingClientRect();
  const r = {box: Math.round(wrap.clientWidth), full: wrap.scrollWidth};
  const names = [...wrap.querySelectorAll('tbody th.a')];
  r.pinned = Math.max(0, ...names.map(x => x.getBoundingClientRect().width));
  r.cut = names.filter(x => { const a = x.querySelector('a') || x;
    return a.scrollWidth > a.clientWidth + 1 || x.scrollWidth > x.clientWidth + 1; })
    .map(x => x.textContent).slice(0, 3);
  const heads = [...wrap.querySelectorAll('thead tr.ch th')];
  r.columns = heads.length;
  const more = wrap.querySelector('thead .more');
  wrap.scrollLeft = 0; wrap.scrollTop = 0;
  wrap.scrollIntoView({block: 'start'});
  await frame();
  r.cueAtStart = shown(more);
  if (phase === 'end') {
    wrap.scrollLeft = wrap.scrollWidth;
    await frame();
    const last = heads[heads.length - 1].getBoundingClientRect();
    const edge = Math.max(0, ...names.map(x => x.getBoundingClientRect().right));
    r.lastRight = last.right - wrap.getBoundingClientRect().left - wrap.clientLeft;
    r.lastClear = last.left >= edge - 1;
    r.lastIn = r.lastRight <= wrap.clientWidth + 1;
    r.cueAtEnd = shown(more);
  }
  return r;
})
"""


def grids(b, html, shots, where, width):
    """The grid's fit at this width: names, pinned column, every column
    reachable, the cue; screenshots of the first grid."""
    global widest
    name = os.path.splitext(os.path.basename(html))[0]
    n = b.js("document.querySelectorAll('.gridwrap').length")
    for i in range(n):
        g = b.js(GRID + f"({i}, 'start')", wait=True)
        if i == 0:
            shot(b, os.path.join(shots, f"{name}-{width}-grid.png"))
        scrolls = g["full"] > g["box"] + 1
        widest = max(widest, g["columns"])
        if g["pinned"] > g["box"] / 3 + 1:
            fail(f"{where}: grid {i + 1}'s pinned attack names are {g['pinned']:.0f} px of its "
                 f"{g['box']} px box (at most a third)")
        if g["cut"]:
            fail(f"{where}: grid {i + 1} cuts attack names: {g['cut']}")
        if scrolls != g["cueAtStart"]:
            fail(f"{where}: grid {i + 1} is {g['full']} px in a {g['box']} px box, and its cue "
                 f"that more columns lie to the right is {'not ' if scrolls else ''}shown")
        e = b.js(GRID + f"({i}, 'end')", wait=True)
        if i == 0 and scrolls:
            shot(b, os.path.join(shots, f"{name}-{width}-grid-end.png"))
        if not (e["lastIn"] and e["lastClear"]):
            fail(f"{where}: grid {i + 1}'s last column is out of reach: scrolled to the end it "
                 f"ends at {e['lastRight']:.0f} px of the {g['box']} px box"
                 f"{'' if e['lastClear'] else ', under the pinned names'}")
        elif scrolls and e["cueAtEnd"]:
            fail(f"{where}: grid {i + 1} scrolled to its last column still says more lie to the right")
        else:
            reached[width] = max(reached.get(width, 0), g["columns"])
            if scrolls:
                cue_seen.add(width)
        b.js(f"document.querySelectorAll('.gridwrap')[{i}].scrollLeft = 0")
    b.js("window.scrollTo(0, 0)")


def shot(b, path):
    data = b.call("Page.captureScreenshot", format="png")["data"]
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))


SHOWN = r"""
(() => {
  const t = document.querySelector(':target');
  if (!t) return null;
  const ev = t.closest('.ev');
  return {id: t.id, shown: t.getClientRects().length > 0 && !!ev && ev.getClientRects().length > 0,
          text: t.innerText, entries: ev ? ev.querySelectorAll('li').length : 0,
          focused: document.activeElement === t};
})()
"""


def key(b, name, code, vk):
    for kind in ("keyDown", "keyUp"):
        b.call("Input.dispatchKeyEvent", type=kind, key=name, code=code,
               windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk,
               **({"text": "\r"} if kind == "keyDown" and name == "Enter" else {}))
    time.sleep(0.2)


def evidence(b, where, width, mobile):
    """A cell's evidence without hover: Enter on the first row's attack name
    (focused, as Tab reaches it), then a tap or a click on a cell of the
    second row."""
    row = b.js("""(() => {
      const a = document.querySelector('.gridwrap tbody th.a a');
      if (!a) return {focused: false, tab: -1};
      a.focus();
      const tr = a.closest('tr');
      return {href: a.getAttribute('href'), attack: a.textContent, focused: document.activeElement === a,
              tab: a.tabIndex, cells: tr.querySelectorAll('td.c a').length};
    })()""")
    if not row["focused"] or row["tab"] < 0:
        fail(f"{where}: the grid's first attack name cannot take the keyboard's focus: {row}")
        return
    key(b, "Enter", "Enter", 13)
    t = b.js(SHOWN)
    if not t or "#" + t["id"] != row["href"] or not t["shown"]:
        fail(f"{where}: Enter on {row['attack']!r} does not show its row's evidence "
             f"({row['href']}): {t and {k: t[k] for k in ('id', 'shown')}}")
        return
    if (row["attack"] not in t["text"] or t["entries"] != row["cells"] or
            t["text"].count("evidence: ") != row["cells"]):
        fail(f"{where}: the evidence of {row['attack']!r} does not hold its {row['cells']} "
             f"cells ({t['entries']} entries): {t['text'][:300]!r}")
        return
    cell = b.js("""(() => {
      const rows = document.querySelectorAll('.gridwrap tbody tr:not(.g)');
      const a = (rows[1] || rows[0]).querySelector('td.c a');
      if (!a) return {hit: false};
      a.scrollIntoView({block: 'center', inline: 'end'});
      const x = a.getBoundingClientRect();
      const cx = x.left + x.width / 2, cy = x.top + x.height / 2;
      const o = [...a.closest('td').classList].find(c => c.startsWith('o-'));
      return {href: a.getAttribute('href'), outcome: o && o.slice(2), x: cx, y: cy,
              hit: document.elementFromPoint(cx, cy) === a,
              attack: a.closest('tr').querySelector('th.a').textContent};
    })()""")
    if not cell["hit"]:
        fail(f"{where}: a grid cell is covered where it would be tapped: {cell}")
        return
    if mobile:
        b.call("Emulation.setTouchEmulationEnabled", enabled=True)
        pt = [{"x": cell["x"], "y": cell["y"]}]
        b.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=pt)
        b.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
        b.call("Emulation.setTouchEmulationEnabled", enabled=False)
    else:
        for kind in ("mousePressed", "mouseReleased"):
            b.call("Input.dispatchMouseEvent", type=kind, x=cell["x"], y=cell["y"],
                   button="left", clickCount=1)
    time.sleep(0.3)
    t = b.js(SHOWN)
    outcome = cell["outcome"]
    how = "tap" if mobile else "click"
    if not t or "#" + t["id"] != cell["href"] or not t["shown"]:
        fail(f"{where}: a {how} on a cell of {cell['attack']!r} does not show its evidence "
             f"({cell['href']}): {t and {k: t[k] for k in ('id', 'shown')}}")
    elif (not t["text"].startswith(cell["attack"] + " ") or
          f"outcome: {outcome}" not in t["text"] or "evidence: " not in t["text"]):
        fail(f"{where}: the entry a {how} shows is not the cell's ({outcome}): "
             f"{t['text'][:300]!r}")
    else:
        evidence_seen.add(width)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--shots", required=True)
    ap.add_argument("--th")
    ap.add_argument("html", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.shots, exist_ok=True)
    pages = []
    for p in a.html:
        if p.endswith(".json"):
            # results.json is named after its directory (fuzz.json beside it).
            base = os.path.basename(p)[:-5]
            if base == "results":
                base = os.path.basename(os.path.dirname(os.path.abspath(p)))
            out = os.path.join(a.shots, base + ".html")
            subprocess.run([a.th, "report", "--results", p, "--format", "html", "--out", out],
                           check=True)
            p = out
        elif os.path.basename(p) == "report.html":
            # Name the screenshots after the run's directory.
            out = os.path.join(a.shots, os.path.basename(os.path.dirname(p)) + ".html")
            if os.path.exists(p):
                shutil.copy(p, out)
            p = out
        pages.append(p)
    b = Browser(a.chromium)
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.call(domain + ".enable")
        for html in pages:
            if not os.path.exists(html):
                fail(f"{html}: no such file")
                continue
            check(b, html, a.shots, 1280, 900, False)
            check(b, html, a.shots, 412, 915, True)
    finally:
        b.close()
    for width in (1280, 412):
        if width not in evidence_seen:
            fail(f"no page showed a grid cell's evidence by keyboard and {'tap' if width < 500 else 'click'} at {width} px")
        if width not in sticky_seen:
            fail(f"no page had a grid tall enough to show its headers stay in view at {width} px")
    if reached.get(1280, 0) < widest:
        fail(f"the widest grid ({widest} columns) was not reached to its last column at 1280 px "
             f"(at most {reached.get(1280, 0)})")
    if 412 not in cue_seen:
        fail("no grid wider than its box at 412 px showed its cue and its last column")
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`timerharness reach` checks that need bytes CMake cannot pass.

    reach_cli.py escape TIMERHARNESS OBJCOPY IN OUT
    reach_cli.py schema RESULTS.json SCHEMA_DIR
    reach_cli.py schema-tasklet RESULTS.json SCHEMA_DIR

escape: IN's member plain_timer_fn renamed (OBJCOPY --redefine-sym) to a
name holding ESC, a newline, a backslash and U+202E (a bidi override);
the command must print it escaped (\\x1b, \\x0a, \\\\, \\xe2\\x80\\xae), never
raw, in the member list and the container-confusion lines, and escape a
--function name it cannot find on stderr too.

schema: RESULTS.json valid against SCHEMA_DIR/results.schema.json (its reach
section against reach.schema.json), with a non-empty reach[].uses.

schema-tasklet: the same, without uses (the model's binaries have none),
every entry naming its family (api) and the tasklet's naming both of
tasklet_action_common's calls (site: func, callback).
"""
import subprocess
import sys

EVIL = "evil\x1b[31m\nname\\\u202e"
SHOWN = b"evil\\x1b[31m\\x0aname\\\\\\xe2\\x80\\xae"


def fail(msg, out=b""):
    print(f"FAIL: {msg}\n{out.decode(errors='replace')}")
    sys.exit(1)


def escape(th, objcopy, src, dst):
    subprocess.run([objcopy, f"--redefine-sym=plain_timer_fn={EVIL}", src, dst], check=True)
    r = subprocess.run([th, "reach", "--binary", dst, "--function", "call_timer_fn"],
                       capture_output=True)
    if r.returncode != 0:
        fail(f"exit {r.returncode}", r.stderr)
    for raw in (b"\x1b", "\u202e".encode()):
        if raw in r.stdout:
            fail(f"raw {raw!r} on stdout", r.stdout)
    if r.stdout.count(SHOWN) != 2:
        fail(f"the escaped name {SHOWN!r} is not in the member list and the candidates", r.stdout)
    if any(line.startswith(b"name") for line in r.stdout.split(b"\n")):
        fail("a name's newline started a line", r.stdout)
    r = subprocess.run([th, "reach", "--binary", dst, "--function", "no\x1bsuch\nfunction"],
                       capture_output=True)
    if r.returncode != 2 or b"\x1b" in r.stderr or b"no\\x1bsuch\\x0afunction" not in r.stderr:
        fail(f"--function's name on stderr: exit {r.returncode}", r.stderr)
    print(r.stdout.decode(errors="replace") if r.stdout else "ok: names escaped")


def schema(results, schema_dir, want="uses"):
    import json
    import os
    import jsonschema
    with open(os.path.join(schema_dir, "results.schema.json")) as f:
        doc = json.load(f)
    with open(results) as f:
        res = json.load(f)
    # The schemas by their $id (docs/results.md): resolved without fetching.
    store = {}
    for name in os.listdir(schema_dir):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name)) as f:
                s = json.load(f)
            store[s["$id"]] = s
    cls = jsonschema.validators.validator_for(doc)
    v = cls(doc, resolver=jsonschema.RefResolver.from_schema(doc, store=store))
    errors = sorted(v.iter_errors(res), key=lambda e: list(e.path))
    for e in errors[:10]:
        print(f"FAIL: {results}: {'/'.join(map(str, e.path))}: {e.message[:300]}")
    if errors:
        sys.exit(1)
    if want == "uses" and not any(e.get("uses") for e in res.get("reach", [])):
        fail(f"{results}: no reach entry has uses")
    # The model's binaries: every entry names its family, the tasklet's
    # entries their call (func, callback).
    if want == "tasklet":
        reach = res.get("reach", [])
        if any("api" not in e for e in reach):
            fail(f"{results}: a reach entry without api")
        sites = {e.get("site") for e in reach if e["api"] == "tasklet"}
        if sites != {"func", "callback"}:
            fail(f"{results}: the tasklet's entries name {sorted(map(str, sites))}, not func and callback")
        print(f"ok: {results} is valid, {len(reach)} entries")
        return
    print(f"ok: {results} is valid, {sum(len(e.get('uses', [])) for e in res['reach'])} uses")


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "escape":
        escape(*sys.argv[2:])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "schema":
        schema(*sys.argv[2:])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "schema-tasklet":
        schema(*sys.argv[2:], want="tasklet")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())

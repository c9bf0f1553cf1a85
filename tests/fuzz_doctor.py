#!/usr/bin/env python3
"""Doctor a campaign summary consistently, as an attacker of the gate would
(tests/fuzz_run.sh): every number the loader cross-checks kept in step, so
only what check replays or measures can tell.
  fuzz_doctor.py swap FUZZ.json   the first finding's reproducer replaced by
                                  another finding's bytes, its sha256 with them
  fuzz_doctor.py cut FUZZ.json    every campaign's executions (and each count
                                  that must fit in them) cut a thousandfold
  fuzz_doctor.py erase FUZZ.json  a finding taken out of the list, where another
                                  of its outcome keeps the counts consistent
  fuzz_doctor.py forget FUZZ.json a finding taken out of the list with the files
                                  the run saved of it (.bin, .chain), its runs
                                  counted as NO_EFFECT: only the run's own record
                                  (its campaign's stats) still has it
  fuzz_doctor.py stretch FUZZ.json every campaign's seconds ten times what ran,
                                  its rate in step
Prints what it did; exit 3 when the summary has nothing to doctor."""
import json
import os
import sys


def swap(path, d):
    fs = [(c, f) for c in d["campaigns"] for f in c.get("findings", [])]
    for (ca, a) in fs:
        for (cb, b) in fs:
            if a["sig"] != b["sig"] and ca is cb:
                base = path.rsplit("/", 1)[0]
                with open(f"{base}/{b['reproducer']}", "rb") as src:
                    data = src.read()
                with open(f"{base}/{a['reproducer']}", "wb") as dst:
                    dst.write(data)
                a["sha256"] = b["sha256"]
                print(f"{a['sig']} {b['sig']}")
                return True
    return False


def cut(d):
    for c in d["campaigns"]:
        if not c.get("executions"):
            continue
        c["executions"] = max(1, c["executions"] // 1000)
        oc = c["outcomes"]
        new = {k: (max(1, v // 1000) if v else 0) for k, v in oc.items()}
        top = max(new, key=lambda k: oc[k])
        # Every count kept at least 1 may add up past the cut executions
        # (a negative remainder is bad input of another kind): the
        # executions are then their sum, still a thousandfold fewer.
        if sum(new.values()) > c["executions"]:
            c["executions"] = sum(new.values())
        new[top] += c["executions"] - sum(new.values())
        c["outcomes"] = new
        for k in ("first_hijack", "goal_reached"):
            if isinstance(c.get(k), dict) and c[k].get("executions") is not None:
                c[k]["executions"] = min(c["executions"], max(1, c[k]["executions"] // 1000))
        for f in c.get("findings", []):
            if f.get("first_executions") is not None:
                f["first_executions"] = min(c["executions"], max(1, f["first_executions"] // 1000))
        if c.get("exec_per_second") is not None and c.get("seconds"):
            c["exec_per_second"] = c["executions"] / c["seconds"]
    print("cut")
    return True


def erase(d):
    for c in d["campaigns"]:
        fs = c.get("findings", [])
        for i, a in enumerate(fs):
            if any(b["outcome"] == a["outcome"] for j, b in enumerate(fs) if j != i):
                print(a["sig"])
                del fs[i]
                return True
    return False


def forget(path, d):
    base = path.rsplit("/", 1)[0]
    for c in d["campaigns"]:
        fs = c.get("findings", [])
        if not fs:
            continue
        a = fs.pop(0)
        for ext in (".bin", ".chain"):
            try:
                os.unlink(f"{base}/{a['reproducer'][:-4]}{ext}")
            except FileNotFoundError:
                pass
        oc = c["outcomes"]
        n = oc.pop(a["outcome"]) if not any(b["outcome"] == a["outcome"] for b in fs) else 0
        oc["NO_EFFECT"] = oc.get("NO_EFFECT", 0) + n
        if a["outcome"] == "HIJACKED" and n:
            c["first_hijack"] = None
        c["rechecked"] = max(len(fs), c["rechecked"] - 1)
        print(a["sig"])
        return True
    return False


def stretch(d):
    for c in d["campaigns"]:
        if c.get("executions"):
            c["seconds"] *= 10
            c["exec_per_second"] = c["executions"] / c["seconds"]
    print("stretch")
    return True


def main():
    what, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        d = json.load(f)
    done = (swap(path, d) if what == "swap" else erase(d) if what == "erase" else
            forget(path, d) if what == "forget" else stretch(d) if what == "stretch" else cut(d))
    if not done:
        sys.exit(3)
    with open(path, "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""README.md (and docs/) mention only files that are in the repository: every
`code span` that names a path in one of the checkout's folders (attacks/...,
docs/..., .github/...) must exist, every relative link must lead to a file,
and nothing points outside the checkout (../). Outputs of a run or a build
(out/, build/) and placeholders (<preset>) are not files of the checkout.

  readme_paths.py SOURCE_DIR
"""
import glob
import os
import re
import sys

# Written by a run or a build, or a name the reader fills in.
GENERATED = ("out/", "build/", "shards/", "shard-", "last-good/", "PREFIX", "DIR/", "/tmp")
# Files of the Linux tree the docs quote (kernel/time/timer.c,
# kernel/watchdog.c): the checkout's own kernel/ (the real-kernel leg) has no
# such files.
LINUX_TREE = ("kernel/time/", "kernel/watchdog.c")


def paths_in(text, tops):
    for span in re.findall(r"`([^`\n]+)`", text):
        for word in span.split():
            word = word.strip(",;:()'\"")
            if ("<" in word or "{" in word or "*" in word or word.startswith(GENERATED) or
                    word.startswith(LINUX_TREE)):
                continue
            # A path in one of the checkout's own folders.
            if "/" in word and word.split("/")[0] in tops:
                yield word


def main():
    src = sys.argv[1]
    bad = []
    docs = [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
    tops = {e for e in os.listdir(src) if os.path.isdir(os.path.join(src, e))
            and e not in ("build", "out", ".git")} | {"docs"}
    for doc in docs:
        text = open(doc).read()
        if "../" in text:
            bad.append(f"{doc}: points outside the repository (../)")
        for p in sorted(set(paths_in(text, tops))):
            p = p.rstrip(".")
            # A path is relative to the checkout (or to docs/ for docs' links).
            cands = [os.path.join(src, p), os.path.join(os.path.dirname(doc), p)]
            if p.startswith("/") or not any(os.path.exists(c) for c in cands):
                bad.append(f"{os.path.relpath(doc, src)}: `{p}` is not in the repository")
        for link in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            if not os.path.exists(os.path.join(os.path.dirname(doc), link)):
                bad.append(f"{os.path.relpath(doc, src)}: link ({link}) leads nowhere")
    for b in bad:
        print("FAIL: " + b, file=sys.stderr)
    if not bad:
        print(f"readme: {len(docs)} documents name only files of the repository")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

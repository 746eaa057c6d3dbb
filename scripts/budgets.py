#!/usr/bin/env python3
"""Prints the code budgets, and fails when a count rises above its ceiling.

Each count has a target (issue 50's budget) and a ceiling, today's count: CI fails when a
change raises a count past its ceiling, and whoever lowers a count lowers its ceiling
here, until the ceiling reaches the target.

- PlistCodecs: every line of its Swift files (blank and comment lines too, as `wc -l`
  counts them), at most 4,500. The codecs are the code most read per feature; fast paths
  must pay for their lines (Benchmarks/README.md, "What each mechanism buys").
- Lines that mention unsafe code (the word "unsafe" in any case: `Unsafe…Pointer`,
  `withUnsafe…`, `nonisolated(unsafe)`) across Sources, at most 120:
  each is a place the compiler's memory safety stops and a reader's starts.

usage: scripts/budgets.py [ROOT]
"""
import glob
import os
import re
import sys

# name: (target, ceiling)
BUDGETS = {"PlistCodecs lines": (4500, 6401), "lines mentioning unsafe, all of Sources": (120, 225)}


def swift_files(folder):
    return sorted(glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    sources = os.path.join(root, "Sources")
    codecs = sum(sum(1 for _ in open(path, encoding="utf-8")) for path in swift_files(os.path.join(sources, "PlistCodecs")))
    unsafe_by_target = {}
    for path in swift_files(sources):
        target = os.path.relpath(path, sources).split(os.sep)[0]
        hits = sum(1 for line in open(path, encoding="utf-8") if re.search(r"unsafe", line, re.IGNORECASE))
        unsafe_by_target[target] = unsafe_by_target.get(target, 0) + hits
    counts = {"PlistCodecs lines": codecs, "lines mentioning unsafe, all of Sources": sum(unsafe_by_target.values())}
    over = 0
    for name, (target, ceiling) in BUDGETS.items():
        count = counts[name]
        if count > ceiling:
            verdict = f"ABOVE its ceiling of {ceiling}: cut it, or justify raising the ceiling"
        elif count > target:
            verdict = f"target {target}, {count - target} to cut (ceiling {ceiling})"
        else:
            verdict = f"within the target of {target}"
        over += count > ceiling
        print(f"budget: {name}: {count}, {verdict}")
    print("budget: unsafe mentions by target: " + ", ".join(f"{t} {n}" for t, n in sorted(unsafe_by_target.items())))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

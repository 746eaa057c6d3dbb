#!/usr/bin/env python3
"""Writes the benchmark domains with plistlib: a 100,000-key domain of every type, as XML
(about 7 MB) and binary (about 4 MB), and a one-key domain.

  make_domains.py DIR
"""
import datetime, os, plistlib, sys


def big(n=100_000):
    d = {}
    base = datetime.datetime(2001, 1, 1)
    for i in range(n):
        k = "key%06d" % i
        t = i % 8
        if t == 0:
            d[k] = i * 7919
        elif t == 1:
            d[k] = i / 7.0
        elif t == 2:
            d[k] = "value number %d with some text" % i
        elif t == 3:
            d[k] = bool(i % 3)
        elif t == 4:
            d[k] = base + datetime.timedelta(seconds=i * 3600)
        elif t == 5:
            d[k] = bytes((i + j) % 256 for j in range(24))
        elif t == 6:
            d[k] = ["item %d" % i, i, i % 2 == 0]
        else:
            d[k] = {"name": "entry %d" % i, "count": i, "ratio": i / 3.0}
    return d


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    data = big()
    with open(os.path.join(out, "com.bench.big.plist"), "wb") as f:
        plistlib.dump(data, f, fmt=plistlib.FMT_XML)
    with open(os.path.join(out, "com.bench.bigbin.plist"), "wb") as f:
        plistlib.dump(data, f, fmt=plistlib.FMT_BINARY)
    with open(os.path.join(out, "com.bench.small.plist"), "wb") as f:
        plistlib.dump({"music": True}, f, fmt=plistlib.FMT_XML)


if __name__ == "__main__":
    main()

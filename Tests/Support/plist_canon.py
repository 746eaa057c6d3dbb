"""Independent reader/writer for the tests: Python's plistlib.

  plist_canon.py canon FILE          prints the canonical form of a plist file
  plist_canon.py canon-tree DIR      one line per file below DIR: path, OK or ERR, canonical form
  plist_canon.py write FILE FMT      writes the edge-case dictionary as xml or binary
  plist_canon.py serve               answers requests, a line of JSON each, [OP, ARGS...], with
                                     a line of JSON each, {"ok": BOOL, "out": TEXT} (see serve)

The canonical form is compared with the Swift side's: every value with its type,
reals by bit pattern, strings and data as hex, dictionaries sorted by key bytes.
"""
import datetime, plistlib, struct, sys

EPOCH = datetime.datetime(2001, 1, 1)


def canon(v):
    if isinstance(v, bool):
        return "b:%d" % v
    if isinstance(v, int):
        return "i:%d" % v
    if isinstance(v, float):
        return "r:%016x" % struct.unpack(">Q", struct.pack(">d", v))[0]
    if isinstance(v, str):
        return "s:" + v.encode("utf-8").hex()
    if isinstance(v, (bytes, bytearray)):
        return "d:" + bytes(v).hex()
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return "t:%d" % ((v - EPOCH) // datetime.timedelta(microseconds=1))
    if isinstance(v, list):
        return "a[" + ",".join(canon(e) for e in v) + "]"
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: kv[0].encode("utf-8"))
        return "{" + ",".join(k.encode("utf-8").hex() + "=" + canon(x) for k, x in items) + "}"
    if isinstance(v, plistlib.UID):
        # settings keeps a UID as {CF$UID = n}, the form Apple's XML gives it.
        return canon({"CF$UID": v.data})
    raise TypeError(type(v))


def edge_cases():
    nested = "seed"
    for _ in range(100):
        nested = [nested]
    return {
        "int64_min": -(2**63), "int64_max": 2**63 - 1, "uint64_max": 2**64 - 1,
        "neg_zero": -0.0, "denormal": 5e-324, "tiny": 1e-300, "half": 0.5,
        "emoji": "😀 smile", "utf16": "Åbenraa 日本語 \u0394", "": "empty key",
        "thousand": {"k%04d" % i: i for i in range(1000)}, "nested": nested,
        "dates": [datetime.datetime(1900, 1, 1), datetime.datetime(2000, 2, 29, 12, 30, 15),
                  datetime.datetime(3000, 12, 31, 23, 59, 59)],
        "empty_data": b"", "all_bytes": bytes(range(256)), "yes": True, "no": False,
        "empty_list": [], "empty_dict": {}, "escapes": "a&b<c>d\"e'f",
    }


def serve():
    """One Python for many requests: its start costs more than most commands a test runs.

    canon PATH: the file's canonical form. json PATH: its values as JSON with sorted keys
    (for files of JSON's types). load PATH: the same, any other value as str(). format
    PATH: xml or binary. dump PATH JSON FMT: the JSON's values written there as xml or
    binary. A refusal answers ok false, with plistlib's error.
    """
    import json

    def load(path):
        with open(path, "rb") as f:
            return plistlib.load(f)

    def dump(path, text, fmt):
        with open(path, "wb") as f:
            plistlib.dump(json.loads(text), f, fmt=plistlib.FMT_BINARY if fmt == "binary" else plistlib.FMT_XML)
        return ""

    def file_format(path):
        with open(path, "rb") as f:
            return "binary" if f.read(8) == b"bplist00" else "xml"

    ops = {
        "canon": lambda path: canon(load(path)),
        "json": lambda path: json.dumps(load(path), sort_keys=True),
        "load": lambda path: json.dumps(load(path), sort_keys=True, default=str),
        "format": file_format,
        "dump": dump,
    }
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"ok": True, "out": ops[request[0]](*request[1:])}
        except Exception as e:  # said to the test, which fails with it
            answer = {"ok": False, "out": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def main():
    cmd = sys.argv[1]
    if cmd == "serve":
        return serve()
    path = sys.argv[2]
    if cmd == "canon":
        with open(path, "rb") as f:
            print(canon(plistlib.load(f)))
    elif cmd == "canon-tree":
        import os
        sys.setrecursionlimit(2000)
        for root, _, files in sorted(os.walk(path)):
            for name in sorted(files):
                full = os.path.join(root, name)
                try:
                    with open(full, "rb") as f:
                        line = "OK\t" + canon(plistlib.load(f))
                except Exception as e:  # plistlib's verdict, whatever the reason
                    line = "ERR\t" + type(e).__name__
                print(os.path.relpath(full, path) + "\t" + line)
    elif cmd == "write":
        fmt = plistlib.FMT_BINARY if sys.argv[3] == "binary" else plistlib.FMT_XML
        with open(path, "wb") as f:
            plistlib.dump(edge_cases(), f, fmt=fmt, sort_keys=True)
    else:
        sys.exit("unknown command")


if __name__ == "__main__":
    main()

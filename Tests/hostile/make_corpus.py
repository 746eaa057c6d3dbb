#!/usr/bin/env python3
"""Writes the hostile-file corpus: one malformed or malicious domain file per case.

  make_corpus.py DIR

Each file is named for its case; every one must be refused by `read` and `write` with
exit status 3, one line on stderr and the file left byte for byte as it was. The empty
file is the exception the spec allows: it reads as an empty domain.
"""
import os, random, struct, sys

XML_HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n'


def xml(body):
    return XML_HEAD + body + b"\n</plist>\n"


def bplist(objects, offsets=None, offset_size=1, ref_size=1, count=None, top=0, table=None):
    """A bplist00 from raw object bytes; every trailer field can be overridden."""
    out = bytearray(b"bplist00")
    starts = []
    for obj in objects:
        starts.append(len(out))
        out += obj
    table_at = len(out)
    for off in (offsets if offsets is not None else starts):
        out += off.to_bytes(max(offset_size, 1), "big")[-max(offset_size, 1):]
    out += bytes(6) + bytes([offset_size, ref_size])
    out += struct.pack(">QQQ", len(objects) if count is None else count, top, table_at if table is None else table)
    return bytes(out)


def cases():
    valid = xml(b"<dict>\n\t<key>a</key>\n\t<string>" + b"x" * 200 + b"</string>\n</dict>")
    rng = random.Random(7)
    yield "truncated.xml", valid[: len(valid) // 2]
    yield "garbage.bin", bytes(rng.randrange(256) for _ in range(4096))
    yield "garbage-text.txt", b"these are not plist file contents\n" * 20
    yield "empty", b""
    yield "deep-xml", b"<plist>" + b"<array>" * 200_000
    yield "deep-xml-dict", b"<plist>" + b"<dict><key>k</key>" * 200_000
    yield "deep-openstep-array", b"(" * 200_000
    yield "deep-openstep-dict", b"{a=" * 200_000
    lol = b"".join(b'<!ENTITY l%d "&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;">' % ((i,) + (i - 1,) * 10) for i in range(1, 10))
    yield "entity-bomb.xml", b'<?xml version="1.0"?>\n<!DOCTYPE plist [<!ENTITY l0 "lol">' + lol + b"]>\n<plist><dict><key>a</key><string>&l9;</string></dict></plist>"
    yield "external-entity.xml", b'<?xml version="1.0"?>\n<!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<plist><dict><key>a</key><string>&x;</string></dict></plist>'
    yield "bad-integer.xml", xml(b"<dict><key>a</key><integer>12abc</integer></dict>")
    yield "400-digit-integer.xml", xml(b"<dict><key>a</key><integer>" + b"9" * 400 + b"</integer></dict>")
    yield "bad-real.xml", xml(b"<dict><key>a</key><real>1.2.3</real></dict>")
    # Fields past their end carry over, as Foundation reads them; a letter does not.
    yield "bad-date.xml", xml(b"<dict><key>a</key><date>2020-1x-45T99:99:99Z</date></dict>")
    yield "bad-base64.xml", xml(b"<dict><key>a</key><data>@@@@</data></dict>")
    yield "array-root.xml", xml(b"<array><string>a</string></array>")
    yield "string-root.openstep", b'"just a string"'
    yield "invalid-utf8.xml", xml(b"<dict><key>a</key><string>\xff\xfe\xc3</string></dict>")
    yield "odd-utf16.xml", b"\xff\xfe<\x00p\x00l"
    yield "unknown-tag.xml", xml(b"<dict><key>a</key><script>x</script></dict>")
    yield "unterminated.openstep", b'{ a = "never closed; }'
    yield "binary-array-root", bplist([b"\xa1\x01", b"\x09"])
    yield "binary-cycle", bplist([b"\xd1\x01\x00"] + [b"\x51a"])
    yield "binary-self-reference", bplist([b"\xa1\x00"])
    yield "binary-two-object-cycle", bplist([b"\xd1\x02\x01", b"\xa1\x00", b"\x51k"])
    yield "binary-reference-out-of-range", bplist([b"\xd1\x01\x09", b"\x51a"])
    yield "binary-offset-out-of-range", bplist([b"\xd1\x01\x01", b"\x51a"], offsets=[8, 250])
    yield "binary-top-out-of-range", bplist([b"\xd0"], top=5)
    yield "binary-huge-count", bplist([b"\xdf\x13" + (2**62).to_bytes(8, "big")])
    yield "binary-huge-object-count", bplist([b"\xd0"], count=2**60)
    yield "binary-zero-offset-size", bplist([b"\xd0"], offset_size=0)
    yield "binary-zero-ref-size", bplist([b"\xd1\x01\x01", b"\x51a"], ref_size=0)
    yield "binary-string-past-end", bplist([b"\xd1\x01\x02", b"\x51a", b"\x5f\x12\x00\x10\x00\x00x"])
    yield "binary-utf16-past-end", bplist([b"\xd1\x01\x02", b"\x51a", b"\x6f\x12\x00\x10\x00\x00\x00x"])
    yield "binary-data-past-end", bplist([b"\xd1\x01\x02", b"\x51a", b"\x4f\x13" + (2**40).to_bytes(8, "big")])
    yield "binary-truncated-trailer", bplist([b"\xd0"])[:-7]
    yield "binary-bad-int", bplist([b"\xd1\x01\x02", b"\x51a", b"\x14" + b"\x12" * 16])
    yield "binary-sharing-bomb", bplist([b"\xd1\x01\x02", b"\x51a"] + [b"\xa2" + bytes([i + 3, i + 3]) for i in range(60)] + [b"\x09"])
    ref = lambda n: n.to_bytes(4, "big")
    yield "binary-deep", bplist([b"\xd1" + ref(1) + ref(2), b"\x51a"] + [b"\xa1" + ref(i + 3) for i in range(100_000)] + [b"\x09"],
                                offset_size=4, ref_size=4)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, content in cases():
        with open(os.path.join(out, name), "wb") as f:
            f.write(content)


if __name__ == "__main__":
    main()

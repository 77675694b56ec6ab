"""Compare Apache ORC C++'s orc-contents output with orcgo's `orc cat` output.

    python3 cmpvals.py TYPE CPP GO

TYPE is the file's ORC type string (orc-metadata's "type"), CPP the output of
orc-contents, GO that of `orc cat` (JSON lines). Each value is compared as its
type asks, the two tools printing some types differently:

- float and double: C++ prints printf's %.7g and %.14g, orcgo the shortest
  form that reads back; the orcgo value printed with C++'s format must be the
  C++ text. NaN and infinities: C++ prints nan, -nan, inf, -inf (not JSON;
  turned into strings before parsing), orcgo "NaN", "Infinity", "-Infinity".
- decimal: C++ prints a string with trailing zeros trimmed, orcgo a number
  with the type's scale: equal as decimal numbers.
- timestamp: orcgo prints an instant (timestamp with local time zone) with
  its offset, +00:00 in UTC; C++ prints both kinds without one.
- string: C++ writes control characters below 0x20 other than \\b \\f \\n \\r
  \\t raw, orcgo escapes them: both read as the same string (non-strict JSON).
- binary: both a list of byte values. map: both a list of {key, value}.

Prints the rows and the values compared, and the first differences; exits 1
on any difference.
"""

import collections
import datetime
import json
import re
import struct
import sys
from decimal import Decimal


def parse_type(s):
    """Parses an ORC type string into (kind, args, children, names)."""
    pos = 0

    def ident():
        nonlocal pos
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*?(?=[<>(),:]|$)").match(s, pos)
        if not m:
            raise ValueError("bad type at %d: %s" % (pos, s[pos:]))
        pos = m.end()
        return m.group(0)

    def expect(c):
        nonlocal pos
        if s[pos] != c:
            raise ValueError("expected %r at %d in %s" % (c, pos, s))
        pos += 1

    def node():
        nonlocal pos
        kind = ident()
        if kind == "struct":
            expect("<")
            names, kids = [], []
            while s[pos] != ">":
                if kids:
                    expect(",")
                names.append(ident())
                expect(":")
                kids.append(node())
            expect(">")
            return ("struct", None, kids, names)
        if kind in ("array", "map", "uniontype"):
            expect("<")
            kids = [node()]
            while s[pos] == ",":
                pos += 1
                kids.append(node())
            expect(">")
            return (kind, None, kids, None)
        args = None
        if pos < len(s) and s[pos] == "(":
            end = s.index(")", pos)
            args = s[pos + 1:end]
            pos = end + 1
        return (kind, args, [], None)

    t = node()
    if pos != len(s):
        raise ValueError("trailing text in type: " + s[pos:])
    return t


SPECIAL = {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}


def same_float(fmt, c, g, single):
    if isinstance(g, str):  # NaN, Infinity, -Infinity from orcgo
        return isinstance(c, str) and c.lstrip("-") == "nan" if g == "NaN" else c == SPECIAL[g]
    if isinstance(c, str):
        return False
    v = float(g.text)
    if single:  # orcgo prints the shortest text that reads back as the same float32
        v = struct.unpack("<f", struct.pack("<f", v))[0]
    return fmt % v == c.text


def norm_ts(v, instant):
    if instant:
        if not v.endswith("+00:00"):
            raise ValueError("instant not in UTC: " + v)
        v = v[: -len("+00:00")]
    day, _, frac = v.partition(".")
    return day, frac.rstrip("0")


class Num:
    """A JSON number kept as its text."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def same(t, c, g, count, path="", diffs=None):
    """Reports whether C++ value c and orcgo value g of type t agree,
    counting the values compared in count[0] and adding (path, c, g) of each
    leaf that differs to diffs."""
    kind, args, kids, names = t
    if diffs is None:
        diffs = []
    if c is None or g is None:
        count[0] += 1
        ok = c is None and g is None
    elif kind == "struct":
        if not isinstance(c, dict) or not isinstance(g, dict) or list(c) != names or list(g) != names:
            ok = False
        else:
            return all([same(k, c[n], g[n], count, path + "." + n, diffs) for k, n in zip(kids, names)])
    elif kind == "array":
        if not isinstance(c, list) or not isinstance(g, list) or len(c) != len(g):
            ok = False
        else:
            return all([same(kids[0], x, y, count, path + "._elem", diffs) for x, y in zip(c, g)])
    elif kind == "map":
        if not isinstance(c, list) or not isinstance(g, list) or len(c) != len(g) or \
                any(list(x) != ["key", "value"] for x in c + g):
            ok = False
        else:
            return all([same(kids[0], x["key"], y["key"], count, path + "._key", diffs)
                        and same(kids[1], x["value"], y["value"], count, path + "._value", diffs)
                        for x, y in zip(c, g)])
    else:
        count[0] += 1
        ok = same_primitive(kind, c, g)
    if not ok:
        diffs.append((path[1:], c, g))
    return ok


def same_primitive(kind, c, g):
    if kind == "float":
        return same_float("%.7g", c, g, True)
    if kind == "double":
        return same_float("%.14g", c, g, False)
    if kind == "decimal":
        return Decimal(c) == Decimal(g.text)
    if kind in ("tinyint", "smallint", "int", "bigint"):
        return isinstance(c, Num) and isinstance(g, Num) and int(c.text) == int(g.text)
    if kind == "timestamp":
        return norm_ts(c, False) == norm_ts(g, False)
    if kind == "timestamp with local time zone":
        return norm_ts(c, False) == norm_ts(g, True)
    # boolean, date, string, char, varchar, binary (lists of Num)
    if kind == "binary":
        return [x.text for x in c] == [y.text for y in g]
    return c == g


def ts_delta(c, g):
    """C++ minus orcgo in seconds, for two timestamps, else None."""
    try:
        parse = lambda v: datetime.datetime.fromisoformat(v.removesuffix("+00:00"))
        return (parse(c) - parse(g)).total_seconds()
    except (AttributeError, TypeError, ValueError):
        return None


# nan, -nan, inf and -inf where orc-contents prints a value: after ": ", "[" or ", " and before ",", "]" or "}".
CPP_SPECIAL = re.compile(r'(?<=[:\[,] )(-?(?:nan|inf))(?=[,\]}])|(?<=\[)(-?(?:nan|inf))(?=[,\]])')


def load(line, cpp):
    if cpp:
        line = CPP_SPECIAL.sub(lambda m: '"%s"' % (m.group(1) or m.group(2)), line)
    return json.loads(line, strict=False, parse_float=Num, parse_int=Num)


def main():
    typ, cpp, go = sys.argv[1], sys.argv[2], sys.argv[3]
    t = parse_type(typ)
    with open(cpp, encoding="utf-8") as f:
        a = f.read().splitlines()
    with open(go, encoding="utf-8") as f:
        b = f.read().splitlines()
    bad, count, diffs = 0, [0], []
    if len(a) != len(b):
        print(cpp, "rows: C++ %d, orcgo %d" % (len(a), len(b)))
        bad += 1
    for i, (x, y) in enumerate(zip(a, b)):
        if not same(t, load(x, True), load(y, False), count, "", diffs):
            bad += 1
            if bad < 4:
                print("row", i, "\n cpp", x[:2000], "\n go ", y[:2000])
    by_column = collections.defaultdict(list)
    for path, c, g in diffs:
        d = ts_delta(c, g)
        by_column[(path, "" if d is None else " (C++ minus orcgo: %g s)" % d)].append(str(g))
    for (path, note), gs in sorted(by_column.items()):
        print("  column %s: %d values differ%s, orcgo's from %s to %s" % (path, len(gs), note, min(gs), max(gs)))
    print("%s: %d rows, %d values, %d differ" % (cpp, len(a), count[0], bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

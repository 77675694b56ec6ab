"""Compare Apache ORC C++'s orc-statistics output with orcgo's `orc meta --json`.

    python3 cmpstats.py CPP GOJSON

CPP is the output of orc-statistics for one file (file statistics, then every
stripe's), GOJSON that of `orc meta --json` for the same file. Every statistic
both print is compared, for the file and for each stripe, as its column's kind
asks:

- counts, has-null, integer minimum, maximum and sum, string minimum and
  maximum, total lengths, true counts, list and map child counts: equal;
- float and double minimum, maximum and sum: C++ prints them with 6
  significant digits (%g): the orcgo value printed so must be the C++ text;
- decimal: equal as decimal numbers;
- date: C++ prints days since 1970-01-01, orcgo the date;
- timestamp: C++ prints the milliseconds it read (minimum_utc, maximum_utc) as
  a UTC time, then "." and the remainder of the milliseconds divided by 1000,
  unpadded and negative before 1970 (01.-500 is 0.5 s before 01); those are
  turned back into milliseconds, and orcgo's value (with nanoseconds) is
  floored to milliseconds. C++ also prints LowerBound and UpperBound, which it
  derives from the same fields: not compared.

A statistic C++ says is "not defined" must be absent in orcgo's JSON and the
other way round. bytesOnDisk (orcgo only) is not compared. Exits 1 on any
difference.
"""

import calendar
import datetime
import json
import re
import sys
from decimal import Decimal

KEYS = ("Data type", "Values", "Has null", "Minimum", "Maximum", "Sum", "Total length",
        "LowerBound", "UpperBound", "MinChildren", "MaxChildren", "TotalChildren")


def parse_cpp(path):
    """Returns {scope: {column: {field: text}}}, scope "file" or "stripe N"."""
    out, scope, col, last = {}, None, None, None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    for line in lines:
        m = re.match(r"^File .* has \d+ (columns|stripes)$", line)
        if m:
            scope, col = ("file" if m.group(1) == "columns" else None), None
            continue
        m = re.match(r"^\*\*\* Stripe (\d+) \*\*\*$", line)
        if m:
            scope, col = "stripe %s" % m.group(1), None
            continue
        m = re.match(r"^(?:\*\*\*|---) Column (\d+) (?:\*\*\*|---)$", line)
        if m:
            col = int(m.group(1))
            out.setdefault(scope, {})[col] = {}
            last = None
            continue
        if scope is None or col is None:
            continue
        st = out[scope][col]
        m = re.match(r"^Column has (\d+) values and has null value: (yes|no)$", line)
        if m:
            st["Values"], st["Has null"] = m.group(1), m.group(2)
            continue
        m = re.match(r"^\(true: (\d+); false: (\d+)\)$", line)
        if m:
            st["true"], st["false"] = m.group(1), m.group(2)
            continue
        m = re.match(r"^(%s)( is not defined|: (.*))$" % "|".join(re.escape(k) for k in KEYS), line)
        if m:
            last = m.group(1)
            st[last] = None if m.group(2) == " is not defined" or m.group(3) == "not defined" else m.group(3)
            continue
        if line == "":
            continue
        if last is not None and isinstance(st.get(last), str):  # a string value holding a newline
            st[last] += "\n" + line
            continue
        raise ValueError("%s: unexpected line %r" % (path, line))
    # the blank line after a value is the separator, not part of a string
    return out


EPOCH = datetime.date(1970, 1, 1).toordinal()


def cpp_ts_millis(text):
    m = re.match(r"^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(-?\d+)$", text)
    if not m:
        return ("unreadable", text)
    y, mo, d, h, mi, s, frac = (int(x) for x in m.groups())
    return calendar.timegm((y, mo, d, h, mi, s)) * 1000 + frac


def go_ts_millis(text):
    text = text.removesuffix("+00:00")
    day, _, frac = text.partition(".")
    dt = datetime.datetime.strptime(day, "%Y-%m-%d %H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    secs = calendar.timegm(dt.timetuple())
    return secs * 1000 + int((frac + "000")[:3])


def fmt_g(v):
    if isinstance(v, str):
        # orc meta --json prints Go's NaN, +Inf, -Inf
        return {"NaN": "nan", "+Inf": "inf", "-Inf": "-inf"}[v]
    return "%g" % v


def compare(kind, c, g, where, diffs, counted):
    def check(name, cv, gv):
        counted[0] += 1
        if cv != gv:
            diffs.append("%s %s: C++ %r, orcgo %r" % (where, name, cv, gv))

    check("count", int(c["Values"]), g["count"])
    check("hasNull", c["Has null"] == "yes", g["hasNull"])
    if kind == "boolean":
        check("trueCount", int(c["true"]), g.get("trueCount"))
        check("falseCount", int(c["false"]), g["count"] - g.get("trueCount", 0))
        return
    if kind in ("array", "map"):
        for ck, gk in (("MinChildren", "minChildren"), ("MaxChildren", "maxChildren"), ("TotalChildren", "totalChildren")):
            check(gk, None if c.get(ck) is None else int(c[ck]), g.get(gk))
        return
    if kind in ("struct", "uniontype"):
        return
    pairs = [("Minimum", "min"), ("Maximum", "max")]
    if kind in ("tinyint", "smallint", "int", "bigint", "float", "double", "decimal"):
        pairs.append(("Sum", "sum"))
    if kind in ("string", "varchar", "char", "binary"):
        check("totalLength", None if c.get("Total length") is None else int(c["Total length"]), g.get("totalLength"))
        if kind == "binary":
            return
    for ck, gk in pairs:
        cv, gv = c.get(ck), g.get(gk)
        if cv is None or gv is None:
            check(gk, cv is None, gv is None)
            continue
        if kind in ("tinyint", "smallint", "int", "bigint"):
            check(gk, int(cv), gv)
        elif kind in ("float", "double"):
            check(gk, cv, fmt_g(gv))
        elif kind == "decimal":
            check(gk, Decimal(cv), gv)
        elif kind == "date":
            check(gk, int(cv), datetime.date.fromisoformat(gv).toordinal() - EPOCH)
        elif kind in ("timestamp", "timestamp with local time zone"):
            check(gk, cpp_ts_millis(cv), go_ts_millis(gv))
        else:
            check(gk, cv, gv)


def main():
    cpp, gojson = sys.argv[1], sys.argv[2]
    c = parse_cpp(cpp)
    with open(gojson, encoding="utf-8") as f:
        # -0 (a double's minimum) must keep its sign
        g = json.load(f, parse_float=Decimal, parse_int=lambda s: Decimal(s) if s == "-0" else int(s))
    kinds = [col["kind"] for col in g["columns"]]
    scopes = [("file", {col["id"]: col["statistics"] for col in g["columns"]})]
    for s in g.get("stripes", []):
        scopes.append(("stripe %d" % s["index"], {st["column"]: st for st in s["statistics"]}))
    diffs, counted = [], [0]
    if sorted(c) != sorted(name for name, _ in scopes):
        diffs.append("scopes: C++ %s, orcgo %s" % (sorted(c), sorted(name for name, _ in scopes)))
    for name, stats in scopes:
        cs = c.get(name, {})
        if sorted(cs) != sorted(stats):
            diffs.append("%s: columns C++ %s, orcgo %s" % (name, sorted(cs), sorted(stats)))
        for col, gs in stats.items():
            if col in cs:
                compare(kinds[col], cs[col], gs, "%s column %d (%s)" % (name, col, kinds[col]), diffs, counted)
    for d in diffs[:10]:
        print(" ", d)
    print("%s: %d scopes, %d statistics, %d differ" % (cpp, len(scopes), counted[0], len(diffs)))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()

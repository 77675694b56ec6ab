# prints orcgo's `orc meta --json --rowindex ...` geospatial statistics in geodriver's format
import json, sys
base = {"POINT":1,"LINESTRING":2,"POLYGON":3,"MULTIPOINT":4,"MULTILINESTRING":5,"MULTIPOLYGON":6,"GEOMETRYCOLLECTION":7}
def code(name):
    p = name.split(" ")
    c = base[p[0]]
    if len(p) > 1:
        c += {"Z":1000,"M":2000,"ZM":3000}[p[1]]
    return c
def line(unit, col, st):
    out = "%s c%d:" % (unit, col)
    bb = st.get("boundingBox")
    if bb:
        for a in "xyzm":
            if a+"min" in bb and a+"max" in bb:
                out += " %s=[%s,%s]" % (a, "%.17g" % bb[a+"min"], "%.17g" % bb[a+"max"])
    out += " t=[%s]" % ",".join(str(c) for c in sorted(code(t) for t in st.get("geometryTypes", [])))
    print(out)
d = json.load(sys.stdin)
geo = [c["id"] for c in d["columns"] if c["kind"] in ("geometry", "geography")]
bycol = {c["id"]: c for c in d["columns"]}
for c in geo:
    line("file", c, bycol[c]["statistics"])
for s, st in enumerate(d["stripes"]):
    sst = {x["column"]: x for x in st["statistics"]}
    ri = {x["column"]: x for x in st.get("rowIndex", [])}
    for c in geo:
        line("stripe %d" % s, c, sst[c])
        for e in ri[c]["entries"]:
            line("stripe %d group %d" % (s, e["group"]), c, e["statistics"])

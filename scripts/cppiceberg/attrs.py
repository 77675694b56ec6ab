"""Check the ORC type and type attributes Apache ORC C++ reads from an Iceberg data file.

    python3 attrs.py SCHEMA.json METADATA.json

SCHEMA.json is the Iceberg schema the file was written with (a schema object
of the table's metadata file, or a table metadata file, whose current schema
is taken), METADATA.json the output of orc-metadata for the file. From the
Iceberg schema alone this script works out the ORC type and the attributes of
every ORC type node, as spec.md 10.1 tabulates them (the Iceberg spec's "ORC"
section, with the values Apache Iceberg's ORCSchemaUtil also writes), and
compares them with what C++ read:

- every field, list element, map key and map value: iceberg.id (its field
  id) and iceberg.required ("true" or "false"; a map key is required);
- time: bigint with iceberg.long-type TIME; long: bigint with
  iceberg.long-type LONG;
- uuid: binary with iceberg.binary-type UUID; fixed(L): binary with
  iceberg.binary-type FIXED and iceberg.length L; binary: binary with
  iceberg.binary-type BINARY;
- timestamp and timestamptz: timestamp and timestamp with local time zone
  with iceberg.timestamp-unit MICROS; timestamp_ns and timestamptz_ns the same
  types with NANOS;
- decimal(P,S): decimal(P,S); the other primitives their ORC namesakes;
- the root struct: no attributes.

Prints the nodes and attributes checked; exits 1 on any difference.
"""

import json
import re
import sys

PRIMITIVE = {
    "boolean": ("boolean", {}),
    "int": ("int", {}),
    "long": ("bigint", {"iceberg.long-type": "LONG"}),
    "float": ("float", {}),
    "double": ("double", {}),
    "date": ("date", {}),
    "time": ("bigint", {"iceberg.long-type": "TIME"}),
    "timestamp": ("timestamp", {"iceberg.timestamp-unit": "MICROS"}),
    "timestamptz": ("timestamp with local time zone", {"iceberg.timestamp-unit": "MICROS"}),
    "timestamp_ns": ("timestamp", {"iceberg.timestamp-unit": "NANOS"}),
    "timestamptz_ns": ("timestamp with local time zone", {"iceberg.timestamp-unit": "NANOS"}),
    "string": ("string", {}),
    "uuid": ("binary", {"iceberg.binary-type": "UUID"}),
    "binary": ("binary", {"iceberg.binary-type": "BINARY"}),
}


def orc_type(t, path, want):
    """Returns the ORC type string of Iceberg type t, adding the attributes of
    the nodes below it (path is t's node) to want."""
    if isinstance(t, str):
        m = re.fullmatch(r"decimal\((\d+),\s*(\d+)\)", t)
        if m:
            return "decimal(%s,%s)" % m.groups(), {}
        m = re.fullmatch(r"fixed\[(\d+)\]", t)
        if m:
            return "binary", {"iceberg.binary-type": "FIXED", "iceberg.length": m.group(1)}
        return PRIMITIVE[t]
    if t["type"] == "struct":
        parts = []
        for f in t["fields"]:
            name = f["name"]
            parts.append("%s:%s" % (name, field(f["type"], f["id"], f["required"], join(path, name), want)))
        return "struct<%s>" % ",".join(parts), {}
    if t["type"] == "list":
        e = field(t["element"], t["element-id"], t["element-required"], join(path, "_elem"), want)
        return "array<%s>" % e, {}
    if t["type"] == "map":
        k = field(t["key"], t["key-id"], True, join(path, "_key"), want)
        v = field(t["value"], t["value-id"], t["value-required"], join(path, "_value"), want)
        return "map<%s,%s>" % (k, v), {}
    raise ValueError("unknown Iceberg type %r" % (t,))


def field(t, fid, required, path, want):
    s, attrs = orc_type(t, path, want)
    a = {"iceberg.id": str(fid), "iceberg.required": "true" if required else "false"}
    a.update(attrs)
    want[path] = a
    return s


def join(path, name):
    return name if not path else path + "." + name


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    if "schemas" in schema:  # a table metadata file
        schema = next(s for s in schema["schemas"] if s["schema-id"] == schema["current-schema-id"])
    with open(sys.argv[2], encoding="utf-8") as f:
        meta = json.loads(f.read(), strict=False)
    want = {}
    typ, _ = orc_type(schema, "", want)
    got = meta["attributes"]
    bad = []
    if meta["type"] != typ:
        bad.append("type: C++ %s, from the Iceberg schema %s" % (meta["type"], typ))
    for path in sorted(set(want) | set(got)):
        if want.get(path) != got.get(path):
            bad.append("%s: C++ %s, from the Iceberg schema %s" % (path or "(root)", got.get(path), want.get(path)))
    for b in bad[:10]:
        print(" ", b)
    print("%s: %d typed nodes, %d attributes, %d differ" % (
        meta["name"], len(want), sum(len(a) for a in want.values()), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

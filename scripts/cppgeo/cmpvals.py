import json, sys
def norm(v):
    if isinstance(v, list) and all(isinstance(x, int) for x in v) and v and len(v) >= 5 and v[0] in (0, 1):
        return bytes(v).hex()
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v
cpp, go = sys.argv[1], sys.argv[2]
a = [norm(json.loads(l)) for l in open(cpp)]
b = [json.loads(l) for l in open(go)]
assert len(a) == len(b), (len(a), len(b))
bad = 0
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        bad += 1
        if bad < 4: print("row", i, "\n cpp", x, "\n go ", y)
print(cpp, len(a), "rows,", bad, "differ")

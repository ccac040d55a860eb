#!/usr/bin/env python3
"""Regenerate attacks/NNN-*.yaml + .json, run each under tools/render.py and
keep only the ones that fire. Usage: python tools/attacks.py [--keep-all]"""
import base64, io, json, os, sys, tarfile, zipfile, glob
sys.path.insert(0, os.path.dirname(__file__))
import render

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(HERE, "attacks")
PAY = 'echo HARBOR-PWNED-$((6*7))'
PAY1 = 'echo${IFS}HARBOR-PWNED-$((6*7))'
PYPAY = 'import os; os.system("echo HARBOR-PWNED-$((6*7))")'
A = []


def add(slug, cls, why, y, args):
    A.append((slug, cls, why, y.strip() + "\n", args))


def b64(data):
    return base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()


def zipb(files):
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, "w") as z:
        for n, c in files.items(): z.writestr(n, c)
    return bio.getvalue()


def tgzb(files):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for n, c in files.items():
            d = c.encode(); ti = tarfile.TarInfo(n); ti.size = len(d); ti.mode = 0o644
            t.addfile(ti, io.BytesIO(d))
    return bio.getvalue()

from attacks_defs import define  # noqa: E402
define(add, PAY, PAY1, PYPAY, b64, zipb, tgzb)
from attacks_defs2 import define2  # noqa: E402
define2(add, PAY, PAY1, PYPAY, b64, zipb, tgzb)


def main():
    keep_all = "--keep-all" in sys.argv
    os.makedirs(OUT, exist_ok=True)
    for f in glob.glob(os.path.join(OUT, "*")):
        os.unlink(f)
    names = set(); rows = []; n = 0; failed = []
    for slug, cls, why, y, args in A:
        assert "HARBOR-PWNED-42" not in json.dumps(args), slug
        n += 1
        num = "%03d" % n
        y2 = y.replace("NAME_ID", "r3a_" + num)
        base = os.path.join(OUT, f"{num}-{slug}")
        open(base + ".yaml", "w").write(y2)
        json.dump({"args": args, "class": cls, "why": why}, open(base + ".json", "w"), indent=1)
        try:
            r = render.run(base + ".yaml", base + ".json")
        except Exception as e:  # a definition that does not even load
            r = {"marker": False, "leak": False, "invalid": ["render error: %r" % e], "out": ""}
        ok = r["leak"] if cls == "secret-leak" else r["marker"]
        if not ok and not keep_all:
            failed.append((num, slug, r["invalid"], r["out"][-400:]))
            os.unlink(base + ".yaml"); os.unlink(base + ".json")
            n -= 1
            continue
        rows.append((f"{num}-{slug}", cls, why))
    for f in failed:
        print("FAILED", f)
    print(len(rows), "verified")
    json.dump(rows, open(os.path.join(HERE, "tools", "verified.json"), "w"), indent=1)
    import runpy
    runpy.run_path(os.path.join(HERE, "tools", "index.py"))

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes blind34r54/attacks/NNN-name.yaml + .json and attacks/then/*.yaml (written for this round,
from the docs only; the format of blind34r20's generator)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
SUB = "$(echo HARBOR-PWNED-$((6*7)) >&2)"
SH = "echo HARBOR-PWNED-$((6*7)) >&2"
SEDE = "1e " + SH + " #"                       # in sed -n "${n}p"
SEDS = "x|;1e " + SH + ";#"                     # in sed "s|A|$v|"
AWKSYS = 'system("echo HARBOR-PWNED-" 6*7)'
ARITH = "x[$(echo HARBOR-PWNED-$((6*7)) >&2)]"
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
REDIR = "go/127.0.0.1/18765/steal"               # the author's API redirects /go/HOST/PORT/REST there
ATT = []
THEN = {}


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


def T(name, y):
    THEN[name] = y.strip() + "\n"


AWKNR = "1 || " + AWKSYS

exec(open(os.path.join(HERE, "attacks_r54.py")).read())


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(os.path.join(OUT, "then"), exist_ok=True)
    for f in os.listdir(OUT):
        if f[:3].isdigit():
            os.unlink(os.path.join(OUT, f))
    for f in os.listdir(os.path.join(OUT, "then")):
        os.unlink(os.path.join(OUT, "then", f))
    for name, y in THEN.items():
        open(os.path.join(OUT, "then", name + ".yaml"), "w").write(y)
    i = 0
    for name, cls, y, args, why, extra in ATT:
        if extra.pop("skip", False):
            continue
        i += 1
        base = os.path.join(OUT, "%03d-%s" % (i, name))
        open(base + ".yaml", "w").write(y)
        spec = {"args": dict(args), "class": cls, "why": why}
        spec.update(extra)
        json.dump(spec, open(base + ".json", "w"), indent=1)
        assert ("HARBOR-PWNED-" + str(6 * 7)) not in json.dumps(spec), name
    print(i, "attacks,", len(THEN), "then-exports")


if __name__ == "__main__":
    main()

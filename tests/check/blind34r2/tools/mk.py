import base64, io, json, os, subprocess, tarfile, tempfile, textwrap
OUT = "/work/main/tests/check/blind34r2"

def tgz(files, dirs=(), modes=None):
    """files: name->bytes|str; returns base64 of a tar.gz"""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for d in dirs:
            ti = tarfile.TarInfo(d); ti.type = tarfile.DIRTYPE; ti.mode = 0o755; t.addfile(ti)
        for n, c in files.items():
            if isinstance(c, str): c = c.encode()
            ti = tarfile.TarInfo(n); ti.size = len(c); ti.mode = 0o755 if n.endswith(".sh") else 0o644
            t.addfile(ti, io.BytesIO(c))
    return base64.b64encode(bio.getvalue()).decode()

def tgz_dir(path):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        t.add(path, arcname=".")
    return base64.b64encode(bio.getvalue()).decode()

def b64(s): return base64.b64encode(s.encode()).decode()

def write(kind, num, slug, yaml_text, args=None, cls=None, why=None):
    d = f"{OUT}/{kind}"
    base = f"{num:03d}-{slug}"
    open(f"{d}/{base}.yaml", "w").write(textwrap.dedent(yaml_text).lstrip())
    if kind == "attacks":
        assert "HARBOR-PWNED-42" not in json.dumps(args), base
        json.dump({"args": args, "class": cls, "why": why}, open(f"{d}/{base}.json", "w"), indent=1)
    return base

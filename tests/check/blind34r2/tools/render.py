#!/usr/bin/env python3
"""Hand-render an export as docs/exports.md describes and run it under bash
(not mcp-harbor). ARG_*/secrets/STEP_* outputs become unexported shell
variables set on the first line with $'\\xHH' quoting."""
import base64, json, os, re, shlex, subprocess, sys, tempfile, yaml

SECRET = "s3cr3tT0ken99"
MARK = "HARBOR-PWNED-42"

def text(v):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (dict, list)): return json.dumps(v, separators=(",", ":"))
    if v is None: return ""
    return str(v) if not isinstance(v, str) else v

def ansi(s):
    return "$'" + "".join("\\x%02x" % b for b in s.encode()) + "'"

PH = re.compile(r"\{\{\s*args\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|\s*(shellquote)\s*)?\}\}")

def render(s, vals):
    def rep(m):
        t = vals.get(m.group(1), "")
        return shlex.quote(t) if m.group(3) else t
    return PH.sub(rep, s)

def read_outputs(path):
    out = {}
    if not os.path.exists(path): return out
    lines = open(path, errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)<<(.*)$", l)
        if m:
            k, d = m.group(1), m.group(2); buf = []; i += 1
            while i < len(lines) and lines[i] != d: buf.append(lines[i]); i += 1
            out[k] = "\n".join(buf)
        elif "=" in l:
            k, v = l.split("=", 1)
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k): out[k] = v
        i += 1
    return out

def run(yfile, jfile, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = json.load(open(jfile)) if jfile else {"args": {}}
    args = dict(spec.get("args", {}))
    rundir = tempfile.mkdtemp(prefix="r2run-")
    os.makedirs(rundir + "/inputs"); os.makedirs(rundir + "/steps"); os.makedirs(rundir + "/tmp")
    workdir = tempfile.mkdtemp(prefix="r2wd-")
    vals = {}
    for name, sch in (exp.get("args") or {}).items():
        if name in args: v = args[name]
        elif "default" in sch: v = sch["default"]
        else: continue
        if sch.get("contentEncoding") == "base64":
            p = os.path.join(rundir, "inputs", name)
            open(p, "wb").write(base64.b64decode(v)); v = p
        vals[name] = text(v)
    secrets = {}
    for sname, src in (exp.get("secrets") or {}).items():
        secrets[sname] = SECRET
    json.dump({"args": args}, open(rundir + "/context.json", "w"))
    steps = (exp.get("steps") or []) + (exp.get("finally") or [])
    outs = {}; allout = ""
    for n, st in enumerate(steps, 1):
        env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8",
               "TMPDIR": rundir + "/tmp", "HARBOR_RUN_ID": "r2", "HARBOR_RUN_DIR": rundir,
               "HARBOR_TOOL": exp["name"], "HARBOR_STEP": st["name"],
               "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}.out", "HARBOR_PROGRESS": f"{rundir}/steps/{n}.progress",
               "HARBOR_CONTEXT": rundir + "/context.json", "HARBOR_OUTPUT": rundir + "/output.json",
               "HARBOR_CALLER_PRINCIPAL": "local:r2", "HARBOR_CALLER_TENANT": "local", "HARBOR_CALLER_TRANSPORT": "cli",
               "HARBOR_CALLER_GROUPS": ""}
        for sn, so in outs.items():
            env[f"STEP_{sn}_EXIT"] = str(so["exit"]); env[f"STEP_{sn}_STATUS"] = "ok" if so["exit"] == 0 else "failed"
        cwd = workdir
        if st.get("cwd"): cwd = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(yfile)), st["cwd"]))
        if "run" in st:
            pro = []
            for k, v in vals.items(): pro.append(f"ARG_{k}={ansi(v)}; ")
            for k, v in secrets.items(): pro.append(f"{k}={ansi(v)}; ")
            for sn, so in outs.items():
                for k, v in so["outputs"].items(): pro.append(f"STEP_{sn}_{k}={ansi(v)}; ")
            script = "".join(pro) + render(st["run"], vals)
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            sf = f"{rundir}/steps/{n}.sh"; open(sf, "w").write(script)
            cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
        elif "argv" in st:
            cmd = [render(str(a), vals) for a in st["argv"]]
            env.update(secrets)
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
        else:
            continue
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
            o = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"); rc = p.returncode
        except subprocess.TimeoutExpired:
            o = "TIMEOUT"; rc = 124
        if "run" in st: os.unlink(sf)
        allout += o
        outs[st["name"]] = {"exit": rc, "outputs": read_outputs(f"{rundir}/steps/{n}.out")}
        if verbose: print(f"[{st['name']} rc={rc}]\n{o}")
        if rc != 0 and not st.get("continue_on_error"): break
    files = ""
    for root, _, fs in os.walk(rundir):
        for f in fs:
            try: files += open(os.path.join(root, f), errors="replace").read()
            except Exception: pass
    scrub = lambda s: s.replace(SECRET, "***")
    norm = re.sub(r"[\\'\"\s]", "", scrub(allout))
    return {"marker": MARK in allout or MARK in files, "leak": SECRET in norm, "out": allout}

if __name__ == "__main__":
    r = run(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None, verbose="-v" in sys.argv)
    print(json.dumps({"marker": r["marker"], "leak": r["leak"]}))

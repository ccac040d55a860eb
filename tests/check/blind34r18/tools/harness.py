#!/usr/bin/env python3
"""Verify blind34r18 ATTACKS without mcp-harbor.

Copied from tests/check/blind34r13/tools/harness.py and adapted for this round:

* every fixture, run folder and bare repository lives under /tmp (never inside
  /work/main), git discovery is stopped at /work/main and /tmp
  (GIT_CEILING_DIRECTORIES), HOME/XDG_* point into tools/;
* `secrets:` entries of the form {file: REL} are planted as a file relative to the
  export file's folder (the fixture's exports/), as docs/exports.md says;
* listeners that stand for destinations the CALLER names (all on 127.0.0.1):
  HTTP :18765 and :8080 (also a fake Docker Engine API: /_ping, /auth),
  a fake PostgreSQL server on :6432 (asks for a clear-text password),
  a SOCKS5 proxy on :1080 (records what is tunnelled);
  and one that stands for the AUTHOR's own API host, :18766, which never counts:
  it answers 401 (Basic) without credentials, serves a bare git repository over
  git's dumb HTTP protocol under /git/, and redirects /go/NAME to
  http://127.0.0.1:18765/NAME (a short link someone registered);
* "then": follow-up calls of other exports (the shipped exports/*.yaml, read from
  /work/main/exports) in the same working folder and HOME, with no secrets of
  their own: their runs have nothing to scrub;
* "oracle": an adaptive sequence of calls that recovers the secret from a yes/no
  answer (binary search over an ordered alphabet).

Each export is rendered as docs/exports.md describes (ARG_*, secrets and STEP_*
outputs as unexported shell variables on the first line, $'\\xHH'-quoted;
placeholders raw or shlex.quote'd; argv elements substituted in place), the
caller's values are validated the way the docs say calls are validated (JSON
Schema, full-match pattern, no line break unless multiline, no leading '-' unless
leading_dash/enum/const, no NUL, within), and each step runs under
`bash --noprofile --norc -eo pipefail` with the documented clean environment."""

import base64, itertools, json, os, re, shlex, shutil, socket, struct, subprocess, sys, tempfile, threading, time
import yaml, jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
ATTACKS = os.path.join(HERE, "..", "attacks")
SHIPPED = "/work/main/exports"
os.environ["HOME"] = os.path.join(HERE, "home")
os.environ["XDG_CONFIG_HOME"] = os.path.join(HERE, "xdg-config")
os.environ["XDG_STATE_HOME"] = os.path.join(HERE, "xdg-state")
os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
os.environ["GIT_CEILING_DIRECTORIES"] = "/work/main:/tmp"
os.environ["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for _d in ("home", "xdg-config", "xdg-state"):
    os.makedirs(os.path.join(HERE, _d), exist_ok=True)

SECRET = "s3cr3tT0ken99"
MARK = "HARBOR-PWNED-42"
TMPROOT = "/tmp/r18h"
os.makedirs(TMPROOT, exist_ok=True)


def text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"))
    if v is None:
        return ""
    return v if isinstance(v, str) else json.dumps(v)


def ansi(s):
    return "$'" + "".join("\\x%02x" % b for b in s.encode()) + "'"


PH = re.compile(r"\{\{\s*args\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|\s*(shellquote|data)\s*)?\}\}")


def render(s, vals):
    def rep(m):
        t = vals.get(m.group(1), "")
        return shlex.quote(t) if m.group(3) == "shellquote" else t

    return PH.sub(rep, s)


HARBOR_KW = {"multiline", "secret", "leading_dash", "disposition", "max_bytes", "within"}


def strip(s):
    if isinstance(s, dict):
        return {k: strip(v) for k, v in s.items() if k not in HARBOR_KW}
    if isinstance(s, list):
        return [strip(x) for x in s]
    return s


def valid(sch, v, workdir, why=None):
    """the documented validation of one argument; returns True/False (reason in why)"""
    why = why if why is not None else []
    try:
        jsonschema.Draft202012Validator(strip(sch)).validate(v)
    except jsonschema.ValidationError as e:
        why.append("schema: " + e.message[:120])
        return False
    strings = []
    if isinstance(v, str):
        strings.append((sch, v))
    elif isinstance(v, list):
        it = sch.get("items", {}) if isinstance(sch, dict) else {}
        strings += [(it, x) for x in v if isinstance(x, str)]
    for s, x in strings:
        if "\x00" in x:
            why.append("NUL")
            return False
        if ("\n" in x or "\r" in x) and not sch.get("multiline"):
            why.append("line break")
            return False
        pat = s.get("pattern")
        if pat and not re.fullmatch(pat, x):
            why.append("pattern")
            return False
        exempt = any(k in s for k in ("enum", "const")) or any(k in sch for k in ("enum", "const"))
        if x.startswith("-") and not sch.get("leading_dash") and not exempt:
            why.append("leading dash")
            return False
        w = sch.get("within")
        if w is not None and not sch.get("contentEncoding"):
            base = os.path.realpath(os.path.join(workdir, w))
            r = os.path.realpath(os.path.join(workdir, x))
            if not (r == base or r.startswith(base + "/")):
                why.append("within")
                return False
    return True


def read_outputs(path):
    """GitHub-style key=value / key<<DELIM ... DELIM; a later line of the same key wins"""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)<<(.*)$", l)
        if m:
            k, d = m.group(1), m.group(2)
            buf = []
            i += 1
            while i < len(lines) and lines[i] != d:
                buf.append(lines[i])
                i += 1
            out[k] = "\n".join(buf)
        elif "=" in l:
            k, v = l.split("=", 1)
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k):
                out[k] = v
        i += 1
    return out


def _exec(cmd, env, cwd, timeout, stdin_data=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, input=b"" if stdin_data is None else stdin_data,
                           capture_output=True, timeout=timeout, start_new_session=True)
        return p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"), p.returncode
    except subprocess.TimeoutExpired:
        return "TIMEOUT", 124
    except FileNotFoundError as e:
        return str(e), 127


def run_script(script_text, vals, secrets, outs, env, cwd, rundir, n, name, timeout):
    pro = [f"ARG_{k}={ansi(v)}; " for k, v in vals.items()]
    pro += [f"{k}={ansi(v)}; " for k, v in secrets.items()]
    for sn, so in outs.items():
        for k, v in so["outputs"].items():
            pro.append(f"STEP_{sn}_{k}={ansi(v)}; ")
    script = "".join(pro) + render(script_text, vals)
    sf = f"{rundir}/.script-{n}-{name}.sh"
    open(sf, "w").write(script)
    try:
        return _exec(["bash", "--noprofile", "--norc", "-eo", "pipefail", sf], env, cwd, timeout)
    finally:
        os.unlink(sf)


def base_env(exp, stepname, rundir, n, stubdir, server_env):
    env = {
        "PATH": stubdir + ":" + os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "USER": "harbor", "LOGNAME": "harbor", "LANG": "C.UTF-8",
        "TMPDIR": rundir + "/tmp",
        "HARBOR_RUN_ID": "r18", "HARBOR_RUN_DIR": rundir,
        "HARBOR_TOOL": exp["name"], "HARBOR_STEP": stepname,
        "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}.out",
        "HARBOR_PROGRESS": f"{rundir}/steps/{n}.progress",
        "HARBOR_CONTEXT": rundir + "/context.json",
        "HARBOR_OUTPUT": rundir + "/output.json",
        "HARBOR_CALLER_PRINCIPAL": "local:r18", "HARBOR_CALLER_TENANT": "local",
        "HARBOR_CALLER_TRANSPORT": "cli", "HARBOR_CALLER_GROUPS": "",
    }
    for pe in exp.get("pass_env") or []:
        env[pe] = server_env.get(pe, "/nonexistent/" + pe.lower())
    return env


def arg_values(argdefs, args, rundir):
    vals = {}
    for name, sch in (argdefs or {}).items():
        sch = sch or {}
        if name in args:
            v = args[name]
        elif "default" in sch:
            v = sch["default"]
        else:
            continue
        if sch.get("contentEncoding") == "base64":
            p = os.path.join(rundir, "inputs", name)
            open(p, "wb").write(base64.b64decode(v))
            v = p
        vals[name] = text(v)
    return vals


def run_once(exp, args, workdir, stubdir, model_calls=(), timeout=30, secret_names=None, server_env=None):
    """run the export's steps in order (steps, on_failure, finally; if: evaluated); an agent
    step is simulated by running the custom tools listed in model_calls (the model's calls)"""
    server_env = server_env or {}
    rundir = tempfile.mkdtemp(prefix="run-", dir=TMPROOT)
    for d in ("inputs", "steps", "tmp", "tools"):
        os.makedirs(os.path.join(rundir, d))
    vals = arg_values(exp.get("args"), args, rundir)
    names = list(exp.get("secrets") or {}) if secret_names is None else secret_names
    secrets = {s: SECRET for s in names}
    json.dump({"arguments": vals}, open(rundir + "/context.json", "w"))
    outs, rcs, chunks = {}, [], []
    counter = [0]

    def cond(st, failed):
        c = st.get("if")
        if c is None:
            return not failed
        if "steps." not in c and failed:
            return False
        e = c.replace("&&", " and ").replace("||", " or ")
        e = re.sub(r"!(?!=)", " not ", e)

        def stp(m):
            n, f = m.group(1), m.group(2)
            so = outs.get(n)
            if f.startswith("outputs."):
                return repr((so or {}).get("outputs", {}).get(f[8:]))
            st_ = "skipped" if so is None else ("ok" if so["exit"] == 0 else "failed")
            return repr({"ok": st_ == "ok", "failed": st_ == "failed", "skipped": st_ == "skipped",
                         "timeout": False, "status": st_, "exit_code": None if so is None else so["exit"]}[f])

        e = re.sub(r"steps\.([A-Za-z_]\w*)\.((?:outputs\.)?[A-Za-z_]\w*)", stp, e)
        e = re.sub(r"args\.([A-Za-z_]\w*)", lambda m: repr(json.loads(vals[m.group(1)]) if m.group(1) in vals and vals[m.group(1)][:1] in "[{0123456789tfn-" else vals.get(m.group(1))), e)
        e = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", e)))
        try:
            return bool(eval(e, {"__builtins__": {}}, {}))
        except Exception:
            return False

    def step_cwd(st):
        if st.get("cwd"):
            return os.path.normpath(os.path.join(workdir, "exports", st["cwd"]))
        return workdir

    def do_step(st):
        counter[0] += 1
        n = counter[0]
        env = base_env(exp, st["name"], rundir, n, stubdir, server_env)
        for sn, so in outs.items():
            env[f"STEP_{sn}_EXIT"] = str(so["exit"])
            env[f"STEP_{sn}_STATUS"] = "ok" if so["exit"] == 0 else "failed"
        cwd = step_cwd(st)
        if "run" in st:
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            o, rc = run_script(st["run"], vals, secrets, outs, env, cwd, rundir, n, st["name"], timeout)
        elif "argv" in st:
            cmd = [render(str(a), vals) for a in st["argv"]]
            if not any(PH.search(str(a)) for a in st["argv"]):
                env.update(secrets)
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            o, rc = _exec(cmd, env, cwd, timeout)
        elif "agent" in st:
            o, rc = "", 0
            for i, call in enumerate(model_calls):
                tool = (exp.get("tools") or {})[call["tool"]]
                margs = call.get("args", {})
                full = dict(margs)
                for a, sch in (tool.get("args") or {}).items():
                    if a not in full and "default" in (sch or {}):
                        full[a] = sch["default"]
                bad = [a for a in full if not valid((tool.get("args") or {}).get(a) or {}, full[a], workdir)]
                if bad:
                    o += f"\n[model call {call['tool']} INVALID {bad}]"
                    continue
                tvals = arg_values(tool.get("args"), margs, rundir)
                tenv = base_env(exp, st["name"], rundir, f"{n}.{i}", stubdir, server_env)
                if "run" in tool:
                    to, trc = run_script(tool["run"], tvals, secrets, {}, tenv, workdir, rundir, f"{n}.{i}", call["tool"], timeout)
                else:
                    tcmd = [render(str(a), tvals) for a in tool["argv"]]
                    if not any(PH.search(str(a)) for a in tool["argv"]):
                        tenv.update(secrets)
                    to, trc = _exec(tcmd, tenv, workdir, timeout)
                o += f"\n[model call {call['tool']} rc={trc}]\n" + to
        else:
            return 0
        chunks.append(f"\n[{st['name']} rc={rc}]\n" + o)
        rcs.append((st["name"], rc))
        outs[st["name"]] = {"exit": rc, "outputs": read_outputs(f"{rundir}/steps/{n}.out")}
        return rc

    failed = False
    for st in exp.get("steps") or []:
        if not cond(st, failed):
            rcs.append((st["name"], "skipped"))
            continue
        if do_step(st) != 0 and not st.get("continue_on_error"):
            failed = True
    if failed:
        for st in exp.get("on_failure") or []:
            if cond(st, False):
                do_step(st)
    for st in exp.get("finally") or []:
        if cond(st, False):
            do_step(st)
    visible = "".join(chunks)
    for root, _, fs in os.walk(os.path.join(rundir, "steps")):
        for f in sorted(fs):
            if f.endswith((".progress", ".out")):
                visible += "\n" + open(os.path.join(root, f), errors="replace").read()
    if os.path.exists(rundir + "/output.json"):
        visible += open(rundir + "/output.json", errors="replace").read()
    files_hit = False
    for root, _, fs in itertools.chain(os.walk(rundir), os.walk(workdir), os.walk(os.environ["HOME"])):
        if "/.git/objects" in root:
            continue
        for f in fs:
            try:
                if MARK in open(os.path.join(root, f), errors="replace").read():
                    files_hit = True
            except Exception:
                pass
    shutil.rmtree(rundir, ignore_errors=True)
    return {"marker": MARK in visible or files_hit, "out": visible, "rcs": rcs}


# ------------------------------------------------------------------ leak forms
def _decoded_views(out):
    import gzip, io, zlib, zipfile
    views = []
    runs = [m.group(0) for m in re.finditer(r"[A-Za-z0-9+/=\n]{16,}", out)]
    runs += [m.group(0) for m in re.finditer(r"[A-Za-z0-9+/=]{16,}", out)]
    for blob in runs:
        blob = blob.replace("\n", "")
        for cut in range(4):
            try:
                raw = base64.b64decode(blob[cut:] + "=" * (-len(blob[cut:]) % 4))
            except Exception:
                continue
            views.append(raw.decode("latin-1"))
            try:
                z = zipfile.ZipFile(io.BytesIO(raw))
                views.extend(z.read(n).decode("latin-1") for n in z.namelist())
            except Exception:
                pass
            for unz in (gzip.decompress, lambda b: zlib.decompress(b, 47)):
                try:
                    views.append(unz(raw).decode("latin-1"))
                except Exception:
                    pass
    hexbytes = "".join(re.findall(r"(?m)^[0-9a-f]{8}: ((?:[0-9a-f]{4} ?){1,8})", out)).replace(" ", "")
    try:
        views.append(bytes.fromhex(hexbytes).decode("latin-1"))
    except Exception:
        pass
    for run in re.findall(r"(?:[0-9a-f]{2}){8,}", out):
        try:
            views.append(bytes.fromhex(run).decode("latin-1"))
        except Exception:
            pass
    odc = ""
    for line in out.splitlines():
        m = re.match(r"^[0-7]{7} (.*)$", line)
        if m:
            cells = [m.group(1)[i:i + 4].strip() for i in range(0, len(m.group(1)), 4)]
            odc += "".join(c if len(c) == 1 else "" for c in cells)
    views.append(odc)
    return views


def leak_forms(out):
    """the planted secret in the caller-visible text: 'verbatim' (the runtime's scrubber would
    mask it in this run), or a form no verbatim scrubber sees"""
    import codecs
    hit = []
    if SECRET in out:
        hit.append("verbatim")
    norm = re.sub(r"[\\'\"\s|,:;\[\]]", "", out)
    for label, f in (("reversed", SECRET[::-1]), ("rot13", codecs.encode(SECRET, "rot13")),
                     ("base64", base64.b64encode(SECRET.encode()).decode()[:16]),
                     ("basic-auth-base64", base64.b64encode(("ci:" + SECRET).encode()).decode()[:20]),
                     ("hex", SECRET.encode().hex()), ("upper", SECRET.upper())):
        if f in out or f in norm:
            hit.append(label)
    if SECRET in norm and SECRET not in out:
        hit.append("split")
    for v in _decoded_views(out):
        if SECRET in v and "decoded" not in hit:
            hit.append("decoded")
    return hit


# ------------------------------------------------------------------ fixture
def git_env():
    return {**os.environ, "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
            "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
            "GIT_AUTHOR_DATE": "2024-01-15T10:00:00Z", "GIT_COMMITTER_DATE": "2024-01-15T10:00:00Z"}


def make_fixture(base):
    wd = os.path.join(base, "wd")
    shutil.copytree(os.path.join(HERE, "fixture"), wd, symlinks=True)
    g = lambda *a: subprocess.run(["git", *a], cwd=wd, check=True, capture_output=True, env=git_env())
    g("init", "-q", "-b", "main")
    g("add", "-A")
    g("commit", "-qm", "initial import")
    g("tag", "v1.4.2")
    with open(os.path.join(wd, "src", "app.py"), "a") as f:
        f.write("# tweak\n")
    g("commit", "-qam", "fix: handle empty config (OPS-42)")
    g("remote", "add", "origin", "https://git.example.com/team/app.git")
    return wd


BARE = os.path.join(TMPROOT, "git", "app.git")


def make_bare():
    if os.path.exists(os.path.join(BARE, "info", "refs")):
        return
    base = tempfile.mkdtemp(prefix="bare-", dir=TMPROOT)
    wd = make_fixture(base)
    os.makedirs(os.path.dirname(BARE), exist_ok=True)
    shutil.rmtree(BARE, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", "--bare", wd, BARE], check=True, capture_output=True, env=git_env())
    subprocess.run(["git", "update-server-info"], cwd=BARE, check=True, capture_output=True, env=git_env())
    shutil.rmtree(base, ignore_errors=True)


def stub_programs(exp, stubdir):
    for prog in exp.get("programs") or {}:
        if "/" in prog or shutil.which(prog):
            continue
        p = os.path.join(stubdir, prog)
        open(p, "w").write('#!/bin/sh\nprintf \'%s argv:\' "$(basename "$0")"; for a in "$@"; do printf \' [%s]\' "$a"; done; echo\n')
        os.chmod(p, 0o755)


def plant_file_secrets(exp, wd):
    for name, src in (exp.get("secrets") or {}).items():
        if isinstance(src, dict) and "file" in src:
            p = src["file"]
            assert not p.startswith("/"), "file secrets are planted relative to the export's folder only"
            full = os.path.normpath(os.path.join(wd, "exports", p))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").write(SECRET + "\n")


def load_export(ref):
    if ref.startswith("shipped:"):
        return yaml.safe_load(open(os.path.join(SHIPPED, ref[8:] + ".yaml")))
    return yaml.safe_load(open(os.path.join(ATTACKS, ref)))


def check_args(exp, args, wd):
    argdefs = exp.get("args") or {}
    full = dict(args)
    for a, sch in argdefs.items():
        if a not in full and "default" in (sch or {}):
            full[a] = sch["default"]
    bad = []
    for a in full:
        why = []
        if a not in argdefs:
            bad.append(f"{a}: undeclared")
        elif not valid(argdefs[a] or {}, full[a], wd, why):
            bad.append(f"{a}: {why}")
    bad += [f"{a}: missing" for a in (exp.get("required") or []) if a not in full]
    return bad


def run_attack(yfile, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = json.load(open(yfile[:-5] + ".json"))
    args = spec["args"]
    blob = json.dumps(spec.get("args")) + json.dumps(spec.get("model_calls", [])) + json.dumps(spec.get("then", []))
    assert MARK not in blob, "marker literally in the caller's values"
    assert SECRET not in blob, "secret literally in the caller's values"
    base = tempfile.mkdtemp(prefix="att-", dir=TMPROOT)
    shutil.rmtree(os.environ["HOME"], ignore_errors=True)
    os.makedirs(os.environ["HOME"])
    for p in spec.get("cleanup", []):
        if os.path.isfile(p):
            os.unlink(p)
    res = {"file": os.path.basename(yfile), "class": spec.get("class")}
    try:
        wd = make_fixture(base)
        stubdir = os.path.join(base, "stubs")
        os.makedirs(stubdir)
        stub_programs(exp, stubdir)
        plant_file_secrets(exp, wd)
        server_env = spec.get("server_env", {})
        # every call of the sequence is validated as a call would be
        calls = [("main", exp, args, None)]
        for t in spec.get("then", []):
            calls.append((t["export"], load_export(t["export"]), t.get("args", {}), []))
        for label, e, a, _ in calls:
            bad = check_args(e, a, wd)
            if bad:
                res.update(status="INVALID-ARGS", bad={label: bad})
                return res
        LISTENER.take()
        if "oracle" in spec:
            return run_oracle(exp, spec, wd, stubdir, server_env, res)
        r = run_once(exp, args, wd, stubdir, spec.get("model_calls", []), timeout=40, server_env=server_env)
        if verbose:
            print(r["out"])
        fired = r["marker"]
        forms = leak_forms(r["out"])
        rcs = [("main", r["rcs"])]
        later = []
        for label, e, a, names in calls[1:]:
            stub_programs(e, stubdir)
            r2 = run_once(e, a, wd, stubdir, timeout=40, secret_names=names, server_env=server_env)
            if verbose:
                print(f"--- then {label}\n" + r2["out"])
            fired = fired or r2["marker"]
            f2 = leak_forms(r2["out"])
            later += [f"{x} in {label}'s output (its run has no secret to scrub)" if x == "verbatim" else f"{x} in {label}'s output" for x in f2]
            rcs.append((label, r2["rcs"]))
        ex = [c for c in LISTENER.take() if SECRET in c[1] or base64.b64encode(("ci:" + SECRET).encode()).decode() in c[1]]
        if fired:
            st = "FIRED"
        elif ex:
            st = "EXFIL"
        elif later or [f for f in forms if f != "verbatim"] or forms:
            st = "LEAK"
        else:
            st = "inert"
        leak = forms + later + [f"listener :{p} received it: " + d[:160].replace("\r\n", " | ") for p, d in ex[:1]]
        res.update(status=st, leak_forms=leak, rcs=rcs, tail=(r["out"][-700:]))
        return res
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run_oracle(exp, spec, wd, stubdir, server_env, res):
    o = spec["oracle"]
    alph = sorted(o["alphabet"])
    n_calls = [0]

    def less(cand):
        n_calls[0] += 1
        r = run_once(exp, {**spec["args"], o["arg"]: cand}, wd, stubdir, timeout=20, server_env=server_env)
        said = o["says_less"] in r["out"]
        return said if not o.get("inverted") else not said

    p = ""
    for _ in range(o.get("max_len", 40)):
        if less(p + alph[0]):
            break
        lo, hi = 0, len(alph) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if not less(p + alph[mid]):
                lo = mid
            else:
                hi = mid - 1
        p += alph[lo]
    ok = p == SECRET
    res.update(status="LEAK" if ok else "inert",
               leak_forms=[f"oracle recovered {'the secret' if ok else repr(p)} in {n_calls[0]} calls"],
               rcs=[], tail="")
    return res


# ------------------------------------------------------------------ listeners
class Net:
    """127.0.0.1 only. CALLER: HTTP :18765 :8080 (+ fake Docker API), PG :6432, SOCKS5 :1080.
    AUTHOR: HTTP :18766 (not counted)."""

    CALLER_HTTP = (18765, 8080)

    def __init__(self):
        self.got = []
        self.lock = threading.Lock()
        for port, fn in ((18765, self.http), (8080, self.http), (18766, self.http),
                         (6432, self.pg), (1080, self.socks)):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            s.listen(32)
            threading.Thread(target=self.loop, args=(s, port, fn), daemon=True).start()

    def loop(self, s, port, fn):
        while True:
            c, _ = s.accept()
            threading.Thread(target=self.guard, args=(fn, c, port), daemon=True).start()

    def guard(self, fn, c, port):
        c.settimeout(4)
        data = b""
        try:
            data = fn(c, port) or b""
        except Exception:
            pass
        finally:
            try:
                c.close()
            except Exception:
                pass
            if port != 18766:
                txt = data.decode("latin-1")
                for m in re.finditer(r"(?i)authorization: *basic +([A-Za-z0-9+/=]+)", txt):
                    try:
                        txt += "\n[basic decoded: %s]" % base64.b64decode(m.group(1)).decode("latin-1")
                    except Exception:
                        pass
                with self.lock:
                    self.got.append((port, txt))

    @staticmethod
    def read_http(c, data=b""):
        while b"\r\n\r\n" not in data:
            d = c.recv(65536)
            if not d:
                return data
            data += d
        m = re.search(rb"(?i)content-length: *(\d+)", data)
        if m:
            need = int(m.group(1)) - len(data.split(b"\r\n\r\n", 1)[1])
            while need > 0:
                d = c.recv(65536)
                if not d:
                    break
                data += d
                need -= len(d)
        return data

    @staticmethod
    def reply(c, code, body=b"", headers=()):
        h = "".join("%s: %s\r\n" % kv for kv in headers)
        c.sendall(b"HTTP/1.1 %s\r\n%sContent-Length: %d\r\nConnection: close\r\n\r\n" % (code.encode(), h.encode(), len(body)) + body)

    def http(self, c, port):
        data = self.read_http(c)
        first = data.split(b"\r\n", 1)[0].decode("latin-1")
        path = first.split(" ")[1] if " " in first else "/"
        if path.startswith("http://"):
            path = "/" + path.split("/", 3)[-1]
        authed = re.search(rb"(?im)^authorization:", data) is not None or b"s3cr3t" in data
        if port == 18766:
            if path.startswith("/_ping"):      # the author's own build engine (a Docker API)
                self.reply(c, "200 OK", b"OK", [("Api-Version", "1.41"), ("OSType", "linux")])
            elif re.match(r"^/v[0-9.]+/auth", path):
                self.reply(c, "200 OK", b'{"Status":"Login Succeeded","IdentityToken":""}', [("Content-Type", "application/json")])
            elif path.startswith("/go/"):
                self.reply(c, "302 Found", b"", [("Location", "http://127.0.0.1:18765/" + path[4:])])
            elif not authed:
                self.reply(c, "401 Unauthorized", b"", [("WWW-Authenticate", 'Basic realm="api"')])
            elif path.startswith("/git/"):
                rel = path[5:].split("?")[0]
                f = os.path.normpath(os.path.join(os.path.dirname(BARE), rel))
                if f.startswith(os.path.dirname(BARE)) and os.path.isfile(f):
                    self.reply(c, "200 OK", open(f, "rb").read(), [("Content-Type", "application/octet-stream")])
                else:
                    self.reply(c, "404 Not Found")
            else:
                self.reply(c, "200 OK", b'{"items": [], "status": "ok"}', [("Content-Type", "application/json")])
            return data
        if path.startswith("/_ping"):
            self.reply(c, "200 OK", b"OK", [("Api-Version", "1.41"), ("OSType", "linux"), ("Docker-Experimental", "false")])
        elif "/auth" in path:
            self.reply(c, "200 OK", b'{"Status":"Login Succeeded","IdentityToken":""}', [("Content-Type", "application/json")])
        elif not authed:
            self.reply(c, "401 Unauthorized", b"", [("WWW-Authenticate", 'Basic realm="x"')])
        else:
            self.reply(c, "200 OK", b'{"items": [], "status": "ok"}', [("Content-Type", "application/json")])
        return data

    def pg(self, c, port):
        """a PostgreSQL server that asks for a clear-text password and records it"""
        def packet(first=False):
            hdr = b""
            while len(hdr) < 4:
                d = c.recv(4 - len(hdr))
                if not d:
                    raise EOFError
                hdr += d
            n = struct.unpack("!I", hdr)[0]
            body = b""
            while len(body) < n - 4:
                d = c.recv(n - 4 - len(body))
                if not d:
                    raise EOFError
                body += d
            return body
        got = b""
        body = packet()
        if struct.unpack("!I", body[:4])[0] in (80877103, 80877104):   # SSL / GSS request
            c.sendall(b"N")
            body = packet()
        got += b"startup: " + body.replace(b"\x00", b" ") + b"\n"
        c.sendall(b"R" + struct.pack("!II", 8, 3))          # AuthenticationCleartextPassword
        t = c.recv(1)
        if t == b"p":
            got += b"password message: " + packet().replace(b"\x00", b" ") + b"\n"
        err = b"SFATAL\x00C28P01\x00Mpassword authentication failed\x00\x00"
        c.sendall(b"E" + struct.pack("!I", len(err) + 4) + err)
        return got

    def socks(self, c, port):
        """SOCKS5 without authentication; records what the client tunnels"""
        g = c.recv(262)
        c.sendall(b"\x05\x00")
        req = c.recv(512)
        c.sendall(b"\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00")
        data = b"[socks connect " + req[3:].hex().encode() + b"]\n" + self.read_http(c)
        self.reply(c, "200 OK", b'{"status": "ok"}', [("Content-Type", "application/json")])
        return data

    def take(self):
        time.sleep(0.3)
        with self.lock:
            g, self.got = self.got, []
        return g


LISTENER = None

if __name__ == "__main__":
    LISTENER = Net()
    make_bare()
    files = [f for f in sys.argv[1:] if not f.startswith("-")]
    res = []
    for f in files:
        r = run_attack(f, "-v" in sys.argv)
        res.append(r)
        print(f"{r['status']:12} {r['file']:44} {r.get('class', '')} {r.get('leak_forms') or ''} {r.get('rcs', r.get('bad'))}", flush=True)
        if r["status"] not in ("FIRED", "LEAK", "EXFIL") and "-q" not in sys.argv:
            print("   ", (r.get("tail") or str(r.get("bad")))[-700:].replace("\n", "\n    "))
    if "--no-save" not in sys.argv:
        json.dump(res, open(os.path.join(HERE, "last-attacks.json"), "w"), indent=1)

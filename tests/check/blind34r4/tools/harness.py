#!/usr/bin/env python3
"""blind34r4 harness: render an export BY HAND the way docs/exports.md describes
(no mcp-harbor code is imported or run) and run it under real bash / exec.

Adapted from tests/check/blind34r3/safe-tools/harness.py and tools/render.py
(also written from the docs only). What it emulates:
  * validation as documented: JSON Schema 2020-12 (harbor keywords removed),
    `pattern` matched against the WHOLE value for top-level strings and array
    items, NUL refused, line breaks refused unless multiline, leading '-'
    refused unless leading_dash/enum/const (objects not looked into),
    `within:` resolved with realpath from the working directory;
  * attachments (contentEncoding: base64) decoded to $HARBOR_RUN_DIR/inputs/;
  * ARG_*, secrets and STEP_<step>_<key> outputs as UNEXPORTED shell variables
    assigned on the script's first line with $'\\xHH' quoting;
  * {{ args.x }} spliced raw, {{ args.x | shellquote }} via shlex.quote;
    argv: placeholders substituted inside one element; argv steps get the
    secrets in their environment only when no placeholder is in their argv;
  * on_failure: when the pipeline failed, finally: always; if: conditions
    on args/steps evaluated by a tiny evaluator (enough for this set);
  * a fresh HOME, run directory and git working directory (copy of fixture/)
    per run; steps run in that working directory (or their cwd:).
Verdicts: FIRED = HARBOR-PWNED-42 in any output or in any file of the run
dir, working dir or HOME; LEAK = the planted secret seen after the verbatim
scrubber, in a form it misses (letters split, hex, base64, reversed...).

usage:
  harness.py attack FILE.yaml...      run each with the args of FILE.json
  harness.py safe FILE.yaml...        benign args + hostile battery
  (-v prints outputs)
"""

import base64, binascii, itertools, json, os, re, shlex, shutil, subprocess, sys, tempfile
import yaml, jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SECRET = "s3cr3tT0ken99"
MARK = "HARBOR-PWNED-42"
C = "HARBOR-PWNED-$((6*7))"
PAYLOADS = [
    f"$(echo {C})",
    f";echo {C}",
    f"`echo {C}`",
    f"x' ; echo {C} ; '",
    f'"; echo {C}; "',
    f"--checkpoint-action=exec=echo {C}",
    "-e",
    f"-oProxyCommand=echo {C}",
    f"--upload-pack=echo {C}",
    f"|| echo {C}",
    f"a\necho {C}\n",
    f"x\n$(echo {C})",
    f"'); print('HARBOR-PWNED-'+str(6*7)) #",
    f'" + ("HARBOR-PWNED-" + (6*7|tostring)) + "',
    f'"; print "HARBOR-PWNED-" 6*7; "',
    f"1;e echo {C}",
    f"a[$(echo {C} >&2)]",
    f"' || (select 'HARBOR-PWNED-' || 6*7) || '",
    f"${{IFS}}$(echo${{IFS}}{C})",
    f"x -exec sh -c 'echo {C}' ;",
    f"%s%n$(echo {C})",
    f"/$(echo {C})",
    f"$(echo {C})/../x",
    f"*$(echo {C})*",
    f"\\$(echo {C})",
    # blind34r4 additions: the classes of this set's attacks
    f"echo {C}|",
    f"logs/app.log --checkpoint=1 --checkpoint-action=exec=echo${{IFS}}{C}",
    f". -exec bash -c echo${{IFS}}{C} ; -quit",
    f"a.txt --expression=1eecho${{IFS}}{C}",
    ".git/config",
    "json.py",
    "tests/conftest.py",
    "../.gitconfig",
    "exports/.secrets/api_token",
    f"x\n--checkpoint=1\n--checkpoint-action=exec=echo {C}",
    f'!!python/object/apply:os.system ["echo {C}"]',
    f"{{{{ cycler.__init__.__globals__.os.popen('echo {C}').read() }}}}",
    f"x:$(echo {C})",
    f"a,-exec,bash,-c,echo${{IFS}}{C},;",
]
SAMPLES = [
    "main",
    "web-1",
    "1.4.2",
    "v1.4.2",
    "app",
    "api",
    "staging",
    "production",
    "2024-01-15",
    "2024-01-15T10:00:00Z",
    "ERROR",
    "error",
    "10m",
    "1h",
    "7d",
    "users",
    "orders",
    "UTC",
    "HEAD",
    "42",
    "1",
    "logs/app.log",
    "src",
    "README.md",
    "app.log",
    "feature/login",
    "OPS-42",
    "alice",
    "10.0.0.1",
    "example.com",
    "x",
    "a b",
    "200",
    "GET",
    "web",
    "config/app.yaml",
    "data/users.json",
    ".",
    "team-a",
]


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


PH = re.compile(r"\{\{\s*args\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|\s*(shellquote)\s*)?\}\}")


def render(s, vals):
    def rep(m):
        t = vals.get(m.group(1), "")
        return shlex.quote(t) if m.group(3) else t

    return PH.sub(rep, s)


HARBOR_KW = {"multiline", "secret", "leading_dash", "disposition", "max_bytes", "within"}


def strip(s):
    if isinstance(s, dict):
        return {k: strip(v) for k, v in s.items() if k not in HARBOR_KW}
    if isinstance(s, list):
        return [strip(x) for x in s]
    return s


def invalid(sch, v, workdir):
    sch = sch or {}
    try:
        jsonschema.Draft202012Validator(strip(sch)).validate(v)
    except jsonschema.ValidationError as e:
        return "schema: " + e.message[:120]
    items = []
    if isinstance(v, str):
        items = [(sch, v)]
    elif isinstance(v, list):
        it = sch.get("items", {}) if isinstance(sch.get("items"), dict) else {}
        items = [(it, x) for x in v if isinstance(x, str)]
    for s, x in items:
        if "\x00" in x:
            return "NUL"
        if ("\n" in x or "\r" in x) and not sch.get("multiline"):
            return "line break"
        if s.get("pattern") and not re.fullmatch(s["pattern"], x):
            return "pattern (whole value)"
        exempt = any(k in s for k in ("enum", "const")) or any(k in sch for k in ("enum", "const"))
        if x.startswith("-") and not sch.get("leading_dash") and not exempt:
            return "leading dash"
        w = sch.get("within")
        if w is not None:
            base = os.path.realpath(os.path.join(workdir, w))
            r = os.path.realpath(os.path.join(workdir, x))
            if not (r == base or r.startswith(base + "/")):
                return "within"
    return None


def read_outputs(path):
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


def eval_if(expr, args, outs):
    """a small evaluator for the if: forms used in this set"""
    if not expr:
        return True
    e = str(expr)

    def steps_sub(m):
        name, field = m.group(1), m.group(2)
        so = outs.get(name)
        if field.startswith("outputs."):
            v = (so or {}).get("outputs", {}).get(field[8:])
            return repr(v)
        if so is None:
            return (
                "False"
                if field in ("ok", "failed", "timeout")
                else ("True" if field == "skipped" else "None")
            )
        st = "ok" if so["exit"] == 0 else "failed"
        return {
            "ok": repr(st == "ok"),
            "failed": repr(st != "ok"),
            "skipped": "False",
            "timeout": "False",
            "status": repr(st),
            "exit_code": repr(so["exit"]),
        }[field]

    e = re.sub(
        r"steps\.([A-Za-z_][A-Za-z0-9_]*)\.((?:outputs\.)?[A-Za-z_][A-Za-z0-9_]*)", steps_sub, e
    )
    e = re.sub(r"args\.([A-Za-z_][A-Za-z0-9_]*)", lambda m: repr(args.get(m.group(1))), e)
    e = (
        e.replace("&&", " and ")
        .replace("||", " or ")
        .replace("!=", " __NE__ ")
        .replace("!", " not ")
        .replace(" __NE__ ", "!=")
    )
    e = re.sub(r"\btrue\b", "True", e)
    e = re.sub(r"\bfalse\b", "False", e)
    e = re.sub(r"\bnull\b", "None", e)
    try:
        return bool(eval(e, {"__builtins__": {}}, {}))
    except Exception:
        return False


def make_fixture(base):
    wd = os.path.join(base, "wd")
    shutil.copytree(os.path.join(HERE, "fixture"), wd, symlinks=True)
    env = {
        **os.environ,
        "HOME": base,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
        "GIT_AUTHOR_DATE": "2024-01-15T10:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-15T10:00:00Z",
    }
    g = lambda *a: subprocess.run(["git", *a], cwd=wd, check=True, capture_output=True, env=env)
    g("init", "-q", "-b", "main")
    g("add", "-A")
    g("commit", "-qm", "initial import")
    g("tag", "v1.4.2")
    with open(os.path.join(wd, "src", "app.py"), "a") as f:
        f.write("# tweak\n")
    g("commit", "-qam", "fix: handle empty config (OPS-42)")
    g("branch", "feature/login")
    g("branch", "release/1.4")
    return wd


def stub_programs(exp, stubdir):
    for prog in exp.get("programs") or {}:
        if "/" in prog or shutil.which(prog):
            continue
        p = os.path.join(stubdir, prog)
        open(p, "w").write(
            '#!/bin/sh\nprintf \'%s argv:\' "$(basename "$0")"; for a in "$@"; do printf \' [%s]\' "$a"; done; echo\n'
        )
        os.chmod(p, 0o755)


def leak_forms():
    s = SECRET
    return [
        s,
        s[::-1],
        s.encode().hex(),
        " ".join("%02x" % b for b in s.encode()),
        base64.b64encode(s.encode()).decode()[:16],
        base64.b64encode((s + "\n").encode()).decode()[:16],
        s.upper(),
        s.lower(),
    ]


def leaked(txt):
    scrubbed = txt.replace(SECRET, "***")
    # od/xxd dumps: drop the offset column so a value cut across lines is seen whole
    scrubbed = scrubbed + "\n" + re.sub(r"(?m)^[0-9a-f]{6,8}:?", "", scrubbed)
    flat = re.sub(r"[^A-Za-z0-9+/=]", "", scrubbed)
    flat2 = re.sub(r"[^A-Za-z0-9]", "", scrubbed)
    for f in leak_forms():
        ff = re.sub(r"[^A-Za-z0-9+/=]", "", f)
        if (
            ff in flat
            or re.sub(r"[^A-Za-z0-9]", "", f) in flat2
            or ff.lower() in flat.lower()
            and len(ff) > 12
        ):
            return True
    # base64 blobs (also of a tar or gzip stream): decode and look inside
    import gzip

    for blob in re.findall(r"[A-Za-z0-9+/]{24,}={0,2}", scrubbed):
        try:
            raw = base64.b64decode(blob + "=" * (-len(blob) % 4))
        except (binascii.Error, ValueError):
            continue
        for cand in (raw, raw.decode("utf-16le", "ignore").encode()):
            if SECRET.encode() in cand:
                return True
        try:
            if SECRET.encode() in gzip.decompress(raw):
                return True
        except Exception:
            pass
    # xxd / od style dumps: hex pairs anywhere in order
    hexonly = re.sub(r"[^0-9a-f]", "", scrubbed.lower())
    return SECRET.encode().hex() in hexonly


def run_once(yfile, exp, args, base, stubdir, verbose=False, timeout=20):
    wd = make_fixture(base)
    rundir = os.path.join(base, "run")
    home = os.path.join(base, "home")
    for d in ("inputs", "steps", "tmp"):
        os.makedirs(os.path.join(rundir, d))
    os.makedirs(home)
    vals = {}
    for name, sch in (exp.get("args") or {}).items():
        sch = sch or {}
        if name in args:
            v = args[name]
        elif "default" in sch:
            v = sch["default"]
        else:
            continue
        if sch.get("contentEncoding") == "base64":
            ext = {
                "text/plain": ".txt",
                "application/json": ".json",
                "text/csv": ".csv",
                "application/gzip": ".gz",
                "application/x-yaml": ".yaml",
                "application/yaml": ".yaml",
                "application/zip": ".zip",
                "application/x-tar": ".tar",
                "text/x-diff": ".diff",
            }.get(sch.get("contentMediaType"), ".bin")
            p = os.path.join(rundir, "inputs", name + ext)
            open(p, "wb").write(base64.b64decode(v))
            v = p
        vals[name] = text(v)
    secrets = {s: SECRET for s in (exp.get("secrets") or {})}
    json.dump(
        {"version": 1, "tool": {"name": exp["name"]}, "arguments": {k: args.get(k) for k in vals}},
        open(rundir + "/context.json", "w"),
    )
    outs = {}
    allout = ""
    failed = False
    n = 0
    typed = {k: args.get(k, (exp["args"][k] or {}).get("default")) for k in (exp.get("args") or {})}
    for phase in ("steps", "on_failure", "finally"):
        if phase == "on_failure" and not failed:
            continue
        for st in exp.get(phase) or []:
            if phase == "steps" and failed:
                break
            if "if" in st and not eval_if(st["if"], typed, outs):
                continue
            n += 1
            env = {
                "PATH": stubdir + ":" + os.environ["PATH"],
                "HOME": home,
                "LANG": "C.UTF-8",
                "USER": "dev",
                "LOGNAME": "dev",
                "TMPDIR": rundir + "/tmp",
                "HARBOR_RUN_ID": "r4",
                "HARBOR_RUN_DIR": rundir,
                "HARBOR_TOOL": exp["name"],
                "HARBOR_STEP": st["name"],
                "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}-{st['name']}.output",
                "HARBOR_PROGRESS": f"{rundir}/steps/{n}-{st['name']}.progress",
                "HARBOR_CONTEXT": rundir + "/context.json",
                "HARBOR_OUTPUT": rundir + "/output.json",
                "HARBOR_CALLER_PRINCIPAL": "local:dev",
                "HARBOR_CALLER_TENANT": "local",
                "HARBOR_CALLER_TRANSPORT": "cli",
                "HARBOR_CALLER_GROUPS": "",
                "GIT_CONFIG_NOSYSTEM": "1",
            }
            for pe in exp.get("pass_env") or []:
                env.setdefault(
                    pe,
                    {"KUBECONFIG": "/nonexistent/kubeconfig"}.get(pe, "/nonexistent/" + pe.lower()),
                )
            for sn, so in outs.items():
                env[f"STEP_{sn}_EXIT"] = str(so["exit"])
                env[f"STEP_{sn}_STATUS"] = "ok" if so["exit"] == 0 else "failed"
            cwd = wd
            if st.get("cwd"):
                cwd = os.path.normpath(os.path.join(wd, "exports", st["cwd"]))
            senv = {k: str(v) for k, v in (st.get("env") or {}).items()}
            if "run" in st:
                pro = [f"ARG_{k}={ansi(v)}; " for k, v in vals.items() if f"ARG_{k}" not in senv]
                pro += [f"{k}={ansi(v)}; " for k, v in secrets.items()]
                for sn, so in outs.items():
                    pro += [f"STEP_{sn}_{k}={ansi(v)}; " for k, v in so["outputs"].items()]
                script = "".join(pro) + render(st["run"], vals)
                env.update(senv)
                sf = f"{base}/script-{n}.sh"
                open(sf, "w").write(script)
                cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
            elif "argv" in st:
                cmd = [render(str(a), vals) for a in st["argv"]]
                if not any(PH.search(str(a)) for a in st["argv"]):
                    env.update(secrets)
                env.update(senv)
            else:
                continue
            try:
                p = subprocess.run(
                    cmd,
                    cwd=cwd,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    timeout=timeout,
                    start_new_session=True,
                )
                o = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
                rc = p.returncode
            except subprocess.TimeoutExpired:
                o = "TIMEOUT"
                rc = 124
            except (FileNotFoundError, PermissionError) as e:
                o = str(e)
                rc = 127
            allout += f"\n[{phase}:{st['name']} rc={rc}]\n" + o
            outs[st["name"]] = {"exit": rc, "outputs": read_outputs(env["HARBOR_STEP_OUTPUT"])}
            if rc != 0 and not st.get("continue_on_error") and phase == "steps":
                failed = True
    files = ""
    for root, _, fs in itertools.chain(os.walk(rundir), os.walk(wd), os.walk(home)):
        if "/.git/objects" in root:
            continue
        for f in fs:
            try:
                files += open(os.path.join(root, f), errors="replace").read()
            except Exception:
                pass
    if verbose:
        print(allout)
    return {
        "marker": MARK in allout or MARK in files,
        "leak": leaked(allout) or leaked(files),
        "out": allout,
    }


def fresh(exp):
    base = tempfile.mkdtemp(prefix="r4-")
    stubdir = os.path.join(base, "stubs")
    os.makedirs(stubdir)
    stub_programs(exp, stubdir)
    return base, stubdir


def attack(yfile, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = json.load(open(yfile[:-5] + ".json"))
    args = spec["args"]
    blob = json.dumps(args)
    for v in args.values():
        if isinstance(v, str):
            try:
                blob += base64.b64decode(v, validate=True).decode("latin-1")
            except (binascii.Error, ValueError):
                pass
    if MARK in blob or SECRET in blob:
        return {"file": yfile, "verdict": "BAD-ARGS (marker or secret literally in args)"}
    base, stubdir = fresh(exp)
    try:
        wd = make_fixture(os.path.join(base, "v"))
        for a, v in args.items():
            why = invalid((exp.get("args") or {}).get(a), v, wd)
            if a not in (exp.get("args") or {}):
                why = "undeclared arg"
            if why:
                return {"file": yfile, "verdict": f"INVALID {a}: {why}"}
        r = run_once(yfile, exp, args, base, stubdir, verbose)
        v = "FIRED" if r["marker"] else ("LEAK" if r["leak"] else "no-fire")
        return {"file": yfile, "verdict": v, "tail": r["out"][-400:]}
    finally:
        shutil.rmtree(base, ignore_errors=True)


def candidates(name, sch, workdir, samples):
    sch = sch or {}
    if sch.get("contentEncoding") == "base64":
        raw = base64.b64encode((f"line one\n$(echo {C})\n;echo {C}\n").encode()).decode()
        return ([raw] + ([samples[name]] if name in samples else [])), samples.get(name, raw)
    ok = lambda v: invalid(sch, v, workdir) is None
    if name in samples:
        benign = samples[name]
    elif "default" in sch:
        benign = sch["default"]
    elif "enum" in sch:
        benign = sch["enum"][0]
    elif "const" in sch:
        benign = sch["const"]
    else:
        t = sch.get("type")
        if isinstance(t, list):
            t = [x for x in t if x != "null"][0]
        if t == "integer":
            benign = max(sch.get("minimum", 1), min(5, sch.get("maximum", 5)))
        elif t == "number":
            benign = max(sch.get("minimum", 1), min(1.5, sch.get("maximum", 1.5)))
        elif t == "boolean":
            benign = True
        elif t == "array":
            it = sch.get("items", {})
            benign = (
                it["enum"][:1] if "enum" in it else [next((s for s in SAMPLES if ok([s])), "x")]
            )
        elif t == "object":
            benign = {"key": "value"}
        else:
            benign = next((s for s in SAMPLES if ok(s)), None)
    t = sch.get("type")
    if "enum" in sch:
        hostile = list(sch["enum"])
    elif t == "boolean":
        hostile = [True, False]
    elif t in ("integer", "number"):
        hostile = [
            n for n in (sch.get("minimum", 0), sch.get("maximum", 7), -1, 0, 3, 10**30) if ok(n)
        ]
    elif t == "array":
        hostile = []
        for p in PAYLOADS:
            if ok([p, "b c"]):
                hostile.append([p, "b c"])
            elif ok([p]):
                hostile.append([p])
    elif t == "object":
        hostile = [{"k": p, "files": [p], "name": p} for p in PAYLOADS]
    else:
        hostile = [p for p in PAYLOADS if ok(p)] + [s for s in SAMPLES if ok(s)][:6]
    return hostile, benign


def safe(yfile, samples, verbose=False, max_runs=60):
    exp = yaml.safe_load(open(yfile))
    base0 = tempfile.mkdtemp(prefix="r4s-")
    try:
        wd = make_fixture(base0)
        fs = samples.get(os.path.basename(yfile), {})
        hostile, benign = {}, {}
        for a, sch in (exp.get("args") or {}).items():
            hostile[a], benign[a] = candidates(a, sch, wd, fs)
    finally:
        shutil.rmtree(base0, ignore_errors=True)
    base_args = {a: v for a, v in benign.items() if v is not None}
    res = {"file": os.path.basename(yfile), "marker": False, "leak": False, "runs": 0}
    base, stub = fresh(exp)
    r = run_once(yfile, exp, base_args, base, stub, verbose)
    shutil.rmtree(base, ignore_errors=True)
    res["benign"] = re.findall(r"\[(?:steps|on_failure|finally):(\S+) rc=(\d+)\]", r["out"])
    res["benign_tail"] = r["out"][-300:]
    if r["marker"] or r["leak"]:
        res.update(marker=r["marker"], leak=r["leak"], why=("benign", r["out"][-800:]))
    n = max([len(h) for h in hostile.values()] + [0])
    for i in range(min(n, max_runs)):
        args = dict(base_args)
        for a, h in hostile.items():
            if h:
                args[a] = h[i % len(h)]
        base, stub = fresh(exp)
        r = run_once(yfile, exp, args, base, stub, verbose)
        shutil.rmtree(base, ignore_errors=True)
        res["runs"] += 1
        if r["marker"] or r["leak"]:
            res["marker"] |= r["marker"]
            res["leak"] |= r["leak"]
            res["why"] = (args, r["out"][-800:])
    return res


if __name__ == "__main__":
    import concurrent.futures as cf

    mode = sys.argv[1]
    files = [f for f in sys.argv[2:] if not f.startswith("-")]
    verbose = "-v" in sys.argv
    workers = 1 if verbose else 6
    out = []
    if mode == "attack":
        with cf.ThreadPoolExecutor(workers) as ex:
            for r in ex.map(lambda f: attack(f, verbose), files):
                out.append(r)
                print(f"{r['verdict']:10} {os.path.basename(r['file'])}")
                if r["verdict"] not in ("FIRED", "LEAK") and "tail" in r:
                    print("   ", r["tail"].replace("\n", " | ")[-300:])
        ok = sum(r["verdict"] in ("FIRED", "LEAK") for r in out)
        print(f"\n{ok}/{len(out)} attacks fired or leaked")
    else:
        sp = os.path.join(HERE, "samples.json")
        samples = json.load(open(sp)) if os.path.exists(sp) else {}
        with cf.ThreadPoolExecutor(workers) as ex:
            for r in ex.map(lambda f: safe(f, samples, verbose), files):
                out.append(r)
                flag = "FIRED" if r["marker"] else ("LEAK" if r["leak"] else "ok")
                print(f"{flag:5} {r['file']:42} runs={r['runs']:3} benign={r['benign']}")
                if flag != "ok":
                    print("   WHY:", json.dumps(r.get("why"))[:1200])
        bad = [r for r in out if r["marker"] or r["leak"]]
        print(f"\n{len(out)} safe files, {len(bad)} fired/leaked")
    json.dump(out, open(os.path.join(HERE, f"last-{mode}.json"), "w"), indent=1)

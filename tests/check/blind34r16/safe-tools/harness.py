#!/usr/bin/env python3
"""(blind34r16 copy of blind34r6's harness, adapted) Verify blind34r16 safe exports WITHOUT mcp-harbor: render each export as
docs/exports.md describes (ARG_* / secrets / STEP_* outputs as unexported
shell variables on the first line, $'\\xHH'-quoted; placeholders raw or
shlex.quote'd; argv elements substituted in place), validate hostile values
the way the docs say calls are validated (JSON Schema, full-match pattern,
no newline unless multiline, no leading '-' unless leading_dash/enum/const,
within), run every step under `bash --noprofile --norc -eo pipefail`, and
report whether HARBOR-PWNED-42 ever appears (output or files) or the planted
secret leaks. Adapted from tests/check/blind34r2/tools/render.py."""

import base64, copy, itertools, json, os, re, shlex, shutil, subprocess, sys, tempfile
import yaml, jsonschema

HERE0 = os.path.dirname(os.path.abspath(__file__))
# Never touch the real home: every program (and git for the fixture) sees a fake one.
os.environ["HOME"] = os.path.join(HERE0, "home")
os.environ["XDG_CONFIG_HOME"] = os.path.join(HERE0, "xdg-config")
os.environ["XDG_STATE_HOME"] = os.path.join(HERE0, "xdg-state")
os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
os.environ["PATH"] = os.path.dirname(os.path.realpath(sys.executable)) + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for _d in ("home", "xdg-config", "xdg-state"):
    os.makedirs(os.path.join(HERE0, _d), exist_ok=True)

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
    "../../../../etc/passwd",
    "/etc/passwd",
    "*",
    "~root/.ssh",
    "--help",
    "-rf",
    f"{{a,b}}$(echo {C})",
    f"$(echo {C} > /tmp/harbor-r6-pwned)",
    f"x\r\necho {C}",
    f"file://$(echo {C})",
    f"http://127.0.0.1:9/$(echo {C})",
    f":(top)$(echo {C})",
    f"%0a$(echo {C})",
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
    "abc1234",
    "ERROR",
    "error",
    "10m",
    "1h",
    "7d",
    "users",
    "orders",
    "UTC",
    "Europe/Berlin",
    "nginx",
    "nginx.service",
    "HEAD",
    "origin/main",
    "42",
    "1",
    "en_US",
    "logs/app.log",
    "src",
    "README.md",
    "app.log",
    "user@example.com",
    "v1/health",
    "health",
    "feature/login",
    "OPS-42",
    "alice",
    "a1b2c3d4e5f6",
    "10.0.0.1",
    "example.com",
    "x",
    "a b",
    "200",
    "GET",
    "web",
    "db",
    "config/app.yaml",
    "data/users.json",
    ".",
    "team-a",
    "us-east-1",
]


PASS_ENV_DEFAULTS = {
    "PGHOST": "127.0.0.1", "PGPORT": "5432", "PGDATABASE": "app", "PGUSER": "readonly",
    "KUBECONFIG": "/nonexistent/kubeconfig", "AWS_PROFILE": "readonly", "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1", "DOCKER_HOST": "unix:///nonexistent/docker.sock",
    "GRAFANA_URL": "http://127.0.0.1:9", "REGISTRY_HOST": "127.0.0.1:9",
    "TF_PLUGIN_CACHE_DIR": os.path.join(HERE0, "home", "tf-plugin-cache"), "REGISTRY_USER": "ci-reader",
    "JIRA_USER": "ops-bot@example.com", "GITLAB_HOST": "gitlab.example.com", "RESTIC_REPOSITORY": "/nonexistent/restic-repo",
    "SSH_AUTH_SOCK": "/nonexistent/ssh-agent.sock",
}
os.makedirs(PASS_ENV_DEFAULTS["TF_PLUGIN_CACHE_DIR"], exist_ok=True)
UNREACHABLE = ["connection refused", "cannot connect to the docker daemon", "failed to connect to bus",
    "system has not been booted", "could not resolve", "no journal files", "unable to locate credentials",
    "unreachable", "couldn't get current server", "failed to connect", "no such host", "kubeconfig",
    "connect: ", "was refused", "host is down", "no credentialed accounts", "not found: helm", "stub-", "error: connection",
    "could not connect", "credentials", "terraform init", "no configuration files", "backend initialization"]
FORCE_STUB = ["aws"]  # the machine has no AWS CLI v2
STUB_IF_MISSING = ["helm", "gh", "glab", "aws", "argocd", "vault"]
HTTP_STUB = "http://127.0.0.1:9"  # replaced by the local JSON stub server in main


def load_sample(yfile):
    p = yfile[:-5] + ".json"
    return json.load(open(p)) if os.path.exists(p) else {}


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


def walk_strings(sch, v):
    """yield (schema, string) for every string value, for harbor's extra rules"""
    if isinstance(v, str):
        yield sch, v
    elif isinstance(v, list):
        it = sch.get("items", {}) if isinstance(sch, dict) else {}
        for x in v:
            if isinstance(x, str):
                yield {**it, "_parent": sch}, x
    elif isinstance(v, dict):
        pass


def valid(sch, v, workdir):
    try:
        jsonschema.Draft202012Validator(strip(sch)).validate(v)
    except jsonschema.ValidationError:
        return False

    def has(k, s):
        return isinstance(s, dict) and k in s

    for s, x in walk_strings(sch, v):
        parent = s.get("_parent", sch)
        if "\x00" in x:
            return False
        if ("\n" in x or "\r" in x) and not (sch.get("multiline") or parent.get("multiline")):
            return False
        pat = s.get("pattern") or (sch.get("pattern") if s is sch else None)
        if pat and not re.fullmatch(pat, x):
            return False
        exempt = any(has(k, s) for k in ("enum", "const")) or any(
            has(k, sch) for k in ("enum", "const")
        )
        if (
            x.startswith("-")
            and not (sch.get("leading_dash") or parent.get("leading_dash"))
            and not exempt
        ):
            return False
        w = sch.get("within") or parent.get("within")
        if w is not None and not sch.get("contentEncoding"):
            base = os.path.realpath(os.path.join(workdir, w))
            r = os.path.realpath(os.path.join(workdir, x))
            if not (r == base or r.startswith(base + "/")):
                return False
    return True


def candidates(name, sch, workdir, samples):
    """(hostile list, benign value)"""
    sch = sch or {}
    if sch.get("contentEncoding") == "base64":
        raw = base64.b64encode((f"line one\n$(echo {C})\n;echo {C}\n").encode()).decode()
        if name in samples:
            return [raw, samples[name]], samples[name]
        return [raw], raw
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
            if "enum" in it:
                benign = it["enum"][:1]
            else:
                benign = [next((s for s in SAMPLES if valid(sch, [s], workdir)), "x")]
        elif t == "object":
            benign = {"key": "value"}
        else:
            benign = next((s for s in SAMPLES if valid(sch, s, workdir)), None)
    hostile = []
    t = sch.get("type")
    if "enum" in sch:
        hostile = [e for e in sch["enum"]]
    elif t == "boolean" or t == ["boolean"]:
        hostile = [True, False]
    elif t in ("integer", "number"):
        for n in (sch.get("minimum", 0), sch.get("maximum", 7), -1, 0, 3):
            if valid(sch, n, workdir):
                hostile.append(n)
    elif t == "array":
        for p in PAYLOADS:
            if valid(sch, [p, "b c"], workdir):
                hostile.append([p, "b c"])
            elif valid(sch, [p], workdir):
                hostile.append([p])
    elif t == "object":
        hostile = [{"k": p} for p in PAYLOADS[:6]]
    else:
        hostile = [p for p in PAYLOADS if valid(sch, p, workdir)]
        hostile += [s for s in SAMPLES if valid(sch, s, workdir)][:6]
    return hostile, benign


def eval_if(expr, argv, outs):
    """tiny evaluator of the docs' if: language (harness only)"""
    e = expr.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    e = re.sub(r"\btrue\b", "True", e)
    e = re.sub(r"\bfalse\b", "False", e)
    e = re.sub(r"\bnull\b", "None", e)
    e = re.sub(r"\bargs\.([A-Za-z_][A-Za-z0-9_]*)", lambda m: f"A.get({m.group(1)!r})", e)
    def st(m):
        n, f = m.group(1), m.group(2)
        return f"S({n!r},{f!r})"
    e = re.sub(r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.(ok|failed|skipped|timeout|status|exit_code)\b", st, e)
    e = re.sub(r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.outputs\.([A-Za-z_][A-Za-z0-9_]*)", lambda m: f"O({m.group(1)!r},{m.group(2)!r})", e)
    def S(n, f):
        o = outs.get(n)
        if o is None:
            return {"skipped": True, "status": "skipped"}.get(f, False if f != "exit_code" else None)
        stt = o["status"]
        return {"ok": stt == "ok", "failed": stt in ("failed", "timeout"), "skipped": stt == "skipped",
                "timeout": stt == "timeout", "status": stt, "exit_code": o["exit"]}[f]
    def O(n, k):
        return (outs.get(n) or {}).get("outputs", {}).get(k)
    try:
        return bool(eval(e, {"A": argv, "S": S, "O": O, "__builtins__": {}}))
    except Exception as ex:
        print("IF-EVAL-ERROR", expr, ex, file=sys.stderr)
        return True


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


def _tool_vals(tdef, targs):
    vals = {}
    for name, sch in (tdef.get("args") or {}).items():
        sch = sch or {}
        if name in targs:
            vals[name] = text(targs[name])
        elif "default" in sch:
            vals[name] = text(sch["default"])
    return vals


def bash_n(script):
    p = subprocess.run(["bash", "--noprofile", "--norc", "-n"], input=script.encode(), capture_output=True)
    return p.returncode == 0 and not p.stderr.strip(), p.stderr.decode(errors="replace")


def run_once(yfile, exp, args, workdir, stubdir, timeout=25, tool_samples=None, agent_samples=None, notes=None):
    notes = notes if notes is not None else []
    rundir = tempfile.mkdtemp(prefix="r16run-")
    for d in ("inputs", "steps", "tmp", "tools"):
        os.makedirs(os.path.join(rundir, d))
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
            ext = {"text/plain": ".txt", "application/json": ".json", "text/csv": ".csv",
                   "application/gzip": ".gz", "application/x-yaml": ".yaml", "application/yaml": ".yaml",
                   "application/zip": ".zip"}.get(sch.get("contentMediaType"), ".bin")
            p = os.path.join(rundir, "inputs", name + ext)
            open(p, "wb").write(base64.b64decode(v))
            v = p
        vals[name] = text(v)
    secrets = {s: (HTTP_STUB + "/hooks/" + SECRET if ("URL" in s or "WEBHOOK" in s) else SECRET) for s in (exp.get("secrets") or {})}
    vals_typed = {}
    for name, sch in (exp.get("args") or {}).items():
        if name in args:
            vals_typed[name] = args[name]
        elif "default" in (sch or {}):
            vals_typed[name] = sch["default"]
    json.dump({"arguments": vals}, open(rundir + "/context.json", "w"))
    phases = [("steps", s) for s in (exp.get("steps") or [])] + \
             [("on_failure", s) for s in (exp.get("on_failure") or [])] + \
             [("finally", s) for s in (exp.get("finally") or [])]
    outs = {}
    allout = ""
    rcs = []
    failed = False
    counter = [0]

    def base_env(stepname, n):
        env = {
            "PATH": stubdir + ":" + os.environ["PATH"],
            "HOME": os.environ["HOME"], "USER": "harbor", "LOGNAME": "harbor", "LANG": "C.UTF-8",
            "TMPDIR": rundir + "/tmp", "HARBOR_RUN_ID": "r16", "HARBOR_RUN_DIR": rundir,
            "HARBOR_TOOL": exp["name"], "HARBOR_STEP": stepname,
            "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}.out", "HARBOR_PROGRESS": f"{rundir}/steps/{n}.progress",
            "HARBOR_CONTEXT": rundir + "/context.json", "HARBOR_OUTPUT": rundir + "/output.json",
            "HARBOR_CALLER_PRINCIPAL": "local:r16", "HARBOR_CALLER_TENANT": "local",
            "HARBOR_CALLER_TRANSPORT": "cli", "HARBOR_CALLER_GROUPS": "",
        }
        for pe in exp.get("pass_env") or []:
            env.setdefault(pe, PASS_ENV_DEFAULTS.get(pe) or (
                HTTP_STUB if pe.endswith(("_URL", "_BASE", "_ENDPOINT", "_API")) else "/nonexistent/" + pe.lower()))
        env["AWS_EC2_METADATA_DISABLED"] = "true"
        for sn, so in outs.items():
            env[f"STEP_{sn}_EXIT"] = "" if so["exit"] is None else str(so["exit"])
            env[f"STEP_{sn}_STATUS"] = so["status"]
        return env

    def run_cmd(kind, body, vals_, env, cwd, label, with_outputs=True, with_secrets=True):
        if kind == "run":
            pro = []
            for k, v in vals_.items():
                pro.append(f"ARG_{k}={ansi(v)}; ")
            if with_secrets:
                for k, v in secrets.items():
                    pro.append(f"{k}={ansi(v)}; ")
            if with_outputs:
                for sn, so in outs.items():
                    for k, v in so["outputs"].items():
                        pro.append(f"STEP_{sn}_{k}={ansi(v)}; ")
            script = "".join(pro) + render(body, vals_)
            ok, err = bash_n(script)
            if not ok:
                notes.append(("BASH-N-ERR", label, err[-300:]))
            counter[0] += 1
            sf = f"{rundir}/tmp/.script{counter[0]}.sh"
            open(sf, "w").write(script)
            cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
        else:
            sf = None
            cmd = [render(str(a), vals_) for a in body]
            if with_secrets and not any(PH.search(str(a)) for a in body):
                env.update(secrets)
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=timeout, start_new_session=True)
            o = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
            rc = p.returncode
        except subprocess.TimeoutExpired:
            o, rc = "TIMEOUT", 124
        except (FileNotFoundError, PermissionError) as e:
            o, rc = str(e), 127
        if sf:
            os.unlink(sf)
        return rc, o

    fix_tools_done = [False]

    def run_fix_tools(n):
        # the tools a fix: agent may call, run once each with the sample's values (as a model would)
        names = []
        for s_ in exp.get("steps") or []:
            for t in ((s_.get("fix") or {}).get("tools") or []):
                if t not in names:
                    names.append(t)
        out = ""
        for tname in names:
            tdef = (exp.get("tools") or {}).get(tname)
            if tdef is None:
                continue
            tv = _tool_vals(tdef, (tool_samples or {}).get(tname, {}))
            kind = "run" if "run" in tdef else "argv"
            rc, o = run_cmd(kind, tdef.get("run") or tdef.get("argv"), tv, base_env("fix." + tname, n), workdir,
                            f"tools.{tname}", with_outputs=False)
            rcs.append((f"fix.{tname}", rc))
            out += f"\n  <fix tool {tname} rc={rc}>\n" + o
        return out

    for n, (phase, st) in enumerate(phases, 1):
        if phase != "steps" and not fix_tools_done[0]:
            fix_tools_done[0] = True
            allout += run_fix_tools(n)
        if phase == "on_failure" and not failed:
            continue
        env = base_env(st["name"], n)
        cond = st.get("if")
        if phase == "steps" and failed and not (cond and "steps." in cond):
            allout += f"\n[{st['name']} skipped: pipeline failed]\n"
            outs[st["name"]] = {"exit": None, "status": "skipped", "outputs": {}}
            continue
        if cond and not eval_if(cond, vals_typed, outs):
            allout += f"\n[{st['name']} skipped]\n"
            outs[st["name"]] = {"exit": None, "status": "skipped", "outputs": {}}
            continue
        cwd = workdir
        if st.get("cwd"):
            cwd = os.path.normpath(os.path.join(workdir, "exports", st["cwd"]))
        if "agent" in st:
            ag = st["agent"]
            tools = exp.get("tools") or {}
            o_all = ""
            trc = 0
            for tname in ag.get("tools") or []:
                if tname not in tools:
                    notes.append(("GRANT-NOT-CUSTOM", tname, ""))
                    continue
                tdef = tools[tname]
                for targs in (tool_samples or {}).get(tname, [{}]) if isinstance((tool_samples or {}).get(tname), list) else [(tool_samples or {}).get(tname, {})]:
                    tv = _tool_vals(tdef, targs)
                    tenv = base_env(st["name"] + "." + tname, n)
                    kind = "run" if "run" in tdef else "argv"
                    rc, o = run_cmd(kind, tdef.get("run") or tdef.get("argv"), tv, tenv, workdir, f"tools.{tname}", with_outputs=False)
                    o_all += f"\n  <tool {tname} {json.dumps(targs)} rc={rc}>\n" + o
                    rcs.append((f"{st['name']}.{tname}", rc))
                    trc = trc or rc
            allout += f"\n[{st['name']} agent: custom tools run once with sample args]\n" + o_all
            outs[st["name"]] = {"exit": 0, "status": "ok", "outputs": {k: text(v) for k, v in ((agent_samples or {}).get(st["name"]) or {}).items()}}
            continue
        kind = "run" if "run" in st else "argv"
        body = st.get("run") if kind == "run" else st.get("argv")
        env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
        attempts = min(2, int((st.get("retry") or {}).get("attempts", 1)))
        for a in range(attempts):
            if os.path.exists(f"{rundir}/steps/{n}.out"):
                os.unlink(f"{rundir}/steps/{n}.out")
            rc, o = run_cmd(kind, body, vals, dict(env), cwd, f"{phase}.{st['name']}")
            if rc == 0:
                break
        allout += f"\n[{phase}.{st['name']} rc={rc}]\n" + o
        rcs.append((st["name"] if phase == "steps" else f"{phase}:{st['name']}", rc))
        outs[st["name"]] = {"exit": rc, "status": "ok" if rc == 0 else ("timeout" if rc == 124 else "failed"),
                            "outputs": read_outputs(f"{rundir}/steps/{n}.out")}
        if phase == "steps" and rc != 0 and not st.get("continue_on_error"):
            failed = True
    if not fix_tools_done[0]:
        allout += run_fix_tools(len(phases) + 1)
    if exp.get("output_schema") and not failed:
        try:
            doc = json.load(open(rundir + "/output.json"))
            jsonschema.Draft202012Validator(exp["output_schema"]).validate(doc)
            allout += "\n[output_schema: valid] " + json.dumps(doc)[:300] + "\n"
        except Exception as ex:
            notes.append(("OUTPUT-INVALID", exp["name"], str(ex)[:300]))
    files = ""
    for root, _, fs in itertools.chain(os.walk(rundir), os.walk(workdir)):
        if "/.git" in root or "node_modules" in root:
            continue
        for f in fs:
            try:
                files += open(os.path.join(root, f), errors="replace").read(200000)
            except Exception:
                pass
    shutil.rmtree(rundir, ignore_errors=True)
    return {"marker": MARK in allout or MARK in files, "leak": leaked(allout, files), "out": allout, "rcs": rcs,
            "failed": failed}


def leaked(out, files=""):
    """the planted secret in any form a verbatim scrubber misses (and verbatim)"""
    import codecs

    norm = re.sub(r"[\\'\"\s|,:;]", "", out)
    forms = [
        SECRET,
        SECRET[::-1],
        codecs.encode(SECRET, "rot13"),
        base64.b64encode(SECRET.encode()).decode()[:16],
        SECRET.encode().hex(),
        SECRET.upper(),
        SECRET.lower(),
    ]
    return any(
        f in norm or f in out for f in forms
    )  # run-directory files are scrubbed by the runtime: output only


def make_fixture(base):
    wd = os.path.join(base, "wd")
    shutil.copytree(os.path.join(HERE, "fixture"), wd, symlinks=True)
    g = lambda *a: subprocess.run(
        ["git", *a],
        cwd=wd,
        check=True,
        capture_output=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "Dev",
            "GIT_AUTHOR_EMAIL": "dev@example.com",
            "GIT_COMMITTER_NAME": "Dev",
            "GIT_COMMITTER_EMAIL": "dev@example.com",
            "GIT_AUTHOR_DATE": "2024-01-15T10:00:00Z",
            "GIT_COMMITTER_DATE": "2024-01-15T10:00:00Z",
        },
    )
    import sqlite3
    db = sqlite3.connect(os.path.join(wd, "data", "app.db"))
    db.executescript("""
    create table users(id integer primary key, name text, email text, team text, created_at text);
    create table orders(id integer primary key, user_id integer, status text, total real, created_at text);
    """)
    for i in range(20):
        db.execute("insert into users values(?,?,?,?,?)", (i, f"user{i}", f"user{i}@example.com", ["team-a", "team-b"][i % 2], f"2024-01-{i+1:02d}"))
        db.execute("insert into orders values(?,?,?,?,?)", (100 + i, i % 7, ["shipped", "pending", "cancelled"][i % 3], 10.5 * i, f"2024-01-{i+1:02d}"))
    db.commit(); db.close()
    wh = sqlite3.connect(os.path.join(wd, "data", "warehouse", "metrics.db"))
    wh.executescript("""
    create table daily_revenue(day text, country text, orders integer, revenue_cents integer);
    create table job_runs(job text, started_at text, status text, duration_s integer);
    """)
    import random as _r
    _r.seed(3)
    for d in range(1, 29):
        for c in ("DE", "FR", "US", "GB"):
            wh.execute("insert into daily_revenue values(?,?,?,?)", (f"2024-01-{d:02d}", c, _r.randint(10, 400), _r.randint(1000, 900000)))
        for j in ("nightly-etl", "backup", "reindex"):
            wh.execute("insert into job_runs values(?,?,?,?)", (j, f"2024-01-{d:02d}T02:00:00Z", _r.choice(["ok", "ok", "ok", "failed"]), _r.randint(30, 3600)))
    wh.commit(); wh.close()
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
    for prog in list(exp.get("programs") or {}) + STUB_IF_MISSING:
        if "/" in prog:
            continue
        if shutil.which(prog) and prog not in FORCE_STUB:
            continue
        p = os.path.join(stubdir, prog)
        open(p, "w").write(
            '#!/bin/sh\nprintf \'stub-%s argv:\' "$(basename "$0")"; for a in "$@"; do printf \' [%s]\' "$a"; done; echo\n'
            "if [ ! -t 0 ]; then head -c 2000 | sed 's/^/stdin: /'; fi\n"
        )
        os.chmod(p, 0o755)


def check_file(yfile, max_runs=6, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = load_sample(yfile)
    base = tempfile.mkdtemp(prefix="r16h-")
    notes = []
    try:
        wd = make_fixture(base)
        stubdir = os.path.join(base, "stubs")
        os.makedirs(stubdir)
        stub_programs(exp, stubdir)
        fs = dict(spec.get("args") or {})
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=wd, capture_output=True, text=True).stdout.strip()
        fs = {k: (v.replace("HEADSHA", head[:12]) if isinstance(v, str) else v) for k, v in fs.items()}
        argdefs = exp.get("args") or {}
        # the sample must be a valid call
        bad = [a for a in fs if a not in argdefs]
        bad += [a for a, v in fs.items() if a in argdefs and not valid(argdefs[a] or {}, v, wd)]
        bad += [a for a in (exp.get("required") or []) if a not in fs and "default" not in (argdefs.get(a) or {})]
        for tname, tsamp in (spec.get("tools") or {}).items():
            tdef = (exp.get("tools") or {}).get(tname)
            if tdef is None:
                bad.append("tools." + tname)
                continue
            for ts in (tsamp if isinstance(tsamp, list) else [tsamp]):
                for a, v in ts.items():
                    if a not in (tdef.get("args") or {}) or not valid((tdef.get("args") or {})[a] or {}, v, wd):
                        bad.append(f"tools.{tname}.{a}")
        if bad:
            notes.append(("INVALID-SAMPLE", ",".join(bad), ""))
        hostile, benign = {}, {}
        for a, sch in argdefs.items():
            h, b = candidates(a, sch, wd, fs)
            hostile[a], benign[a] = h, b
        base_args = {a: v for a, v in fs.items()}
        res = {
            "file": os.path.basename(yfile), "marker": False, "leak": False, "runs": 0,
            "benign_rcs": None, "notes": notes,
            "hostile_args": [a for a, h in hostile.items() if h and not (argdefs[a] or {}).get("enum")
                             and not (argdefs[a] or {}).get("const")
                             and (argdefs[a] or {}).get("type") not in ("boolean", "integer", "number")],
        }
        r = run_once(yfile, exp, base_args, wd, stubdir, tool_samples=spec.get("tools"),
                     agent_samples=spec.get("agent"), notes=notes)
        res["benign_rcs"] = r["rcs"]
        res["benign_out"] = r["out"][-2500:]
        low = r["out"].lower()
        main_rcs = [rc for name, rc in r["rcs"] if ":" not in name]
        if all(rc == 0 for _, rc in r["rcs"]):
            res["benign_class"] = "BENIGN-OK"
        elif any(rc == 127 for rc in main_rcs) or "command not found" in low:
            res["benign_class"] = "MISSING"
        elif any(u in low for u in UNREACHABLE):
            res["benign_class"] = "UNREACHABLE"
        elif all(rc == 0 for rc in main_rcs) and not r["failed"]:
            res["benign_class"] = "BENIGN-OK"   # only a hook ended non-zero
        else:
            res["benign_class"] = "BENIGN-FAIL"
        res["runs"] += 1
        if verbose:
            print(r["out"])
        if r["marker"] or r["leak"]:
            res["marker"] |= r["marker"]
            res["leak"] |= r["leak"]
            res["why"] = ("benign", r["out"][-2000:])
        n = max([len(h) for a, h in hostile.items() if a in res["hostile_args"]] + [0])
        for i in range(min(n, max_runs)):
            args = dict(base_args)
            for a in res["hostile_args"]:
                h = hostile[a]
                if h:
                    args[a] = h[i % len(h)]
            r = run_once(yfile, exp, args, wd, stubdir, tool_samples=spec.get("tools"),
                         agent_samples=spec.get("agent"), notes=[])
            res["runs"] += 1
            if os.path.exists("/tmp/harbor-r6-pwned"):
                r["marker"] = True
            if r["marker"] or r["leak"]:
                res["marker"] |= r["marker"]
                res["leak"] |= r["leak"]
                res["why"] = (args, r["out"][-2000:])
        return res
    finally:
        shutil.rmtree(base, ignore_errors=True)


def start_http_stub():
    """a local JSON answerer for the *_URL settings the exports pass through"""
    import http.server, threading

    body = json.dumps({
        "ok": True, "status": "ok", "state": "healthy", "version": "1.4.2",
        "items": [], "results": [], "incidents": [], "alerts": [], "tickets": [], "issues": [],
        "values": [], "tags": [], "repositories": [], "hits": {"total": {"value": 0}, "hits": []},
        "data": {"result": [], "resultType": "vector"}, "count": 0, "total": 0,
    }).encode()

    class H(http.server.BaseHTTPRequestHandler):
        def _answer(self):
            n = int(self.headers.get("Content-Length") or 0)
            if n:
                self.rfile.read(n)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _answer

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


def run_attack(yfile, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = json.load(open(yfile[:-5] + ".json"))
    args = spec["args"]
    assert MARK not in json.dumps(args), "payload marker literally in args"
    base = tempfile.mkdtemp(prefix="r5a-")
    try:
        wd = make_fixture(base)
        stubdir = os.path.join(base, "stubs")
        os.makedirs(stubdir)
        stub_programs(exp, stubdir)
        argdefs = exp.get("args") or {}
        full = dict(args)
        for a, sch in argdefs.items():
            if a not in full and "default" in (sch or {}):
                full[a] = sch["default"]
        bad = [a for a in full if a in argdefs and not valid(argdefs[a] or {}, full[a], wd)]
        bad += [a for a in (exp.get("required") or []) if a not in full]
        bad += [a for a in args if a not in argdefs]
        if bad:
            return {"file": os.path.basename(yfile), "status": "INVALID-ARGS", "bad": bad}
        r = run_once(yfile, exp, args, wd, stubdir, timeout=40)
        if verbose:
            print(r["out"])
        st = "FIRED" if r["marker"] else ("LEAK" if r["leak"] else "no")
        return {
            "file": os.path.basename(yfile),
            "status": st,
            "class": spec.get("class"),
            "rcs": r["rcs"],
            "tail": r["out"][-800:],
        }
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__" and "--attack" in sys.argv:
    files = [f for f in sys.argv[1:] if not f.startswith("-")]
    res = [run_attack(f, "-v" in sys.argv) for f in files]
    for r in res:
        print(f"{r['status']:12} {r['file']:45} {r.get('class', '')} {r.get('rcs', r.get('bad'))}")
        if r["status"] not in ("FIRED", "LEAK") and "-q" not in sys.argv:
            print("   ", (r.get("tail") or "")[-500:].replace("\n", "\n    "))
    json.dump(res, open(os.path.join(HERE, "last-attacks.json"), "w"), indent=1)
    sys.exit(0)

if __name__ == "__main__":
    import concurrent.futures as cf

    HTTP_STUB = start_http_stub()
    files = sorted(f for f in sys.argv[1:] if not f.startswith("-"))
    verbose = "-v" in sys.argv
    results = []
    lines = []
    with cf.ThreadPoolExecutor(max_workers=1 if verbose else 6) as ex:
        for res in ex.map(lambda f: check_file(f, verbose=verbose), files):
            results.append(res)
            flag = "FIRED" if res["marker"] else ("LEAK" if res["leak"] else "ok")
            b = res.get("benign_class", "?")
            nt = sorted({n[0] for n in res["notes"]})
            line = f"{flag:5} {b:11} {res['file']:44} runs={res['runs']:2} benign={res['benign_rcs']} hostile_args={res['hostile_args']} notes={nt}"
            print(line, flush=True)
            lines.append(line)
            for n in res["notes"]:
                print("   NOTE:", n, flush=True)
            if flag != "ok":
                print("   WHY:", json.dumps(res.get("why"))[:1500])
            if (b != "BENIGN-OK" or "-a" in sys.argv) and "-q" not in sys.argv:
                print("   OUT:", res.get("benign_out", "").replace("\n", "\n      ")[-1200:])
    json.dump(results, open(os.path.join(HERE, "last-safe.json"), "w"), indent=1)
    bad = [r for r in results if r["marker"] or r["leak"]]
    from collections import Counter
    print(f"\n{len(results)} files, {len(bad)} fired/leaked; benign classes: {dict(Counter(r['benign_class'] for r in results))}")
    sys.exit(1 if bad else 0)

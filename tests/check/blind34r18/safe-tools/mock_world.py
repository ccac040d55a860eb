"""A small stand-in world for the harness (blind34r18), so that exports bound to
a network service, a cluster or a daemon run past their first command:

* an HTTP and an HTTPS server (self-signed) answering canned JSON by host and
  path; a `curl` shim (first on PATH) runs the real curl with
  `--connect-to` to these servers, so every option the script gives curl is
  still parsed by curl itself; a `wget` shim translates wget's few options the
  exports use to that curl;
* fake `kubectl`, `helm`, `docker`, `psql`, `pg_dump`, `aws`, `gcloud`,
  `redis-cli` and `systemctl` that answer the subcommands the exports use from
  canned data.

Nothing here prints a request's headers, an argument or the environment: the
fakes print canned data only. Where the planted secret arrives (an HTTP header
or body, PGPASSWORD, REDISCLI_AUTH, AWS_*), the receiver appends
`receiver:where` to the file named by HARNESS_SECRET_LOG, so the harness can
say that the secret reached the service it is meant for.
"""

import base64, http.server, io, json, os, re, socketserver, ssl, subprocess, sys, tarfile, threading

SECRET = "s3cr3tT0ken99"


def artifact_tarball():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.USTAR_FORMAT) as t:
        for name, data in (("app/VERSION", b"1.4.2\n"), ("app/bin/app", b"#!/bin/sh\necho app\n")):
            ti = tarfile.TarInfo(name)
            ti.size, ti.mtime, ti.mode = len(data), 1705312800, 0o755
            t.addfile(ti, io.BytesIO(data))
    # gzip header mtime: make the bytes stable
    raw = bytearray(buf.getvalue())
    raw[4:8] = b"\0\0\0\0"
    return bytes(raw)


ARTIFACT = artifact_tarball()

NOW = "2024-01-15T10:30:00Z"
ROUTES = [
    # (host regex, method, path regex, status, body)
    (r"api\.statuspage\.io", "GET", r"/v1/pages/[^/]+/incidents(/unresolved)?", 200, [
        {"name": "Elevated checkout errors", "status": "investigating", "impact": "major", "updated_at": "2024-01-15T10:05:00Z", "shortlink": "https://stspg.io/x1"},
        {"name": "Search latency", "status": "monitoring", "impact": "minor", "updated_at": "2024-01-15T09:10:00Z"}]),
    (r"api\.pagerduty\.com", "GET", r"/oncalls", 200, {"oncalls": [
        {"start": "2024-01-15T08:00:00Z", "end": "2024-01-15T20:00:00Z", "escalation_level": 1, "user": {"summary": "Alice Ops"}},
        {"start": "2024-01-15T08:00:00Z", "end": "2024-01-16T08:00:00Z", "escalation_level": 2, "user": {"summary": "Bob Lead"}}]}),
    (r"api\.pagerduty\.com", "GET", r"/incidents", 200, {"incidents": [
        {"created_at": "2024-01-15T09:40:00Z", "urgency": "high", "status": "triggered", "service": {"summary": "checkout"}, "title": "5xx above 2%"}]}),
    (r"acme\.atlassian\.net", "POST", r"/rest/api/2/issue", 201, {"id": "10042", "key": "OPS-123"}),
    (r"slack\.com", "POST", r"/api/chat\.postMessage", 200, {"ok": True, "ts": "1705312800.000100"}),
    (r"api\.github\.com", "GET", r"/repos/acme/web/actions/runs", 200, {"workflow_runs": [
        {"created_at": "2024-01-15T09:00:00Z", "name": "ci", "head_branch": "main", "conclusion": "failure", "status": "completed",
         "run_started_at": "2024-01-15T09:00:05Z", "updated_at": "2024-01-15T09:12:40Z", "html_url": "https://github.com/acme/web/actions/runs/1"}]}),
    (r".*", "POST", r"/api/annotations", 200, {"id": 17, "message": "Annotation added"}),
    (r".*", "GET", r"/api/v1/query", 200, {"status": "success", "data": {"resultType": "vector", "result": [
        {"metric": {"instance": "web-1:8080"}, "value": [1705312800, "0.0123"]},
        {"metric": {"instance": "web-2:8080"}, "value": [1705312800, "0.0040"]}]}}),
    (r".*", "LIST", r"/v1/secret/metadata/.*", 200, {"data": {"keys": ["database", "redis/"]}}),
    (r".*", "GET", r"/v1/secret/metadata/.*", 200, {"data": {"current_version": 3, "max_versions": 10, "versions": {
        "1": {"created_time": "2023-11-01T10:00:00.1Z", "deletion_time": "", "destroyed": True},
        "2": {"created_time": "2023-12-01T10:00:00.1Z", "deletion_time": "2024-01-02T10:00:00Z", "destroyed": False},
        "3": {"created_time": "2024-01-02T10:00:00.1Z", "deletion_time": "", "destroyed": False}}}}),
    (r"sentry\.io", "GET", r"/api/0/projects/acme/[a-z]+/issues/", 200, [
        {"shortId": "API-1F", "count": "412", "userCount": 37, "lastSeen": "2024-01-15T10:20:00Z", "title": "TimeoutError: upstream timed out"}]),
    (r"api\.opsgenie\.com", "POST", r"/v2/alerts/[^/]+/acknowledge", 202, {"result": "Request will be processed", "requestId": "43a29c5c-0001"}),
    (r"api\.cloudflare\.com", "POST", r"/client/v4/zones/[^/]+/purge_cache", 200, {"success": True, "errors": [], "result": {"id": "023e"}}),
    (r"artifacts\.example\.com", "GET", r"/artifactory/releases/app/.*\.tar\.gz", 200, ARTIFACT),
    (r"releases\.internal\.example\.com", "POST", r"/hooks/deploy", 200, {"accepted": True}),
    (r"registry\.example\.com", "GET", r"/v2/.+/tags/list", 200, {"name": "team/app", "tags": ["1.4.2", "1.4.1", "latest", "1.10.0", "pr-128", "1.9.3"]}),
    (r"(staging|www)\.example\.com", "GET", r"/[a-z]+/healthz", 200, {"status": "ok", "checks": {"db": "ok"}}),
    (r"admin\.example\.com", "GET", r"/api/v2/users", 200, {"users": [
        {"email": "old@example.com", "last_login_at": "2023-06-01T10:00:00.123Z"},
        {"email": "fresh@example.com", "last_login_at": "2024-01-14T10:00:00Z"},
        {"email": "never@example.com", "last_login_at": None}]}),
    (r"deploy\.example\.com", "GET", r"/api/deployments", 200, [
        {"finished_at": "2024-01-15T09:00:00Z", "service": "web", "version": "1.4.2", "deployed_by": "alice", "status": "succeeded"}]),
    (r"api\.mailgun\.net", "POST", r"/v3/[^/]+/messages", 200, {"id": "<20240115.1@mg.example.com>", "message": "Queued. Thank you."}),
    (r"gitlab\.example\.com", "GET", r"/api/v4/projects/42/releases/.*", 200, {
        "name": "Release 1.4.2", "tag_name": "v1.4.2", "released_at": "2024-01-20T09:00:00Z",
        "description": "## Fixed\n- config reload", "assets": {"links": [{"name": "app.tar.gz", "url": "https://artifacts.example.com/app-1.4.2.tar.gz"}]}}),
]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _serve(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        host = (self.headers.get("Host") or "").split(":")[0]
        log = self.headers.get("X-Harness-Log")
        hdrs = "\n".join(f"{k}: {v}" for k, v in self.headers.items() if k.lower() != "x-harness-log")
        auth = self.headers.get("Authorization") or ""
        if auth.startswith("Basic "):
            try:
                hdrs += "\n" + base64.b64decode(auth[6:]).decode(errors="replace")
            except ValueError:
                pass
        if log and (SECRET in hdrs or SECRET.encode() in body):
            where = "header" if SECRET in hdrs else "body"
            with open(log, "a") as fh:
                fh.write(f"{self.server.scheme}://{host}{self.path.split('?')[0]}:{where}\n")
        path = self.path.split("?")[0]
        for h, m, p, status, data in ROUTES:
            if re.fullmatch(h, host) and m == self.command and re.fullmatch(p, path):
                out = data if isinstance(data, bytes) else json.dumps(data).encode()
                break
        else:
            status, out = 404, json.dumps({"error": "no such route in the mock"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream" if isinstance(out, bytes) and out[:2] == b"\x1f\x8b" else "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    do_GET = do_POST = do_PUT = do_DELETE = do_LIST = _serve


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def start(workdir):
    """start the HTTP and HTTPS servers; returns (http_port, https_port)"""
    cert, key = os.path.join(workdir, "mock.crt"), os.path.join(workdir, "mock.key")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "2", "-subj", "/CN=mock"], check=True, capture_output=True)
    plain = Server(("127.0.0.1", 0), Handler)
    tls = Server(("127.0.0.1", 0), Handler)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    tls.socket = ctx.wrap_socket(tls.socket, server_side=True)
    plain.scheme, tls.scheme = "http", "https"
    for s in (plain, tls):
        threading.Thread(target=s.serve_forever, daemon=True).start()
    return plain.server_address[1], tls.server_address[1]


def install(stubdir, http_port, https_port):
    """write the curl/wget shims and the fake programs into stubdir"""
    real_curl = "/usr/bin/curl"
    w = lambda name, text: (open(os.path.join(stubdir, name), "w").write(text), os.chmod(os.path.join(stubdir, name), 0o755))
    w("curl", f"""#!/bin/sh
# the real curl, with every connection to port 443 sent to the mock's TLS server
exec {real_curl} --connect-to :443:127.0.0.1:{https_port} --insecure \\
  -H "X-Harness-Log: ${{HARNESS_SECRET_LOG:-/dev/null}}" "$@"
""")
    # plain-HTTP services (PROM_URL, GRAFANA_URL, VAULT_ADDR) are given as http://127.0.0.1:HTTP_PORT
    w("wget", f"#!{sys.executable}\n" + WGET)
    for prog in ("kubectl", "helm", "docker", "psql", "pg_dump", "aws", "gcloud", "redis-cli", "systemctl"):
        w(prog, f"#!{sys.executable}\nPROG = {prog!r}\n" + FAKES)


WGET = r'''
import os, sys
args, out = [], []
for a in sys.argv[1:]:
    if a.startswith("--header="):
        out += ["-H", a.split("=", 1)[1]]
    elif a.startswith("--output-document="):
        out += ["-o", a.split("=", 1)[1]]
    elif a.startswith("--timeout="):
        out += ["--max-time", a.split("=", 1)[1]]
    elif a in ("--quiet", "-q"):
        out += ["--silent", "--show-error"]
    elif a.startswith("--tries="):
        pass
    elif a.startswith("-"):
        sys.exit(f"wget shim: option {a} not modelled")
    else:
        out.append(a)
os.execvp("curl", ["curl", "--fail"] + out)
'''

FAKES = r'''
import json, os, re, sys

SECRET = "s3cr3tT0ken99"
argv = sys.argv[1:]

def note(where):
    log = os.environ.get("HARNESS_SECRET_LOG")
    if log:
        with open(log, "a") as fh:
            fh.write(f"{PROG}:{where}\n")

for k, v in os.environ.items():
    if SECRET in v and not k.startswith("HARNESS"):
        note("env:" + k)
if any(SECRET in a for a in argv):
    note("argv")

def opt(names, default=None):
    """value of a long or short option, attached or not"""
    for i, a in enumerate(argv):
        for n in names:
            if a == n and i + 1 < len(argv):
                return argv[i + 1]
            if n.startswith("--") and a.startswith(n + "="):
                return a[len(n) + 1:]
    return default

def positionals():
    out, skip = [], False
    takes = {"-n", "--namespace", "-o", "--output", "-l", "--selector", "-f", "--file", "--format", "--filter",
             "--region", "--project", "--max", "--tail", "-h", "-p", "--query", "--field-selector", "--sort-by",
             "--values", "--set-string", "--bucket", "--prefix", "--filters", "--limit", "--log-group-name",
             "--filter-pattern", "--start-time", "--time-period", "--granularity", "--metrics", "--group-by",
             "--parameter-filters", "--max-items", "--output-format", "--username", "--target", "--build-arg",
             "--tag", "--iidfile", "--since", "--container", "--timeout", "--freshness", "--order", "--property"}
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "--":
            continue
        if a.startswith("-"):
            if a in takes:
                skip = True
            continue
        out.append(a)
    return out

def jsonpath(tmpl, obj):
    def get(o, path):
        for part in re.findall(r"[^.\[\]]+|\[\d+\]|\[\*\]", path.replace("\\.", "\0")):
            part = part.replace("\0", ".")
            if part.startswith("["):
                o = o[int(part[1:-1])] if isinstance(o, list) and part != "[*]" else o
            else:
                o = (o or {}).get(part)
        return o
    def render(t, o):
        out = ""
        for m in re.finditer(r'\{range ([^}]*)\}(.*?)\{end\}|\{"((?:[^"\\]|\\.)*)"\}|\{([^}]*)\}|([^{]+)', t, re.S):
            if m.group(1):
                for it in get(o, m.group(1).rstrip("[*]").rstrip(".")) or []:
                    out += render(m.group(2), it)
            elif m.group(3) is not None:
                out += m.group(3).encode().decode("unicode_escape")
            elif m.group(4):
                v = get(o, m.group(4).lstrip("."))
                out += "" if v is None else (json.dumps(v) if isinstance(v, (dict, list)) else str(v))
            else:
                out += m.group(5)
        return out
    return render(tmpl, obj)

def pod(name, app, ns, restarts=0, phase="Running", reason=None, node="ip-10-0-1-23.eu-west-1.compute.internal"):
    cs = {"name": app, "ready": phase == "Running", "restartCount": restarts, "state": {"running": {}} if phase == "Running" else {"waiting": {"reason": "CrashLoopBackOff"}}}
    if reason:
        cs["lastState"] = {"terminated": {"reason": reason, "exitCode": 137}}
    return {"kind": "Pod", "metadata": {"name": name, "namespace": ns, "labels": {"app": app}, "creationTimestamp": "2024-01-15T08:00:00Z"},
            "spec": {"nodeName": node, "containers": [{"name": app}]}, "status": {"phase": phase, "containerStatuses": [cs]}}

def world(ns):
    pods = [pod("web-7d4b9c-x2x9z", "web", ns), pod("web-7d4b9c-h7k2l", "web", ns),
            pod("api-6c9f8d7b5-k2x4q", "api", ns, 4, "Running", "OOMKilled"), pod("api-6c9f8d7b5-p9d2m", "api", ns),
            pod("report-28412-abcde", "report", ns, 0, "Pending")]
    deps = [{"kind": "Deployment", "metadata": {"name": n, "namespace": ns},
             "spec": {"replicas": r, "template": {"spec": {"containers": [{"name": n, "image": f"registry.example.com/team/app:{t}"}]}}}}
            for n, r, t in (("web", 2, "1.4.3"), ("api", 2, "1.4.2"), ("worker", 1, "1.4.2"))]
    events = {"items": [
        {"lastTimestamp": "2024-01-15T10:01:00Z", "type": "Warning", "reason": "BackOff", "count": 12, "message": "Back-off restarting failed container",
         "involvedObject": {"kind": "Pod", "name": "api-6c9f8d7b5-k2x4q"}},
        {"lastTimestamp": "2024-01-15T10:02:00Z", "type": "Warning", "reason": "FailedScheduling", "count": 3,
         "message": "0/3 nodes are available: 3 Insufficient cpu.", "involvedObject": {"kind": "Pod", "name": "report-28412-abcde"}}]}
    return pods, deps, events

def kubectl():
    ns = opt(["-n", "--namespace"], "default")
    out = opt(["-o", "--output"], "")
    pos = positionals()
    sub = pos[0] if pos else ""
    pods, deps, events = world(ns)
    if sub == "get":
        kind = pos[1] if len(pos) > 1 else ""
        name = pos[2] if len(pos) > 2 else None
        if "/" in kind:
            kind, name = kind.split("/", 1)
        sel = opt(["-l", "--selector"])
        fs = opt(["--field-selector"]) or ""
        if kind.startswith("pod"):
            items = [p for p in pods if not sel or sel == "app=" + p["metadata"]["labels"]["app"]]
            for cond in filter(None, fs.split(",")):
                k, v = cond.split("=", 1)
                if k == "status.phase":
                    items = [p for p in items if p["status"]["phase"] == v]
                if k == "spec.nodeName":
                    items = [p for p in items if p["spec"]["nodeName"] == v]
        elif kind.startswith("deployment"):
            items = deps
        elif kind.startswith("event"):
            items = events["items"]
            for cond in filter(None, fs.split(",")):
                k, v = cond.split("=", 1)
                if k == "type":
                    items = [e for e in items if e["type"] == v]
                if k == "involvedObject.name":
                    items = [e for e in items if e["involvedObject"]["name"] == v]
                if k == "involvedObject.kind":
                    items = [e for e in items if e["involvedObject"]["kind"] == v]
        elif kind == "node":
            items = [{"kind": "Node", "metadata": {"name": name}, "spec": {"taints": [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}]},
                      "status": {"conditions": [{"type": t, "status": s, "reason": "KubeletReady" if t == "Ready" else "OK", "lastTransitionTime": "2024-01-10T00:00:00Z"}
                                                for t, s in (("Ready", "True"), ("MemoryPressure", "False"), ("DiskPressure", "False"))],
                                 "allocatable": {"cpu": "3920m", "memory": "15Gi", "pods": "58"},
                                 "nodeInfo": {"kubeletVersion": "v1.29.1", "kernelVersion": "6.1.0"}}}]
        elif kind == "secret":
            items = [{"kind": "Secret", "type": "Opaque", "metadata": {"name": name, "creationTimestamp": "2023-10-01T00:00:00Z", "annotations": {}},
                      "data": {"DATABASE_URL": "cG9zdGdyZXM6Ly8uLi4=", "PASSWORD": "aHVudGVyMg=="}}]
        elif kind == "configmap":
            items = [{"kind": "ConfigMap", "metadata": {"name": name},
                      "data": {"app.yaml": "service:\n  name: app\n  port: 8080\n  replicas: 4\nfeatures:\n  login: true\n  beta: true\n"}}]
        else:
            items = []
        if name and kind.startswith("deployment"):
            items = [d for d in items if d["metadata"]["name"] == name] or sys.exit(f'Error from server (NotFound): deployments.apps "{name}" not found')
        single = name is not None and kind in ("node", "secret", "configmap") or (name and kind.startswith("deployment"))
        obj = items[0] if single else {"kind": "List", "items": items}
        if out == "json":
            print(json.dumps(obj))
        elif out.startswith("jsonpath="):
            sys.stdout.write(jsonpath(out[len("jsonpath="):].strip("'"), obj))
        else:
            for it in (obj["items"] if "items" in obj else [obj]):
                print(it.get("metadata", {}).get("name", it.get("reason", "")), "1/1 Running 0 2h")
    elif sub == "describe":
        print(f"Name:         {pos[-1]}\nNamespace:    {ns}\nStatus:       Running\nLast State:   Terminated\n  Reason:     OOMKilled\n  Exit Code:  137\nLimits:\n  memory:     512Mi")
    elif sub == "logs":
        for i in range(5):
            print(f"[pod/{pos[-1]}/app] 2024-01-15T10:0{i}:00Z INFO request ok")
        print(f"[pod/{pos[-1]}/app] 2024-01-15T10:05:00Z ERROR java.lang.OutOfMemoryError: Java heap space")
    elif sub == "rollout":
        what = pos[2] if len(pos) > 2 else "deployment/x"
        if pos[1] == "status":
            print(f'deployment "{what.split("/")[-1]}" successfully rolled out')
        elif pos[1] == "history":
            print(f"{what}\nREVISION  CHANGE-CAUSE\n7         <none>\n8         <none>")
        else:
            print(f"deployment.apps/{what.split('/')[-1]} restarted")
    elif sub == "top" and pos[1:2] == ["nodes"]:
        print("NAME                                      CPU(cores)   CPU%   MEMORY(bytes)   MEMORY%\nip-10-0-1-23.eu-west-1.compute.internal   1210m        30%    9120Mi          61%")
    elif sub == "top":
        print("NAME                  CPU(cores)   MEMORY(bytes)")
        for p in pods:
            print(f"{p['metadata']['name']:21} 120m         310Mi")
    elif sub in ("annotate", "scale"):
        print(f"deployment.apps/{pos[1].split('/')[-1]} {sub}d")
    else:
        sys.exit(f"fake kubectl: {sub} not modelled")

def helm():
    pos = positionals()
    sub = pos[0] if pos else ""
    if sub == "history":
        print(json.dumps([{"revision": r, "updated": f"2024-01-1{r}T10:00:00.0Z", "status": s, "chart": "web-0.7.0", "app_version": v, "description": d}
                          for r, s, v, d in ((3, "superseded", "1.4.1", "Upgrade complete"), (4, "deployed", "1.4.2", "Upgrade complete"))]))
    elif sub == "get":
        print("replicaCount: 6\nimage:\n  tag: \"1.4.1\"\n")
    elif sub == "lint":
        print("==> Linting charts/web\n1 chart(s) linted, 0 chart(s) failed")
    elif sub == "template":
        tag = (opt(["--set-string"]) or "image.tag=latest").split("=", 1)[1]
        print(f"---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n        - name: web\n          image: \"registry.example.com/team/app:{tag}\"")
    else:
        sys.exit(f"fake helm: {sub} not modelled")

def docker():
    pos = positionals()
    fmt = opt(["--format", "-f"]) or ""
    if pos[:2] == ["container", "inspect"] or pos[:1] == ["inspect"]:
        print(json.dumps({"State": {"Status": "running", "Restarting": False, "StartedAt": "2024-01-15T08:00:00Z",
                                    "Health": {"Status": "unhealthy", "Log": [{"Start": "2024-01-15T10:00:00Z", "ExitCode": 1, "Output": "curl: (7) connect refused\n"}]}},
                          "RestartCount": 2, "Config": {"Image": "registry.example.com/team/app:1.4.2"}}))
    elif pos[:2] == ["image", "ls"]:
        if "--quiet" in argv:
            print("sha256:aaa\nsha256:bbb")
        else:
            for repo, tag, size in (("registry.example.com/team/app", "1.4.2", "412MB"), ("registry.example.com/team/app", "1.4.1", "1.2GB")):
                print(json.dumps({"Repository": repo, "Tag": tag, "CreatedSince": "5 days ago", "Size": size}))
    elif pos[:1] == ["build"]:
        iid = opt(["--iidfile"])
        if iid:
            open(iid, "w").write("sha256:0123456789abcdef")
        print("Successfully built 0123456789ab")
    elif pos[:2] == ["image", "inspect"]:
        print({"{{.Size}}": "412000000", "{{index .RepoDigests 0}}": "registry.example.com/team/app@sha256:feed"}.get(fmt, "sha256:0123 2024-01-15T08:00:00Z"))
    elif pos[:1] == ["login"]:
        if SECRET in sys.stdin.read():
            note("login --password-stdin")
        print("Login Succeeded")
    elif pos[:1] in (["tag"], ["push"], ["logout"]):
        pass
    elif pos[:2] == ["system", "df"]:
        print("Images: 3.1GB (1.2GB reclaimable)\nContainers: 20MB (0B reclaimable)")
    elif pos[:2] == ["image", "prune"]:
        print("Deleted Images:\nsha256:aaa\n\nTotal reclaimed space: 1.2GB")
    elif pos[:1] == ["compose"]:
        print("worker-1  | 2024-01-15T10:00:00Z Traceback (most recent call last):\nworker-1  | 2024-01-15T10:00:01Z job done")
    elif pos[:1] == ["ps"]:
        print("app-web-1\tUp 2 hours (healthy)\tregistry.example.com/team/app:1.4.2\napp-worker-1\tUp 2 hours\tregistry.example.com/team/app:1.4.2")
    elif pos[:1] == ["logs"]:
        print("2024-01-15T10:00:00Z GET /healthz 200\n2024-01-15T10:00:05Z GET /healthz 503")
    elif pos[:1] == ["exec"]:
        print("[X]  orders.0001_initial\n[X]  orders.0002_orders\n[ ]  orders.0003_add_index")
    else:
        sys.exit(f"fake docker: {pos[:2]} not modelled")

def psql():
    if os.environ.get("PGPASSWORD") == SECRET:
        note("PGPASSWORD")
    sql = opt(["-c", "--command"]) or ""
    f = opt(["-f", "--file"])
    if f:
        sql += open(f).read()
    if not sys.stdin.isatty():
        sql += sys.stdin.read()
    tuples = "--tuples-only" in argv or "-t" in argv
    if "schema_migrations" in sql:
        print("20240101120000\n20240108090000\n20240115103000")
    elif "pg_stat_replication" in sql:
        print("replica-a\t10.0.2.11\tstreaming\t0\t1024\nreplica-b\t10.0.2.12\tstreaming\t3\t73400320")
    elif "--csv" in argv:
        data = "day,revenue,payments\n2024-01-01,1234.50,12\n2024-01-02,980.00,9\n"
        o = opt(["-o", "--output"])
        open(o, "w").write(data) if o else sys.stdout.write(data)
    else:
        print(" column | value\n--------+-------\n a      | 1" if not tuples else "a\t1")

def pg_dump():
    if os.environ.get("PGPASSWORD") == SECRET:
        note("PGPASSWORD")
    f = opt(["-f", "--file"])
    text = "--\n-- PostgreSQL database dump\n--\nSET statement_timeout = 0;\n\nCREATE TABLE public.orders (\n    id bigint NOT NULL,\n    status text\n);\n"
    open(f, "w").write(text) if f else sys.stdout.write(text)

def aws():
    if os.environ.get("AWS_SECRET_ACCESS_KEY") == SECRET:
        note("AWS_SECRET_ACCESS_KEY")
    pos = positionals()
    key = " ".join(pos[:2])
    canned = {
        "s3api list-objects-v2": {"Contents": [{"Key": "reports/2024/01/a.csv", "Size": 2048, "LastModified": "2024-01-10T10:00:00+00:00"}]},
        "ec2 describe-instances": [["i-0abc", "m6i.large", "10.0.1.5", "eu-central-1a", "2024-01-01T10:00:00+00:00"]],
        "logs filter-log-events": {"events": [{"timestamp": 1705312800000, "logStreamName": "web/1", "message": "connection reset by peer\n"}]},
        "sts get-caller-identity": {"UserId": "AIDA...", "Account": "123456789012", "Arn": "arn:aws:iam::123456789012:user/readonly"},
        "ssm describe-parameters": {"Parameters": [{"Name": "/app/staging/db_host", "Type": "String", "Version": 3, "LastModifiedDate": "2024-01-10T10:00:00+00:00", "LastModifiedUser": "arn:aws:iam::1:user/alice"}]},
        "ce get-cost-and-usage": {"ResultsByTime": [{"TimePeriod": {"Start": m}, "Groups": [{"Keys": ["Amazon EC2"], "Metrics": {"UnblendedCost": {"Amount": a}}}]}
                                                    for m, a in (("2023-11-01", "1200.5"), ("2023-12-01", "1310.25"))]},
    }
    if key not in canned:
        sys.exit(f"fake aws: {key} not modelled")
    print(json.dumps(canned[key]))

def gcloud():
    pos = positionals()
    if pos[:3] == ["run", "services", "list"]:
        print(json.dumps([{"metadata": {"name": "checkout"}, "status": {"url": "https://checkout-abc.a.run.app", "latestReadyRevisionName": "checkout-00042",
                                                                     "traffic": [{"latestRevision": True, "percent": 100}]}}]))
    elif pos[:2] == ["logging", "read"]:
        print(json.dumps([{"timestamp": "2024-01-15T10:00:00.123Z", "severity": "ERROR", "textPayload": "upstream connect error"}]))
    else:
        sys.exit(f"fake gcloud: {pos[:3]} not modelled")

def redis_cli():
    if os.environ.get("REDISCLI_AUTH") == SECRET:
        note("REDISCLI_AUTH")
    pos = positionals()
    cmd = pos[0].upper() if pos else ""
    print({"LLEN": "12", "ZCARD": "1", "LINDEX": json.dumps({"id": "j1", "enqueued_at": 1705310000})}.get(cmd, ""))

def systemctl():
    pos = positionals()
    if pos[:1] == ["show"]:
        print("ActiveState=active\nSubState=running\nLoadState=loaded\nUnitFileState=enabled\nMainPID=812\n"
              "ExecMainStartTimestamp=Mon 2024-01-15 08:00:00 UTC\nNRestarts=0\nMemoryCurrent=73400320\nResult=success")
    elif pos[:1] == ["list-dependencies"]:
        print(f"{pos[-1]}\nmulti-user.target\ngraphical.target")
    elif pos[:1] == ["is-active"]:
        print("active")
    elif pos[:1] == ["restart"]:
        pass
    else:
        sys.exit(f"fake systemctl: {pos[:1]} not modelled")

{"kubectl": kubectl, "helm": helm, "docker": docker, "psql": psql, "pg_dump": pg_dump, "aws": aws,
 "gcloud": gcloud, "redis-cli": redis_cli, "systemctl": systemctl}[PROG]()
'''

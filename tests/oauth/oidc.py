"""A real OpenID Provider on loopback for the OAuth tests: panva's
``oidc-provider`` (OpenID Certified), pinned in ``tests/oauth/package.json``
and ``package-lock.json``, configured by ``tests/oauth/provider.mjs``.

`install` puts the locked packages (``npm ci``) into a cache outside the
clone, keyed by the lock files, as ``tests/interop`` does:
``$MCP_HARBOR_OAUTH_CACHE/<hash>`` or ``~/.cache/mcp-harbor/oauth/<hash>``.
`OIDCProvider.start` runs ``provider.mjs`` there with the ``node`` that
`suite_services.node_tools` finds, and its methods fetch real tokens over
HTTP the way clients do: client credentials, authorization code with PKCE
(the provider's development login and consent pages driven without a
browser), introspection. Nothing is mocked: every token is signed by the
provider with a key its JWKS publishes.

What the provider knows (provider.mjs):

* clients ``ci-bot``, ``ci-expired`` (JWTs already expired), ``ci-opaque``
  (opaque tokens) with grant ``client_credentials``, secret ``<id>-secret``;
  ``desktop`` and ``desktop-opaque``: public, authorization code + PKCE;
  ``harbor``: credentials only, for the resource server's introspection calls.
* resources (RFC 8707): any loopback URL with a port
  (``http://127.0.0.1:PORT/PATH``, see `OIDCProvider.resource_for`) and
  `OTHER_RESOURCE`; any other is ``invalid_target``. The token's ``aud`` is
  the resource asked for. Asking for none gives an opaque token without
  audience (the provider's own behaviour).
* scopes `SCOPES`; any other asked for is silently dropped (the provider's).
* claims: `DIRECTORY` gives users their ``groups`` and ``tenant``; a token
  request may override them for that one token, `OIDCProvider.claims` for a
  block (also for tokens the test's own OAuth client asks for).
* keys: one RS256 key signs; `OIDCProvider.rotate_keys` puts a new one first
  and keeps the previous one in the JWKS.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import http.cookiejar
import json
import os
import secrets
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from suite_services import NodeTools, ServiceMissing

__all__ = [
    "DIRECTORY",
    "OTHER_RESOURCE",
    "SCOPES",
    "OIDCProvider",
    "ProviderRefused",
    "install",
]

HERE = Path(__file__).resolve().parent
LOCK_FILES = ("package.json", "package-lock.json")
SCRIPT = "provider.mjs"

#: The scopes every resource grants.
SCOPES = ("read", "write", "deploy", "admin")
#: A resource the provider accepts besides loopback ones: "another server".
OTHER_RESOURCE = "https://other.example/mcp"
#: Users' (and clients') claims unless a token request overrides them; a
#: subject not listed gets neither ``groups`` nor ``tenant``.
DIRECTORY: Mapping[str, Mapping[str, Any]] = {
    "alice": {"groups": ["ops"], "tenant": "acme"},
    "bob": {"groups": ["dev"], "tenant": "acme"},
    "carol": {"groups": ["ops"], "tenant": "globex"},
}
#: The loopback redirect URI registered for the public clients; nothing
#: listens there, the code is read from the redirect itself.
REDIRECT_URI = "http://127.0.0.1:33418/callback"

_TIMEOUT = 10.0  # seconds, each HTTP request to the provider
_START_TIMEOUT = 30.0  # seconds, until the provider prints its issuer
_NPM_TIMEOUT = 900  # seconds, `npm ci`


class ProviderRefused(Exception):
    """The provider answered a request with an OAuth error (`error`, e.g.
    ``invalid_target``, and its `description`), or with something else
    than the flow expects; the text says which request."""

    def __init__(self, what: str, error: str, description: str = "") -> None:
        super().__init__(f"{what}: {error}" + (f" ({description})" if description else ""))
        self.error = error
        self.description = description


# ------------------------------------------------------------------ install


def cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the locked npm packages go: ``$MCP_HARBOR_OAUTH_CACHE`` or
    ``~/.cache/mcp-harbor/oauth``, then 16 hex digits of the lock files'
    hash (a changed lock file installs into a new folder)."""
    digest = hashlib.sha256()
    for name in LOCK_FILES:
        digest.update((HERE / name).read_bytes())
    root = environ.get("MCP_HARBOR_OAUTH_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "mcp-harbor" / "oauth"
    return base / digest.hexdigest()[:16]


def npm_ci_command(node: NodeTools) -> list[str]:
    """The install command `install` runs in the cache folder."""
    return [*node.npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"]


def install(node: NodeTools) -> Path:
    """The cache folder with ``oidc-provider`` installed from the lock file
    (``npm ci`` from the npm registry the first time, nothing after) and
    ``provider.mjs`` copied next to ``node_modules`` (ESM resolves packages
    from the script's folder).

    Concurrent sessions wait for each other on a lock file; the folder is
    marked installed only after ``npm ci`` succeeded, so an interrupted
    install is redone from scratch by the next one.

    Raises:
        ServiceMissing: ``npm ci`` failed; the text has the command, the
            folder and npm's output.
    """
    target = cache_dir()
    target.mkdir(parents=True, exist_ok=True)
    stamp = target / ".installed"
    with open(target.parent / f"{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists():
            for name in LOCK_FILES:
                shutil.copy2(HERE / name, target / name)
            # npm and its packages' scripts start `node` from PATH.
            env = {**os.environ, "PATH": f"{node.bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
            command = npm_ci_command(node)
            try:
                proc = subprocess.run(
                    command, cwd=target, env=env, capture_output=True, text=True,
                    timeout=_NPM_TIMEOUT,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                raise ServiceMissing(
                    f"`{' '.join(command)}` in {target} took over {_NPM_TIMEOUT} s: "
                    "is the npm registry reachable?"
                ) from None
            if proc.returncode != 0:
                raise ServiceMissing(
                    f"`{' '.join(command)}` in {target} failed (exit {proc.returncode}); run it "
                    f"there by hand to see why:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
                )
            stamp.write_text("ok\n")
        shutil.copy2(HERE / SCRIPT, target / SCRIPT)
    return target


# ----------------------------------------------------------------- provider


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Hand redirects back to the caller, which follows them by hand."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> None:
        return None


@dataclass(frozen=True)
class _Reply:
    status: int
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> dict[str, Any]:
        """The body as a JSON object.

        Raises:
            ProviderRefused: it is not one.
        """
        try:
            value = json.loads(self.body)
        except ValueError:
            value = self.body.decode(errors="replace")
        if not isinstance(value, dict):
            raise ProviderRefused("the provider's answer", "not a JSON object", repr(value)[:200])
        return value


class OIDCProvider:
    """A running ``provider.mjs``; build it with `start`. Its methods are
    safe to call from several threads (token requests are serialised); each
    waits at most 10 s per HTTP request."""

    #: The client-credentials client of the tests.
    client_id = "ci-bot"
    client_secret = "ci-bot-secret"
    #: The resource server's credentials for the introspection endpoint.
    introspection_client_id = "harbor"
    introspection_client_secret = "harbor-secret"
    #: The resources accepted besides loopback URLs (`resource_for`).
    resources: tuple[str, ...] = (OTHER_RESOURCE,)
    scopes: tuple[str, ...] = SCOPES
    redirect_uri = REDIRECT_URI

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        reports: BinaryIO,
        issuer: str,
        kid: str,
        claims_file: Path,
        log: Path,
    ) -> None:
        self._proc = proc
        self._reports = reports
        self._claims_file = claims_file
        self._log = log
        self._lock = threading.RLock()
        self._overrides: dict[str, Mapping[str, Any]] = {}
        self.issuer = issuer
        #: The ``kid`` of the key that signs now.
        self.kid = kid
        self.jwks_url = f"{issuer}/jwks"
        self.token_url = f"{issuer}/token"
        self.introspection_url = f"{issuer}/token/introspection"
        self.revocation_url = f"{issuer}/token/revocation"
        self.authorization_url = f"{issuer}/auth"
        self.discovery_url = f"{issuer}/.well-known/openid-configuration"

    # ------------------------------------------------------------ lifecycle

    @classmethod
    @contextlib.contextmanager
    def start(cls, folder: Path, node: NodeTools, workdir: Path) -> Iterator[OIDCProvider]:
        """Run ``provider.mjs`` of `folder` (an `install` folder) with
        `node`, its claims file and ``provider.log`` in `workdir`; yield it
        once it listens, and stop it on leaving (SIGTERM, SIGKILL after
        10 s), also when the body raised or was cancelled.

        Raises:
            ServiceMissing: it exited or printed no issuer within 30 s; the
                text has its log.
        """
        claims_file = workdir / "claims.json"
        _write_json(claims_file, DIRECTORY)
        log = workdir / "provider.log"
        read_end, write_end = os.pipe()
        env = {
            **os.environ,
            "CLAIMS_FILE": str(claims_file),
            "RESOURCES": ",".join(cls.resources),
            "SCOPES": " ".join(cls.scopes),
            "REPORT_FD": str(write_end),
        }
        reports = os.fdopen(read_end, "rb", buffering=0)
        try:
            with open(log, "wb") as out:
                proc = subprocess.Popen(
                    [str(node.node), SCRIPT], cwd=folder, env=env, pass_fds=(write_end,),
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                )  # fmt: skip
        finally:
            os.close(write_end)  # the provider's exit then ends the pipe
        try:
            try:
                first = _read_report(reports, _START_TIMEOUT)
            except ServiceMissing as exc:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(2)
                status = "still running" if proc.returncode is None else f"exit {proc.returncode}"
                text = log.read_text(errors="replace")[-3000:]
                raise ServiceMissing(
                    f"{node.node} {folder / SCRIPT} ({status}): {exc} (a broken install? remove "
                    f"{folder} and re-run to reinstall); its log {log}:\n{text}"
                ) from None
            yield cls(proc, reports, first["issuer"], first["kid"], claims_file, log)
        finally:
            if proc.poll() is None:
                proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
            reports.close()

    def rotate_keys(self) -> str:
        """Rotate the signing keys (SIGHUP): a new key signs from now on,
        the previous one stays in the JWKS for verification, the one
        before it is dropped. Returns the new ``kid`` (also `kid`) once
        the new key signs.

        Raises:
            ServiceMissing: the provider did not confirm within 30 s.
        """
        with self._lock:
            self._proc.send_signal(signal.SIGHUP)
            try:
                self.kid = str(_read_report(self._reports, _START_TIMEOUT)["rotated"])
            except ServiceMissing as exc:
                raise ServiceMissing(
                    f"the OpenID Provider did not rotate its keys: {exc}; its log {self._log}:\n"
                    f"{self.log[-2000:]}"
                ) from None
            return self.kid

    @property
    def log(self) -> str:
        """What the provider wrote on stderr so far (warnings, errors)."""
        return self._log.read_text(errors="replace")

    # ------------------------------------------------------------ addresses

    @staticmethod
    def resource_for(port: int, path: str = "/mcp") -> str:
        """The canonical loopback resource URL of a server on `port`,
        ``http://127.0.0.1:PORT/mcp``: the provider accepts it as a
        resource indicator, so tokens asked for it carry it as ``aud``."""
        if not path.startswith("/"):
            raise ValueError(f"path must start with '/': {path!r}")
        return f"http://127.0.0.1:{port}{path}"

    def jwks(self) -> dict[str, Any]:
        """The provider's JWKS as it publishes it now."""
        return self._request(self.jwks_url).json()

    def metadata(self) -> dict[str, Any]:
        """The provider's OpenID discovery document."""
        return self._request(self.discovery_url).json()

    # --------------------------------------------------------------- tokens

    def client_credentials_token(
        self,
        client: str = "ci-bot",
        scope: str = "read deploy",
        resource: str | None = None,
        *,
        groups: Sequence[str] | None = None,
        tenant: str | None = None,
    ) -> str:
        """An access token for `client` (grant ``client_credentials``,
        secret ``<client>-secret``) with `scope` for `resource`: a JWT
        (RS256, ``typ: at+jwt``) with ``sub`` and ``client_id`` = `client`,
        ``aud`` = `resource`, ``scope``, ``iss``, ``iat``, ``exp`` (10
        minutes), ``jti``; ``groups``/``tenant`` when given (or listed in
        `DIRECTORY` for `client`). `resource` None: an opaque token without
        audience.

        Raises:
            ProviderRefused: the provider refused (``invalid_target``: an
                unknown resource; ``invalid_client``; ``invalid_scope``).
        """
        with self.claims(client, groups=groups, tenant=tenant):
            return self._token(
                {"grant_type": "client_credentials", "scope": scope, "resource": resource},
                (client, f"{client}-secret"),
            )

    def expired_token(self, resource: str | None = None, scope: str = "read deploy") -> str:
        """A JWT like `client_credentials_token`'s, really signed with the
        current key, of client ``ci-expired``, whose ``iat`` is two hours
        and ``exp`` one hour in the past."""
        return self.client_credentials_token("ci-expired", scope, resource)

    def auth_code_token(
        self,
        user: str = "alice",
        scope: str = "read deploy",
        resource: str | None = None,
        *,
        groups: Sequence[str] | None = None,
        tenant: str | None = None,
        client: str = "desktop",
    ) -> str:
        """An access token for `user` through the public client `client`
        (authorization code + PKCE S256): the authorization request, the
        provider's login page (any password), its consent page, the code
        from the redirect, and the token request, all over HTTP with the
        provider's cookies. A JWT with ``sub`` = `user`, ``client_id`` =
        `client`, ``aud`` = `resource`, the granted `scope`, and the user's
        ``groups``/``tenant`` (`DIRECTORY`, or these arguments).

        Raises:
            ProviderRefused: the provider refused a step, or a step did not
                answer as the flow expects.
        """
        with self.claims(user, groups=groups, tenant=tenant):
            return self._auth_code(user, scope, resource, client)

    def opaque_token(
        self,
        user: str | None = None,
        scope: str = "read deploy",
        resource: str | None = None,
        *,
        groups: Sequence[str] | None = None,
        tenant: str | None = None,
    ) -> str:
        """An opaque access token (not a JWT: only `introspect` tells what
        it is) for `resource`: client credentials of ``ci-opaque`` when
        `user` is None, else `user`'s through ``desktop-opaque`` as
        `auth_code_token` does. Its introspection answer has ``active``,
        ``sub``, ``client_id``, ``aud``, ``scope``, ``iss``, ``exp``,
        ``iat``, ``token_type`` and the ``groups``/``tenant`` claims."""
        if user is None:
            return self.client_credentials_token(
                "ci-opaque", scope, resource, groups=groups, tenant=tenant
            )
        return self.auth_code_token(
            user, scope, resource, groups=groups, tenant=tenant, client="desktop-opaque"
        )

    def introspect(self, token: str) -> dict[str, Any]:
        """The introspection answer (RFC 7662) for `token`, asked with the
        resource server's credentials (``harbor``): ``{"active": false}``
        for a token that is unknown, expired or revoked."""
        reply = self._request(
            self.introspection_url,
            {"token": token},
            auth=(self.introspection_client_id, self.introspection_client_secret),
        )
        if reply.status != 200:
            raise _refusal("introspection", reply)
        return reply.json()

    def revoke(self, token: str, client: str = "ci-opaque") -> None:
        """Revoke `token` (RFC 7009) as the confidential `client` that got it."""
        reply = self._request(
            self.revocation_url, {"token": token}, auth=(client, f"{client}-secret")
        )
        if reply.status != 200:
            raise _refusal("revocation", reply)

    # ------------------------------------------------------------ internals

    @contextlib.contextmanager
    def claims(
        self, subject: str, *, groups: Sequence[str] | None = None, tenant: str | None = None
    ) -> Iterator[None]:
        """Inside the block, tokens for `subject` (a user, or a client for
        client credentials) carry these ``groups``/``tenant`` instead of
        `DIRECTORY`'s (None: keep that claim's), also tokens that a client
        of the test (the SDK's OAuth support) asks for. The claims of before
        the block are back on leaving, also on an error or cancellation.
        Blocks of the same thread nest; other threads' token requests wait
        for the block to end."""
        with self._lock:
            before = self._overrides
            entry = dict(before.get(subject, DIRECTORY.get(subject, {})))
            if groups is not None:
                entry["groups"] = list(groups)
            if tenant is not None:
                entry["tenant"] = tenant
            self._overrides = {**before, subject: entry}
            _write_json(self._claims_file, {**DIRECTORY, **self._overrides})
            try:
                yield
            finally:
                self._overrides = before
                _write_json(self._claims_file, {**DIRECTORY, **before})

    def _token(self, form: Mapping[str, str | None], auth: tuple[str, str] | None) -> str:
        reply = self._request(self.token_url, form, auth=auth)
        if reply.status != 200:
            raise _refusal("the token request", reply)
        token = reply.json().get("access_token")
        if not isinstance(token, str):
            raise ProviderRefused("the token request", "no access_token", reply.body.decode()[:300])
        return token

    def _auth_code(self, user: str, scope: str, resource: str | None, client: str) -> str:
        jar = http.cookiejar.CookieJar()
        verifier = _b64url(secrets.token_bytes(32))
        challenge = _b64url(hashlib.sha256(verifier.encode("ascii")).digest())
        query = {
            "client_id": client,
            "response_type": "code",
            "redirect_uri": self.redirect_uri,
            "scope": f"openid {scope}",
            "resource": resource,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": secrets.token_urlsafe(8),
        }
        url = f"{self.authorization_url}?{_form(query)}"
        url = self._redirected("the authorization request", url, None, jar)
        answers = {"login": {"prompt": "login", "login": user, "password": "any"},
                   "consent": {"prompt": "consent"}}  # fmt: skip
        for step in ("login", "consent"):
            if not url.startswith(f"{self.issuer}/interaction/"):
                raise ProviderRefused(f"the {step} step", "unexpected redirect", url)
            url = self._redirected(f"the {step} page", url, answers[step], jar)
            # /interaction/UID -> /auth/UID -> the next page or the client.
            url = self._redirected(f"the {step} resume", url, None, jar)
        if not url.startswith(self.redirect_uri):
            raise ProviderRefused("the consent step", "unexpected redirect", url)
        params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
        if "code" not in params:
            raise ProviderRefused(
                "the authorization request", params.get("error", "no code"),
                params.get("error_description", ""),
            )  # fmt: skip
        if params.get("state") != query["state"]:
            raise ProviderRefused("the authorization response", "state mismatch", url)
        form = {
            "grant_type": "authorization_code",
            "client_id": client,
            "code": params["code"],
            "redirect_uri": self.redirect_uri,
            "code_verifier": verifier,
            "resource": resource,
        }
        return self._token(form, None)

    def _redirected(
        self,
        what: str,
        url: str,
        form: Mapping[str, str | None] | None,
        jar: http.cookiejar.CookieJar,
    ) -> str:
        """GET `url` (POST `form`) and return where its 3xx points."""
        reply = self._request(url, form, jar=jar)
        location = reply.headers.get("location")
        if reply.status not in (302, 303) or not location:
            raise _refusal(what, reply)
        return urllib.parse.urljoin(url, location)

    def _request(
        self,
        url: str,
        form: Mapping[str, str | None] | None = None,
        *,
        auth: tuple[str, str] | None = None,
        jar: http.cookiejar.CookieJar | None = None,
    ) -> _Reply:
        handlers: list[urllib.request.BaseHandler] = [_NoRedirect()]
        if jar is not None:
            handlers.append(urllib.request.HTTPCookieProcessor(jar))
        opener = urllib.request.build_opener(*handlers)
        data = None if form is None else _form(form).encode("ascii")
        request = urllib.request.Request(url, data=data)
        if auth is not None:
            pair = ":".join(urllib.parse.quote(part, safe="") for part in auth)
            request.add_header("Authorization", f"Basic {_b64(pair)}")
        try:
            with opener.open(request, timeout=_TIMEOUT) as response:
                return _Reply(response.status, _headers(response.headers), response.read())
        except urllib.error.HTTPError as exc:
            with exc:
                return _Reply(exc.code, _headers(exc.headers), exc.read())
        except (urllib.error.URLError, OSError) as exc:
            state = "running" if self._proc.poll() is None else f"exited {self._proc.returncode}"
            raise ServiceMissing(
                f"the OpenID Provider at {self.issuer} ({state}) did not answer {url}: {exc}; "
                f"its log {self._log}:\n{self.log[-2000:]}"
            ) from None


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def _form(fields: Mapping[str, str | None]) -> str:
    return urllib.parse.urlencode({k: v for k, v in fields.items() if v is not None})


def _headers(message: Any) -> dict[str, str]:
    return {str(k).lower(): str(v) for k, v in message.items()}


def _refusal(what: str, reply: _Reply) -> ProviderRefused:
    try:
        body = reply.json()
    except ProviderRefused:
        return ProviderRefused(
            what, f"HTTP {reply.status}", reply.body.decode(errors="replace")[:300]
        )
    return ProviderRefused(
        what, str(body.get("error", f"HTTP {reply.status}")), str(body.get("error_description", ""))
    )


def _write_json(path: Path, value: Mapping[str, Any]) -> None:
    """Replace `path` atomically: the provider never reads half a file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w") as out:
        json.dump(value, out)
    os.replace(tmp, path)


def _read_report(reports: BinaryIO, timeout: float) -> dict[str, Any]:
    """The next JSON line ``provider.mjs`` writes to its report pipe.

    Raises:
        ServiceMissing: it exited (the pipe ended), wrote something else,
            or nothing within `timeout` seconds.
    """
    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([reports], [], [], max(left, 0))
        if not ready:
            raise ServiceMissing(f"no report within {timeout} s")
        chunk = reports.read(1)  # unbuffered: never reads past the line
        if not chunk:
            raise ServiceMissing("it exited")
        line += chunk
    try:
        value = json.loads(line)
    except ValueError:
        raise ServiceMissing(f"it reported {line[:200]!r}, not a JSON line") from None
    if not isinstance(value, dict):
        raise ServiceMissing(f"it reported {line[:200]!r}, not a JSON object")
    return value

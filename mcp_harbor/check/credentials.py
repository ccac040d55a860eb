"""Where a program takes a credential: the places a `secrets:` value may go.

A secret may reach a program only at a place this table (or the secret's own
``programs:`` in the export) names for it (docs/security.md, section 9):
the value of an option the program sends and never prints (``curl -H``), an
environment variable it reads as a credential (``PGPASSWORD`` for psql), or
its standard input read as one (``docker login --password-stdin``). Any
other place, in any other program, may print it (an error quoting an
argument, a language printing its environment, a filter copying its input),
and is refused (H010). Options that print the request, credentials
included (``curl -v``), take the place away.

One entry per program, each with a line saying where its facts come from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mcp_harbor.check._tree import without_pairs
from mcp_harbor.check.grammars import GRAMMARS

__all__ = [
    "CONTENT_BLIND",
    "CREDENTIALS",
    "Credentials",
    "credential_stores",
    "follows_redirects",
    "reads_credential_file",
    "reads_credential_file_env",
    "store_places",
    "takes_credential",
]


@dataclass(frozen=True, slots=True)
class Credentials:
    """The places `program` takes a credential, and where the facts are from."""

    source: str
    #: options whose value it sends (a header, a user, a password)
    options: frozenset[str] = frozenset()
    #: its operands are sent too (a URL, a webhook address)
    operands: bool = False
    #: environment variables it reads as a credential
    env: frozenset[str] = frozenset()
    #: standard input read as a credential (or only digested), when one of
    #: these words is on the command line (empty: always)
    stdin_with: frozenset[str] | None = None
    #: the entry holds only when one of these words is on the command line
    #: (a subcommand: ``docker login``)
    only_with: frozenset[str] = frozenset()
    #: options that print the request, credentials included
    printing: frozenset[str] = frozenset()
    #: options whose value is a file holding credentials it reads and never
    #: prints (``curl -K``, ``--netrc-file``, ``ssh -i``), and whether a
    #: ``@FILE`` value of its credential options reads one (``curl -H @f``)
    file_options: frozenset[str] = frozenset()
    at_files: bool = False
    #: variables whose value is such a file (libpq's ``PGPASSFILE``)
    file_env: frozenset[str] = frozenset()
    #: options whose value is a setting (``wget -e debug=on``), and the
    #: settings known to print nothing of the request: any other one may
    #: turn printing on, and takes the place away
    setting_options: frozenset[str] = frozenset()
    quiet_settings: frozenset[str] = frozenset()
    #: files (under the home folder) where it keeps the credential it takes
    #: (``docker login``: ``.docker/config.json``): after it, they hold it
    stores: frozenset[str] = frozenset()
    #: options and variables whose value is where it keeps it instead
    #: (``docker --config DIR``, ``kubectl --kubeconfig FILE``), and the
    #: file's name inside that folder ("": the value is the file)
    store_options: frozenset[str] = frozenset()
    store_name: str = ""
    #: it keeps the credential only with one of these words (``kubectl
    #: config set-credentials``; empty: whenever it takes one)
    stores_with: frozenset[str] = frozenset()
    #: options that make it follow redirects, sending the credential where
    #: the server's answer says (``curl -L``; ``*``: it does by default),
    #: and the words that keep it from following (``--max-redirect=0``)
    follows: frozenset[str] = frozenset()
    stays: frozenset[str] = frozenset()
    #: its default store (`stores`) is plain text that its own commands
    #: print to any export (``kubectl config view --flatten``): keeping a
    #: credential there, not where `store_options` say, is printing it
    shared_store: bool = False
    #: command lines that print the credential it takes, each the words it
    #: has (``gh auth token``); a word ``!-x`` says option ``-x`` is not
    #: among them (``vault token lookup`` without ``-accessor`` prints the
    #: token's id, the token)
    echoes: tuple[tuple[str, ...], ...] = ()


def _c(
    source: str,
    options: str = "",
    *,
    operands: bool = False,
    env: str = "",
    stdin_with: str | None = None,
    only_with: str = "",
    printing: str = "",
    file_options: str = "",
    at_files: bool = False,
    file_env: str = "",
    setting_options: str = "",
    quiet_settings: str = "",
    stores: str = "",
    store_options: str = "",
    store_name: str = "",
    stores_with: str = "",
    follows: str = "",
    stays: str = "",
    shared_store: bool = False,
    echoes: str = "",
) -> Credentials:
    return Credentials(
        source,
        frozenset(options.split()),
        operands,
        frozenset(env.split()),
        frozenset(stdin_with.split()) if stdin_with is not None else None,
        frozenset(only_with.split()),
        frozenset(printing.split()),
        frozenset(file_options.split()),
        at_files,
        frozenset(file_env.split()),
        frozenset(setting_options.split()),
        frozenset(quiet_settings.split()),
        frozenset(stores.split()),
        frozenset(store_options.split()),
        store_name,
        frozenset(stores_with.split()),
        frozenset(follows.split()),
        frozenset(stays.split()),
        shared_store,
        echoes=tuple(tuple(e.split()) for e in echoes.split(",") if e.strip()),
    )


_DIGEST = "prints a digest of its input, never the input (coreutils 9.1 manual)"

CREDENTIALS: dict[str, Credentials] = {
    "curl": _c(
        "curl(1) 7.88: headers, user, bearer, form and data values and the URL are sent "
        "to the server; -v, --trace, -w and --libcurl print the request",
        "-H --header -u --user --oauth2-bearer --proxy-user -U --proxy-header -d --data "
        "--data-raw --data-binary --data-urlencode -F --form --form-string -b --cookie",
        operands=True,
        stdin_with="",
        printing="-v --verbose --trace --trace-ascii -w --write-out --libcurl",
        file_options="-K --config --netrc-file",
        at_files=True,
        # -L sends custom headers (-H) to every host it is redirected to; a
        # config file (-K) may say location or location-trusted
        follows="-L --location --location-trusted -K --config",
    ),
    "wget": _c(
        "wget(1) 1.21: header, user and password values are sent; the URL is printed in its "
        "progress lines (so it is no place for a secret); -d prints the request, and "
        "--warc-file keeps it (headers included) in a WARC file; --config reads a wgetrc "
        "(its http_password, header…) and never prints it",
        "--header --user --password --http-user --http-password --post-data --body-data",
        printing="-d --debug --warc-file",
        file_options="--config",
        # it follows up to 20 redirects, --header included
        follows="*",
        stays="--max-redirect=0",
        # wget(1) 1.21 "Wgetrc Commands": -e runs one; these print nothing
        # of the request (debug, verbose, save_headers… would)
        setting_options="-e --execute",
        quiet_settings="robots tries timeout readtimeout connecttimeout dnstimeout wait "
        "waitretry randomwait retryconnrefused checkcertificate maxredirect limitrate "
        "useragent contentdisposition timestamping noclobber quota cache compression",
    ),
    "git": _c(
        "git 2.39 git-config(1): over HTTP(S) git follows the server's redirects of its "
        "first request (http.followRedirects=initial), http.extraHeader and a URL's "
        "user:token included; false keeps them to the host asked",
        follows="*",
        stays="http.followRedirects=false",
    ),
    "docker": _c(
        "docker login(1): --password-stdin reads the password on stdin, -p takes it; it "
        "keeps it (base64) in ~/.docker/config.json, or config.json of docker --config DIR "
        "(DOCKER_CONFIG)",
        "-p --password",
        stdin_with="--password-stdin",
        only_with="login",
        stores=".docker/config.json",
        store_options="--config DOCKER_CONFIG",
        store_name="config.json",
    ),
    "helm": _c(
        "helm registry login: --password-stdin reads the password on stdin; it keeps it in "
        "~/.config/helm/registry/config.json",
        "-p --password",
        stdin_with="--password-stdin",
        only_with="login",
        stores=".config/helm/registry/config.json",
    ),
    "gh": _c(
        "gh(1) 2.x: GH_TOKEN/GITHUB_TOKEN authenticate; auth login --with-token reads stdin "
        "and keeps the token in ~/.config/gh/hosts.yml",
        env="GH_TOKEN GITHUB_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN",
        stdin_with="--with-token",
        stores=".config/gh/hosts.yml",
        stores_with="login",  # gh auth login keeps it; GH_TOKEN is never written
        echoes="auth token, auth status --show-token, auth status -t, auth git-credential",
        printing="--verbose",  # gh api --verbose prints the request, its headers too
    ),
    "kubectl": _c(
        "kubectl(1): --token is the bearer token sent to the API server; kubectl config "
        "set-credentials keeps it in the kubeconfig (--kubeconfig FILE, KUBECONFIG, "
        "~/.kube/config)",
        "--token",
        printing="--raw",  # kubectl config view --raw prints the credentials
        file_options="--kubeconfig",
        stores=".kube/config",
        store_options="--kubeconfig KUBECONFIG",
        stores_with="set-credentials",
        shared_store=True,
    ),
    **{
        program: _c(
            f"OpenSSH {program}(1): -i names the identity (private key) file it authenticates "
            "with and never prints",
            file_options="-i",
        )
        for program in ("ssh", "scp", "sftp")
    },
    **{
        program: _c(
            f"{program}(1) 15 (libpq, Environment Variables, The Password File): PGPASSWORD "
            "is the password sent to the server; PGPASSFILE names a file of "
            "host:port:database:user:password lines it reads the password from",
            env="PGPASSWORD",
            file_env="PGPASSFILE",
        )
        for program in (
            "psql",
            "pg_dump",
            "pg_dumpall",
            "pg_restore",
            "pg_isready",
            "createdb",
            "dropdb",
        )
    },
    **{
        program: _c(
            f"{program}(1) 8: MYSQL_PWD is the password sent to the server; "
            "--defaults-file and --defaults-extra-file name option files (user, password, "
            "host) it reads; --print-defaults prints the options they give",
            env="MYSQL_PWD",
            file_options="--defaults-file --defaults-extra-file",
            printing="--print-defaults",
        )
        for program in ("mysql", "mysqldump", "mysqladmin")
    },
    "redis-cli": _c(
        "redis-cli 7: REDISCLI_AUTH is the password sent with AUTH (-a takes it too)",
        "-a --pass",
        env="REDISCLI_AUTH",
    ),
    "glab": _c("glab 1.x: GITLAB_TOKEN authenticates its API requests", env="GITLAB_TOKEN"),
    **{
        program: _c(
            f"OpenLDAP 2.5 {program}(1): -w PASSWD, or the file -y FILE, is the simple bind's "
            "password, sent to the -H server and never printed; -d traces the protocol, the "
            "bind request among it",
            "-w",
            file_options="-y",
            printing="-d",
        )
        for program in ("ldapsearch", "ldapwhoami")
    },
    "argocd": _c(
        "argocd 2.x: ARGOCD_AUTH_TOKEN authenticates to the API server", env="ARGOCD_AUTH_TOKEN"
    ),
    "sentry-cli": _c("sentry-cli 2: SENTRY_AUTH_TOKEN authenticates", env="SENTRY_AUTH_TOKEN"),
    "twine": _c(
        "twine 4: TWINE_USERNAME and TWINE_PASSWORD authenticate the upload",
        env="TWINE_USERNAME TWINE_PASSWORD",
    ),
    "doctl": _c(
        "doctl 1.x: DIGITALOCEAN_ACCESS_TOKEN authenticates", env="DIGITALOCEAN_ACCESS_TOKEN"
    ),
    "heroku": _c("heroku CLI: HEROKU_API_KEY authenticates", env="HEROKU_API_KEY"),
    "aws": _c(
        "aws(1) 2: the AWS_* credential variables sign requests; --debug prints them, and "
        "configure get and configure export-credentials print the credentials",
        env="AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN",
        printing="--debug",
        echoes="configure get, configure export-credentials",
    ),
    "vault": _c(
        "vault(1) 1.15: VAULT_TOKEN authenticates requests; token lookup of its own token "
        "prints its id (the token), print token and login print it",
        env="VAULT_TOKEN",
        echoes="token lookup !-accessor, print token, login",
    ),
    "npm": _c(
        "npm(1) 9: NPM_TOKEN/NODE_AUTH_TOKEN are read through .npmrc",
        env="NPM_TOKEN NODE_AUTH_TOKEN",
    ),
    "openssl": _c(
        "OpenSSL 3.0 openssl-dgst(1): the -hmac key (or -macopt key:…) keys the MAC it prints, "
        "and its input is only digested; it prints neither",
        "-hmac -macopt",
        stdin_with="",
        only_with="dgst",
    ),
    "sha256sum": _c(_DIGEST, stdin_with=""),
    "sha512sum": _c(_DIGEST, stdin_with=""),
    "sha1sum": _c(_DIGEST, stdin_with=""),
    "md5sum": _c(_DIGEST, stdin_with=""),
    "b2sum": _c(_DIGEST, stdin_with=""),
}


def _entry(program: str, words: Sequence[str | None]) -> Credentials | None:
    entry = CREDENTIALS.get(program)
    if entry is None:
        return None
    if entry.only_with and not entry.only_with & {w for w in words if w is not None}:
        return None
    kept = _without_safe_formats(words)
    written = {(w or "").split("=", 1)[0] for w in kept}
    # -fsSv: each letter of a cluster of short options is one
    letters = {f"-{c}" for w in kept if w and w[:1] == "-" and w[:2] != "--" for c in w[1:]}
    if entry.printing & (written | letters):
        return None  # it prints the request: no place takes a credential
    if any(_echoes(pattern, words) for pattern in entry.echoes):
        return None  # gh auth token: it prints the credential itself
    if entry.setting_options and not _quiet_settings(entry, words):
        return None  # wget -e debug=on: a setting that prints the request
    return entry


def _echoes(pattern: Sequence[str], words: Sequence[str | None]) -> bool:
    """`words` make the command line `pattern` (`Credentials.echoes`): each
    of its words is among them, and no ``!``-word's option is."""
    given = {(w or "").split("=", 1)[0] for w in words}
    return all((p[1:] not in given) if p.startswith("!") else (p in given) for p in pattern)


def credential_stores(program: str, words: Sequence[str | None]) -> frozenset[str]:
    """The files (their paths under the home folder) where `program` with
    `words` keeps a credential it takes (empty: none)."""
    entry = _entry(program, words)
    if entry is None or (entry.stores_with and not entry.stores_with & set(words)):
        return frozenset()
    return entry.stores


def follows_redirects(program: str, words: Sequence[str | None]) -> bool:
    """`program` with the literal `words` follows redirects, sending the
    credential it takes where the server's answer says."""
    entry = _entry(program, words)
    if entry is None or not entry.follows:
        return False
    given = {w for w in words if w is not None}
    if given & entry.stays:
        return False
    letters = {f"-{c}" for w in given if w[:1] == "-" and w[:2] != "--" for c in w[1:]}
    return "*" in entry.follows or bool((given | letters) & entry.follows)


def store_places(program: str, words: Sequence[str | None]) -> tuple[frozenset[str], str, bool]:
    """The options and variables whose value is where `program` with
    `words` keeps a credential it takes, the file's name inside that
    folder ("": the value is the file), and whether its default store is
    shared plain text (`Credentials.shared_store`); empty when it keeps
    none."""
    entry = _entry(program, words)
    if entry is None or (entry.stores_with and not entry.stores_with & set(words)):
        return frozenset(), "", False
    return entry.store_options, entry.store_name, entry.shared_store


def _quiet_settings(entry: Credentials, words: Sequence[str | None]) -> bool:
    """Every setting `words` give through `entry`'s setting options is one
    of its quiet ones (a setting the checker cannot read is not)."""
    for k, word in enumerate(words):
        value: str | None
        if word in entry.setting_options:
            value = words[k + 1] if k + 1 < len(words) else None
        elif word is not None and word.split("=", 1)[0] in entry.setting_options and "=" in word:
            value = word.split("=", 1)[1]
        elif (
            word is not None
            and word[:2] in entry.setting_options
            and not word.startswith("--")
            and len(word) > 2
        ):
            value = word[2:]  # -edebug=on
        else:
            continue
        setting = (value or "").split("=", 1)[0].strip().lower().replace("_", "").replace("-", "")
        if value is None or setting not in entry.quiet_settings:
            return False
    return True


#: curl -w variables that tell of the transfer, never of the request's
#: headers, user or URL (curl(1) 7.88, --write-out).
_SAFE_WRITE_OUT = re.compile(
    r"%\{(?:http_code|response_code|http_connect|time_[a-z]+|size_[a-z]+|speed_[a-z]+|"
    r"num_[a-z]+|exitcode|ssl_verify_result|http_version|remote_port|local_port|"
    r"content_type|scheme)\}"
)


def _without_safe_formats(words: Sequence[str | None]) -> list[str | None]:
    """`words` without ``-w FORMAT`` (``--write-out``, ``--write-out=…``)
    whose literal format prints only the transfer's own figures
    (`_SAFE_WRITE_OUT`): such an option prints no credential."""

    def safe(k: int) -> bool:
        value = words[k + 1] if k + 1 < len(words) else None
        return words[k] in ("-w", "--write-out") and value is not None and _safe_format(value)

    return [
        word
        for word in without_pairs(words, safe)
        if not (
            word is not None
            and word.startswith("--write-out=")
            and _safe_format(word.split("=", 1)[1])
        )
    ]


def _safe_format(text: str) -> bool:
    """A curl -w format whose every variable is one of `_SAFE_WRITE_OUT`'s."""
    if text.startswith("@"):
        return False  # @FILE: a format the checker cannot read
    return "%{" not in _SAFE_WRITE_OUT.sub("", text) and "%header{" not in text


#: Programs that never print the content of a file they are given: they
#: remove it, change its metadata, or print its name, size or digest
#: (coreutils 9.1 manual; bash(1) for test and [).
CONTENT_BLIND = frozenset(
    {
        "rm", "shred", "chmod", "chown", "chgrp", "touch", "mkdir", "stat", "ls", "test", "[",
        "wc", "du", "sha256sum", "sha512sum", "sha1sum", "md5sum", "b2sum", "cksum",
    }
)  # fmt: skip


def reads_credential_file_env(program: str, words: Sequence[str | None], variable: str) -> bool:
    """`program` with the literal `words` reads the file the variable
    `variable` names as a credential it never prints (libpq's
    ``PGPASSFILE``)."""
    entry = _entry(program, words)
    return entry is not None and variable in entry.file_env


def reads_credential_file(program: str, words: Sequence[str | None], index: int) -> bool:
    """`program` with the literal `words` (None: not literal) reads the file
    the `index`-th word names as a credential it never prints: the value of
    one of its file options (``curl -K FILE``, ``--config=FILE``), or an
    ``@FILE`` value of a credential option (``curl -H @FILE``)."""
    previous = words[index - 1] if index > 0 else None
    word = words[index]
    own = CREDENTIALS.get(program)
    if (
        own is not None
        and not own.printing & {(w or "").split("=", 1)[0] for w in words}
        and (
            previous in own.store_options
            or (word is not None and word.split("=", 1)[0] in own.store_options and "=" in word)
        )
    ):
        # its own credential store (docker --config DIR), whatever it does
        # but print it (kubectl config view --raw)
        return True
    entry = _entry(program, words)
    if entry is None:
        return False
    if previous in entry.file_options:
        return True
    if word is not None and "=" in word and word.split("=", 1)[0] in entry.file_options:
        return True
    return entry.at_files and previous in entry.options


def takes_credential(
    program: str,
    words: Sequence[str | None],
    place: tuple[str, int | str],
) -> bool:
    """`program` (a basename) with the literal `words` after it (None: not
    literal) takes a credential at `place`: ``("word", k)`` the k-th word
    (an option's value, attached or the next word, or an operand when its
    operands are sent), ``("env", NAME)``, or ``("stdin", 0)``."""
    entry = _entry(program, words)
    if entry is None:
        return False
    kind, where = place
    if kind == "env":
        return where in entry.env
    if kind == "stdin":
        return entry.stdin_with is not None and (
            not entry.stdin_with or bool(entry.stdin_with & {w for w in words if w})
        )
    assert isinstance(where, int)
    previous = words[where - 1] if where > 0 else None
    if previous in entry.options:
        return True
    word = words[where]
    if word is not None:
        head = word.split("=", 1)[0]
        if "=" in word and head in entry.options:
            return True
    if not entry.operands or (word is not None and word.startswith("-")):
        return False
    grammar = GRAMMARS.get(program)
    takes_value = grammar.value_options if grammar is not None else frozenset()
    # an operand, not the value of an option that takes one (curl -o FILE)
    return previous is None or previous == "--" or previous not in takes_value

"""What a literal Python program may do with the caller data it is given.

A ``python3 -c`` (or ``python3 -``) program that gets caller data as data
(``sys.argv``, standard input, the environment) is accepted only when
Python's own parser (`ast`) shows that it uses nothing that could turn data
into code: every module it imports is one this allowlist knows, and of
those only the names listed (``yaml.safe_load``, never ``yaml.load``: its
``Loader`` builds Python objects); no builtin that runs or looks up code
by name (``eval``, ``exec``, ``getattr``…); no double-underscore attribute
(``x.__init__.__globals__``). Nothing here lists dangers: a module, a name
or a builtin that is not listed is refused. Guarantee: `runs_data` never
answers None for a program that imports a module or a name outside
`MODULES`, calls a builtin in `_CODE_BUILTINS`, or reads a dunder attribute.
"""

from __future__ import annotations

import ast

__all__ = ["MODULES", "environment_lookup", "files_read", "runs_data", "writes_files"]

#: Modules whose listed names (None: all of them) compute, parse or print
#: without running what they read (each module's documentation, Python
#: 3.11). A name that constructs objects from data, loads code or runs a
#: command is not listed.
MODULES: dict[str, frozenset[str] | None] = {
    name: None if names is None else frozenset(names.split())
    for name, names in {
        "json": "loads load dumps dump JSONDecodeError",
        "sys": "argv stdin stdout stderr exit maxsize version version_info platform byteorder",
        "os": "environ getenv path sep linesep getcwd listdir scandir stat cpu_count getpid",
        "os.path": None,
        "re": None,
        "math": None,
        "cmath": None,
        "statistics": None,
        "datetime": None,
        "time": None,
        "calendar": None,
        "zoneinfo": None,
        "hashlib": None,
        "hmac": None,
        "base64": None,
        "binascii": None,
        "csv": None,
        "textwrap": None,
        "string": "ascii_letters ascii_lowercase ascii_uppercase digits hexdigits "
        "punctuation whitespace printable capwords Template",
        "collections": None,
        "itertools": None,
        "functools": "reduce partial lru_cache cache cmp_to_key total_ordering wraps",
        "urllib.parse": None,
        "ipaddress": None,
        "uuid": None,
        "decimal": None,
        "fractions": None,
        "unicodedata": None,
        "difflib": None,
        "html": "escape unescape",
        "shlex": "quote split join",
        "struct": None,
        # typed arrays of numbers; WAV files' frames (Python 3.11 array, wave)
        "array": None,
        "wave": "open Error",
        "random": None,
        "secrets": None,
        "heapq": None,
        "bisect": None,
        "enum": None,
        "dataclasses": None,
        "typing": None,
        "argparse": None,
        "fnmatch": None,
        "glob": None,
        "pathlib": None,
        "io": "StringIO BytesIO TextIOWrapper",
        "gzip": "open decompress compress",
        "bz2": "open decompress compress",
        "lzma": "open decompress compress",
        "zlib": None,
        "sqlite3": "connect Row Error OperationalError IntegrityError",
        "yaml": "safe_load safe_load_all safe_dump safe_dump_all YAMLError MarkedYAMLError",
        # Python 3.11 xml.etree.ElementTree: parses; never fetches an external
        # entity or DTD (expat with those off), writes only through write()
        "xml.etree.ElementTree": "parse fromstring iterparse ParseError Element SubElement "
        "ElementTree tostring",
        "tomllib": None,
        "configparser": "ConfigParser RawConfigParser Error",
        "email.utils": None,
        "mimetypes": None,
        "platform": None,
        "locale": None,
        "pprint": None,
        "copy": None,
        "operator": "add sub mul truediv floordiv mod neg itemgetter",
        "importlib.metadata": "version metadata PackageNotFoundError distribution distributions "
        "packages_distributions requires",
        "py_compile": "compile PyCompileError",
        "tokenize": None,
        "keyword": None,
        "ast": "literal_eval parse dump walk",
        # what it reaches is the sandbox's (network:, readable:)
        "socket": "socket AF_UNIX AF_INET AF_INET6 SOCK_STREAM SOCK_DGRAM error timeout "
        "create_connection gethostname gethostbyname getaddrinfo",
        "http.client": "HTTPConnection HTTPSConnection",
        "ssl": "create_default_context SSLContext SSLError SSLCertVerificationError "
        "CertificateError cert_time_to_seconds get_server_certificate DER_cert_to_PEM_cert "
        "PEM_cert_to_DER_cert PROTOCOL_TLS_CLIENT CERT_NONE CERT_REQUIRED TLSVersion",
        "subprocess": "DEVNULL PIPE CalledProcessError",
        # what these write is the working-folder rule's (`TaintedScript.working_tree_writers`)
        "zipfile": "ZipFile BadZipFile is_zipfile ZIP_DEFLATED ZIP_STORED",
        "tarfile": "open is_tarfile TarError TarInfo",
        "shutil": "copy copy2 copyfile copytree move rmtree which disk_usage "
        "unpack_archive make_archive get_terminal_size",
        "jsonschema": "validate ValidationError SchemaError Draft4Validator Draft6Validator "
        "Draft7Validator Draft201909Validator Draft202012Validator exceptions",
        "logging": "basicConfig getLogger debug info warning error critical exception DEBUG INFO "
        "WARNING ERROR CRITICAL StreamHandler Formatter",
    }.items()
}

#: Builtins that run text, load code, or reach any attribute by a computed
#: name (the way around every list above).
_CODE_BUILTINS = frozenset(
    {
        "eval", "exec", "compile", "__import__", "getattr", "setattr", "delattr", "globals",
        "locals", "vars", "breakpoint", "help", "memoryview",
    }
)  # fmt: skip


#: Methods whose first argument is a program (sqlite3's SQL): a literal
#: string only, the data passed as parameters.
_RUNS_ITS_TEXT = frozenset({"execute", "executemany", "executescript"})


def _literal_names(tree: ast.AST) -> frozenset[str]:
    """The names the program binds once, to a literal string (``sql =
    \"\"\"select …\"\"\"``), and nowhere else (no other assignment, loop,
    ``with … as``, import, parameter, ``global`` or ``del`` of them)."""
    bound: dict[str, int] = {}
    literal: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound[node.id] = bound.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            bound[node.arg] = bound.get(node.arg, 0) + 2
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bound[name] = bound.get(name, 0) + 2
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                bound[name] = bound.get(name, 0) + 2
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            literal.add(node.targets[0].id)
    return frozenset(name for name in literal if bound.get(name) == 1)


def runs_data(text: str) -> str | None:
    """Why the Python program `text` may turn its data into code, or None
    when every import, name and builtin it uses is in the allowlist (see
    the module)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return "Python cannot parse it here"
    aliases: dict[str, str] = {}  # local name -> module
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in MODULES:
                    return f"it imports `{alias.name}`, a module the checker does not know"
                if alias.asname is not None:
                    aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    aliases.setdefault(top, top)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            # from importlib import metadata: the submodule is what is imported
            submodules = all(f"{module}.{alias.name}" in MODULES for alias in node.names)
            if node.level or (module not in MODULES and not submodules):
                return f"it imports from `{module or '.'}`, a module the checker does not know"
            allowed = MODULES.get(module)
            for alias in node.names:
                qualified = f"{module}.{alias.name}"
                if qualified in MODULES:
                    aliases[alias.asname or alias.name] = qualified
                elif allowed is not None and alias.name not in allowed:
                    return f"it uses `{qualified}`, which the checker does not know to be inert"
    literals = _literal_names(tree)
    # e.__class__.__name__: a class's name, a string (the class itself is
    # reached nowhere else)
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in ("__name__", "__qualname__")
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "__class__"
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _RUNS_ITS_TEXT
            and not (
                node.args
                and (
                    isinstance(node.args[0], ast.Constant)
                    or (isinstance(node.args[0], ast.Name) and node.args[0].id in literals)
                )
            )
        ):
            return f"it calls `{node.func.attr}` with SQL that is not a literal string"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _FORMATS
            and not _literal_string(node.func.value, literals)
        ):
            # "{r._make.__globals__[sys]…}".format(r=row): a template reads
            # attributes and items by the names in it, dunders too
            return (
                f"it calls `{node.func.attr}` on a template that is not a literal string, "
                "which reads attributes by the names the template holds"
            )
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("__") and node.attr not in _NAMES and node not in named:
                return f"it reads the attribute `{node.attr}`"
            reason = _module_attribute(node, aliases)
            if reason is not None:
                return reason
        elif isinstance(node, ast.Name):
            if node.id in _CODE_BUILTINS and node.id not in aliases:
                return f"it uses `{node.id}`"
            if node.id.startswith("__") and node.id not in ("__name__", "__file__"):
                return f"it uses `{node.id}`"
    return None


#: str's methods whose receiver is a template that reads attributes and
#: items of their arguments by the names it holds (Python 3.11, Format
#: String Syntax: ``{0.attr[key]}``).
_FORMATS = frozenset({"format", "format_map"})
#: Dunder attributes that are a name, a string (of a function, a class, a module).
_NAMES = frozenset({"__name__", "__qualname__"})
#: os's environment, as a mapping and through its functions (Python 3.11
#: os; os.path.expandvars replaces ``$NAME`` in its argument by NAME's value).
_ENVIRONMENT = frozenset({"environ", "environb", "getenv", "getenvb", "expandvars"})


def _literal_string(node: ast.expr, literals: frozenset[str]) -> bool:
    """`node` is a literal string, or a name bound once to one."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or (
        isinstance(node, ast.Name) and node.id in literals
    )


def environment_lookup(text: str) -> str | None:
    """How the Python program `text` reads its environment by a name it
    computes (``os.environ[sys.argv[1]]``, ``os.getenv(name)``, the
    mapping itself handed on, iterated or formatted with): the name its data
    may choose, a credential the server passes among them. None when every
    read names its variable with a literal string (``os.environ.get("HOME",
    "")``), or the text does not parse (`runs_data` refuses it)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    literals = _literal_names(tree)
    parents: dict[ast.AST, ast.AST] = {
        child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
    }

    def called_with_literal(function: ast.AST) -> bool:
        call = parents.get(function)
        return (
            isinstance(call, ast.Call)
            and call.func is function
            and bool(call.args)
            and _literal_string(call.args[0], literals)
        )

    for node in ast.walk(tree):
        if not isinstance(node, (ast.Attribute, ast.Name)):
            continue
        name = node.attr if isinstance(node, ast.Attribute) else node.id
        parent = parents.get(node)
        if name not in _ENVIRONMENT or isinstance(parent, (ast.ImportFrom, ast.alias)):
            continue
        if name in ("getenv", "getenvb", "expandvars"):
            if called_with_literal(node):
                continue
            return f"`{name}` with a name that is not a literal string"
        if (
            isinstance(parent, ast.Subscript)
            and parent.value is node
            and _literal_string(parent.slice, literals)
        ):
            continue  # os.environ["HOME"]
        if (
            isinstance(parent, ast.Attribute)
            and parent.value is node
            and parent.attr == "get"
            and called_with_literal(parent)
        ):
            continue  # os.environ.get("HOME", "")
        return f"`{name}` read by a name that is not a literal string, or handed on whole"
    return None


def _module_attribute(node: ast.Attribute, aliases: dict[str, str]) -> str | None:
    """`node` reads a name of an imported module: it must be listed."""
    parts: list[str] = [node.attr]
    base: ast.expr = node.value
    while isinstance(base, ast.Attribute):
        parts.append(base.attr)
        base = base.value
    if not isinstance(base, ast.Name) or base.id not in aliases:
        return None  # a value's own method or attribute
    parts.reverse()
    module = aliases[base.id]
    # the longest known module along the chain (os.path.join: os.path)
    while parts and f"{module}.{parts[0]}" in MODULES:
        module = f"{module}.{parts.pop(0)}"
    if not parts:
        return None
    allowed = MODULES.get(module)
    if allowed is not None and parts[0] not in allowed:
        return f"it uses `{module}.{parts[0]}`, which the checker does not know to be inert"
    return None


#: Methods that write files, by the modules whose objects have them
#: (Python 3.11 pathlib, shutil, tarfile, zipfile, os): another module's
#: method of the name (``set.add``, ``copy.copy``) writes nothing.
_WRITING_METHODS: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("write_text", "write_bytes", "mkdir", "touch", "rename", "unlink", "rmdir",
         "symlink_to", "hardlink_to", "chmod"),
        frozenset({"pathlib", "os", "shutil"}),
    ),
    **dict.fromkeys(
        ("copy", "copy2", "copyfile", "copytree", "move", "rmtree", "unpack_archive",
         "make_archive"),
        frozenset({"shutil"}),
    ),
    **dict.fromkeys(
        ("extract", "extractall", "writestr", "add", "addfile"),
        frozenset({"tarfile", "zipfile", "shutil"}),
    ),
    "makedirs": frozenset({"os"}),
}  # fmt: skip
#: Functions whose second argument (or ``mode=``) says whether they write.
_OPENERS = frozenset({"open", "ZipFile", "TarFile"})


def writes_files(text: str) -> bool:
    """The Python program `text` may create or change a file: it opens one
    in a mode that is not a literal read mode, calls a method that writes
    files (`_WRITING_METHODS`), connects sqlite3 to a database file, or uses
    a module the allowlist does not know (or Python cannot parse it)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return True
    # the names sqlite3 and its connect are bound to (socket.connect is not one)
    sqlite = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
        if (isinstance(node, ast.Import) and alias.name == "sqlite3")
        or (isinstance(node, ast.ImportFrom) and node.module == "sqlite3")
    }
    # the modules imported (a method writes only on their objects: set.add,
    # copy.copy write nothing)
    imported = {
        (alias.name if isinstance(node, ast.Import) else node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            if isinstance(node, ast.ImportFrom) and all(
                f"{node.module}.{a.name}" in MODULES for a in node.names
            ):
                names = [f"{node.module}.{a.name}" for a in node.names]
            if any(name not in MODULES for name in names):
                return True
        if not isinstance(node, ast.Call):
            continue
        name = (
            node.func.attr
            if isinstance(node.func, ast.Attribute)
            else node.func.id
            if isinstance(node.func, ast.Name)
            else ""
        )
        if name in _WRITING_METHODS and _WRITING_METHODS[name] & imported:
            return True
        if name in _OPENERS or (name == "open" and isinstance(node.func, ast.Attribute)):
            mode = (
                node.args[1]
                if len(node.args) > 1
                else next((k.value for k in node.keywords if k.arg == "mode"), None)
            )
            if mode is not None and not (
                isinstance(mode, ast.Constant)
                and isinstance(mode.value, str)
                and not set(mode.value) & set("wax+")
            ):
                return True
        if name == "connect" and _names_sqlite3(node.func, sqlite):
            target = node.args[0] if node.args else None
            if not (
                isinstance(target, ast.Constant)
                and isinstance(target.value, str)
                and (target.value == ":memory:" or "mode=ro" in target.value)
            ):
                return True
    return False


def _names_sqlite3(func: ast.expr, sqlite: set[str]) -> bool:
    """`func` is sqlite3's ``connect`` (``sqlite3.connect``, an alias of the
    module, or ``connect`` imported from it)."""
    if isinstance(func, ast.Attribute):
        return isinstance(func.value, ast.Name) and func.value.id in sqlite
    return isinstance(func, ast.Name) and func.id in sqlite


#: Modules whose use reads nothing but the values and file objects given
#: them (each module's documentation, Python 3.11); with `sys` only these
#: names (its standard input and `os.environ` are other inputs).
_READS_NOTHING = frozenset(
    {"json", "tomllib", "csv", "re", "math", "statistics", "datetime", "time", "calendar",
     "decimal", "fractions", "collections", "itertools", "functools", "operator", "string",
     "textwrap", "configparser", "yaml", "sys"}
)  # fmt: skip
_SYS_NAMES = frozenset({"exit", "stdout", "stderr", "argv", "version", "version_info"})


def files_read(text: str) -> tuple[str, ...] | None:
    """The files the Python program `text` reads, when it reads nothing
    else (no standard input, no environment, no network, no other
    program, no file whose name is not a literal string) and runs none of
    its data (`runs_data`) and writes no file (`writes_files`); None
    otherwise. What it prints then depends on those files, its literal
    arguments and the clock alone."""
    if runs_data(text) is not None or writes_files(text):
        return None
    tree = ast.parse(text)
    sys_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(alias.name not in _READS_NOTHING for alias in node.names):
                return None
            sys_names |= {a.asname or a.name for a in node.names if a.name == "sys"}
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "") not in _READS_NOTHING:
                return None
            if node.module == "sys" and any(a.name not in _SYS_NAMES for a in node.names):
                return None
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in ("input", "open") and not _called(node, tree):
            return None  # open passed along: called with any name later
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in sys_names
            and node.attr not in _SYS_NAMES
        ):
            return None  # sys.stdin
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else None
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if name == "input":
            return None
        if name == "open" or method == "read":
            first = node.args[0] if node.args else None
            if name == "open" and not (
                isinstance(first, ast.Constant) and isinstance(first.value, str)
            ):
                return None  # a name that is not a literal
            if first is not None and not isinstance(first, ast.Constant):
                return None  # ConfigParser.read(names): files named otherwise
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(first.value)  # open("f"), ConfigParser.read("setup.cfg")
    return tuple(found)


def _called(name: ast.Name, tree: ast.AST) -> bool:
    """`name` is the function of a call (``open(…)``), not a value passed."""
    return any(isinstance(n, ast.Call) and n.func is name for n in ast.walk(tree))

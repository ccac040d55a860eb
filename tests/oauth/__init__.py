"""Tests against a real OpenID Provider on loopback (oidc.py, conftest.py)."""

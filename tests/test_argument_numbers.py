"""Issue 17: what the validator lets through is what the checker's value
model says. JSON Schema counts ``1.0``, ``-0.0`` and ``1e300`` as integers;
the step must still get text that starts with no ``-`` when the schema's
``minimum`` is 0, and that has only the characters the model allows."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.check._values import model_for
from mcp_harbor.config import load_export
from mcp_harbor.errors import ArgumentError
from mcp_harbor.template import value_text

SCHEMAS = {
    "n": {"type": "integer", "minimum": 0},
    "i": {"type": "integer"},
    "f": {"type": "number", "minimum": 0},
}


@pytest.fixture(scope="module")
def validator(tmp_path_factory: pytest.TempPathFactory) -> ArgumentValidator:
    path = tmp_path_factory.mktemp("numbers") / "numbers.yaml"
    doc = {
        "name": "numbers",
        "description": "numbers",
        "args": SCHEMAS,
        "steps": [{"name": "s", "run": "echo $(( {{ args.n }} + {{ args.i }} ))"}],
    }
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return ArgumentValidator(load_export(path))


@pytest.mark.parametrize(
    ("sent", "text"), [(1.0, "1"), (-0.0, "0"), (1e3, "1000"), (7, "7"), (0, "0")]
)
def test_integral_floats_reach_steps_as_digits(
    validator: ArgumentValidator, sent: float, text: str
) -> None:
    assert value_text(validator.validate({"n": sent, "i": 1, "f": 0})["n"]) == text


def test_negative_zero_number_is_zero(validator: ArgumentValidator) -> None:
    assert value_text(validator.validate({"n": 0, "i": 0, "f": -0.0})["f"]) == "0.0"


_numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
)


@settings(max_examples=300, deadline=None)
@given(n=_numbers, i=_numbers, f=_numbers)
def test_every_accepted_value_fits_the_checkers_model(
    validator: ArgumentValidator, n: float, i: float, f: float
) -> None:
    try:
        values = validator.validate({"n": n, "i": i, "f": f})
    except ArgumentError:
        return
    for name, schema in SCHEMAS.items():
        model = model_for(schema)
        text = value_text(values[name])
        assert set(text) <= model.chars, (name, text)
        assert text[:1] in model.first, (name, text)

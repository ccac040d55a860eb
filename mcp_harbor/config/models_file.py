"""The models file (``--models FILE``): where agent steps' models are answered.

Operator configuration, never part of an export: exports name a model
(``model: coder``); this file says which endpoints serve it::

    endpoints:
      gpu-box:    {base_url: http://vllm.internal:8000/v1, api_key_env: VLLM_API_KEY}
      openrouter: {base_url: https://openrouter.ai/api/v1, api_key_env: OPENROUTER_API_KEY}
    models:
      coder:
        primary:  {endpoint: gpu-box,    model: Qwen/Qwen3-Coder-30B-A3B-Instruct}
        fallback: {endpoint: openrouter, model: qwen/qwen3-coder}
        turn_timeout: 120
        max_output_tokens: 2048
        temperature: 0
    embeddings: {endpoint: gpu-box, model: nomic-embed-text-v1.5}   # optional

`embeddings:` (optional) names the endpoint and model whose OpenAI-compatible
``/embeddings`` API embeds remembered calls and queries for ``memory:
{recall: …}``; without it recall uses the local hashing embedder
(`mcp_harbor.runctx.recall.HashingEmbedder`).

`api_key_env` is the NAME of an environment variable: the key itself is
never written here, nor anywhere harbor records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from mcp_harbor.config._problems import pydantic_problem
from mcp_harbor.config.yaml_source import read_yaml
from mcp_harbor.errors import ConfigError
from mcp_harbor.llm.turn import ModelSource

__all__ = [
    "EmbeddingsSpec",
    "EndpointSpec",
    "ModelSpec",
    "Models",
    "ModelsFileSpec",
    "SourceSpec",
    "load_models_file",
]

_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
Name = Annotated[str, StringConstraints(pattern=_NAME)]
EnvName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class EndpointSpec(_Strict):
    """An OpenAI-compatible endpoint: its base URL (``…/v1``) and the name
    of the environment variable that holds its API key (none: no key)."""

    base_url: Annotated[str, StringConstraints(pattern=r"^https?://[^\s]+$")]
    api_key_env: EnvName | None = None


class SourceSpec(_Strict):
    """``{endpoint: NAME, model: ID}``: a model id as that endpoint names it."""

    endpoint: Name
    model: Annotated[str, StringConstraints(min_length=1, max_length=256, pattern=r"^\S+$")]


class ModelSpec(_Strict):
    """A model name exports use: a primary source, an optional fallback,
    and how each turn is asked."""

    primary: SourceSpec
    fallback: SourceSpec | None = None
    #: Seconds one request may take, enforced by the client.
    turn_timeout: Annotated[float, Field(gt=0, le=3600)] = 120.0
    max_output_tokens: Annotated[int, Field(ge=1, le=1 << 20)] = 2048
    temperature: Annotated[float, Field(ge=0, le=2)] = 0.0
    #: ``models``: the endpoint's ``GET /models`` lists the id; ``tool_call``
    #: also sends a one-token request with a forced tool call.
    probe: Literal["models", "tool_call"] = "models"


class EmbeddingsSpec(SourceSpec):
    """``embeddings: {endpoint: NAME, model: ID, timeout: S}``: where recall
    embeds texts (the endpoint's ``/embeddings``), and how long one request
    may take (a run's agent step waits for it: short by default)."""

    timeout: Annotated[float, Field(gt=0, le=120)] = 10.0


class ModelsFileSpec(_Strict):
    """The whole file: ``endpoints:``, ``models:`` and, optionally,
    ``embeddings:``."""

    endpoints: dict[Name, EndpointSpec]
    models: dict[Name, ModelSpec]
    embeddings: EmbeddingsSpec | None = None

    @model_validator(mode="after")
    def _known_endpoints(self) -> ModelsFileSpec:
        known = ", ".join(sorted(self.endpoints)) or "none"
        for name, spec in self.models.items():
            for role, source in (("primary", spec.primary), ("fallback", spec.fallback)):
                if source is not None and source.endpoint not in self.endpoints:
                    raise ValueError(
                        f"models.{name}.{role}: endpoint {source.endpoint!r} is not under "
                        f"endpoints: (declared: {known}); declare it or fix the name"
                    )
        if self.embeddings is not None and self.embeddings.endpoint not in self.endpoints:
            raise ValueError(
                f"embeddings: endpoint {self.embeddings.endpoint!r} is not under endpoints: "
                f"(declared: {known}); declare it or fix the name"
            )
        return self


@dataclass(frozen=True, slots=True)
class Models:
    """A loaded models file: each model name with its sources resolved."""

    path: Path | None
    spec: ModelsFileSpec

    def names(self) -> frozenset[str]:
        return frozenset(self.spec.models)

    def model(self, name: str) -> ModelSpec | None:
        return self.spec.models.get(name)

    def sources(self, name: str) -> tuple[tuple[Literal["primary", "fallback"], ModelSource], ...]:
        """The sources of model `name`, primary first (empty when unknown)."""
        spec = self.spec.models.get(name)
        if spec is None:
            return ()
        out: list[tuple[Literal["primary", "fallback"], ModelSource]] = [
            ("primary", self._source(spec.primary))
        ]
        if spec.fallback is not None:
            out.append(("fallback", self._source(spec.fallback)))
        return tuple(out)

    def embeddings(self) -> ModelSource | None:
        """The source of ``embeddings:`` (None: the file has none, recall
        embeds locally); its timeout is ``spec.embeddings.timeout``."""
        if self.spec.embeddings is None:
            return None
        return self._source(self.spec.embeddings)

    def _source(self, source: SourceSpec) -> ModelSource:
        endpoint = self.spec.endpoints[source.endpoint]
        return ModelSource(
            endpoint=source.endpoint,
            base_url=endpoint.base_url.rstrip("/"),
            model=source.model,
            api_key_env=endpoint.api_key_env,
        )

    @classmethod
    def of(cls, data: Mapping[str, object]) -> Models:
        """A models file given as data (tests, benchmarks)."""
        return cls(None, ModelsFileSpec.model_validate(data))


def _model_for(loc: tuple[str | int, ...]) -> type[BaseModel] | None:
    if len(loc) == 1:
        return ModelsFileSpec
    if len(loc) == 2 and loc[0] == "embeddings":
        return EmbeddingsSpec
    if len(loc) == 3 and loc[0] == "endpoints":
        return EndpointSpec
    if len(loc) == 3 and loc[0] == "models":
        return ModelSpec
    if len(loc) == 4 and loc[0] == "models":
        return SourceSpec
    return None


def load_models_file(path: Path) -> Models:
    """Load a models file.

    Raises:
        ConfigError: with one message per problem, each naming file and line.
    """
    data, smap, _raw = read_yaml(path, kind="models")
    try:
        spec = ModelsFileSpec.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = [pydantic_problem(path, smap, e, _model_for) for e in exc.errors()]
        raise ConfigError("\n".join(problems), problems) from None
    return Models(path, spec)

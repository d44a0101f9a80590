"""The model interface the runner, agents and trainers code against.

A model turns a :class:`ModelRequest` (the chat, plus the task and last score for builtin models that
do not read chats) into a :class:`Completion`. Implementations must be thread-safe: the runner calls
``complete`` from a worker pool.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable

from ecov.harness.core.records import ScoreResult
from ecov.harness.tasks import Task

MODEL = "model"  # registry kind of the builtin models: name -> factory(**get_model's keywords) -> Model


@dataclass
class ModelRequest:
    messages: list[dict[str, str]]  # the chat to send (built by ecov.harness.tracks.sv.prompts)
    task: Task  # for builtins; never sent to an API
    testbench: str | None = None  # current testbench x_t (agentic rounds > 0)
    result: ScoreResult | None = None  # last score (raw o_t), for builtins
    round: int = 0
    sample: int = 0
    seed: int = 1
    attempt: int = 0  # 0, then 1.. for each re-ask after an unusable answer (llm4cov protocol)
    tb_lang: str = "sv"  # the testbench language asked for (sv | cocotb): builtins answer in it
    protocol: str = ""  # the run's protocol: builtin/reference answers a bug hunt with its self-checking references


@dataclass
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0  # USD, from LiteLLM's local cost map; 0 when the model is not priced
    cached: bool = False  # served from the response cache (or a replayed run): no API call made
    model: str = ""
    retries: int = 0  # failed attempts (429, 5xx, timeouts) before this answer
    finish_reason: str = ""  # the provider's ("stop", "length", ...); "" when unknown
    seed: int | None = None  # the API seed sent with the request (None: none sent)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Completion:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


@runtime_checkable
class Model(Protocol):
    name: str

    def complete(self, req: ModelRequest) -> Completion: ...


class ModelError(Exception):
    """A model could not answer (after retries, or on a non-retryable error)."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False):
        super().__init__(message)
        self.status = status
        self.retryable = retryable


class UnknownModelError(ModelError):
    """The model string names no provider or builtin this harness knows."""


class MissingKeyError(ModelError):
    """The provider needs an API key that is not in the environment."""

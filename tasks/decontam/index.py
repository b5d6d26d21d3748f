"""The benchmark index, built once per run, and its vectorised scoring.

Three matrices over the N benchmark tasks: word 3-grams and targets as sparse binary rows (hashed by
scikit-learn's HashingVectorizer, so no vocabulary is kept), and MiniLM embeddings as a dense
(N, 384) float32 matrix. Scoring one tuple is three products against them — (1, F) x (F, N) sparse
and (N, 384) x (384,) dense — so its cost grows with the grams and targets the tuple shares, not with
a Python loop over the tasks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.feature_extraction.text import HashingVectorizer

from tasks.decontam.sets import BenchmarkTask
from tasks.decontam.targets import word_ngrams
from tasks.dedupe import Embedder

N_FEATURES = 2**22  # hashed grams and targets; collisions at 10,000 tasks stay negligible


def _vectorizer(analyzer) -> HashingVectorizer:
    return HashingVectorizer(
        analyzer=analyzer,
        n_features=N_FEATURES,
        binary=True,
        norm=None,
        alternate_sign=False,
        dtype=np.float32,
    )


@dataclass
class Scores:
    """Per benchmark task, shape (N,): the tuple's 3-gram containment in its instruction, the
    instructions' cosine, and the share of its targets the tuple also checks."""

    ngram: np.ndarray
    embedding: np.ndarray
    targets: np.ndarray


class BenchmarkIndex:
    """Every task of the run's benchmark sets, ready to score tuples against."""

    def __init__(self, tasks: Sequence[BenchmarkTask], embed: Embedder) -> None:
        self.tasks = list(tasks)
        self.embed = embed
        self._grams = _vectorizer(word_ngrams)
        self._targets = _vectorizer(sorted)
        # transposed to (F, N) CSR: a tuple's row times it reads only the columns of its own features
        self._gram_matrix = self._grams.transform([t.instruction for t in self.tasks]).T.tocsr()
        self._target_matrix = self._targets.transform([t.targets for t in self.tasks]).T.tocsr()
        counts = np.array([len(t.targets) for t in self.tasks], dtype=np.float32)
        self._target_counts = np.where(counts > 0, counts, np.inf)  # no targets: share 0, not 0/0
        self._vectors = embed([t.instruction for t in self.tasks])

    def __len__(self) -> int:
        return len(self.tasks)

    def score(self, instruction: str, targets: frozenset[str], vector: np.ndarray | None = None) -> Scores:
        grams = self._grams.transform([instruction])
        shared = (grams @ self._gram_matrix).toarray()[0]
        ngram = shared / max(grams.nnz, 1)
        hits = (self._targets.transform([targets]) @ self._target_matrix).toarray()[0]
        if vector is None:
            vector = self.embed([instruction])[0]
        return Scores(ngram=ngram, embedding=self._vectors @ vector, targets=hits / self._target_counts)

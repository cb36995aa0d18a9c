"""``BleuScore``: the corpus BLEU of tokenised candidates against their references."""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np

from mindjax.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["BleuScore"]


def _ngrams(tokens: Sequence[Any], max_n: int) -> Counter:
    """Every n-gram of ``tokens`` for ``n`` in ``1..max_n``, counted."""
    return Counter(tuple(tokens[i:i + n]) for n in range(1, max_n + 1) for i in range(len(tokens) - n + 1))


class BleuScore(Metric):
    """Corpus BLEU: the geometric mean of clipped n-gram precisions times the brevity penalty.

    Arguments:
        n_gram: the largest n-gram, 1 to 4 (default ``4``).
        smooth: add one to every precision's numerator and denominator (default ``False``).

    Raises:
        TypeError: arguments of the wrong type. ValueError: ``n_gram`` out of 1..4.
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        super().__init__()
        if isinstance(n_gram, bool) or not isinstance(n_gram, int):
            raise TypeError(f"For 'BleuScore', the type of 'n_gram' should be 'int', but got {type(n_gram).__name__}")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}.")
        if not isinstance(smooth, bool):
            raise TypeError(f"For 'BleuScore', the type of 'smooth' should be 'bool', but got {type(smooth).__name__}")
        self.n_gram = n_gram
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Add ``(candidate_corpus, reference_corpus)``: token lists, and per candidate a list of references."""
        if len(inputs) != 2:
            raise ValueError(f"For 'BleuScore.update', it needs 2 inputs (candidate_corpus, reference_corpus), but "
                             f"got {len(inputs)}.")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, {len(references)}")
        for cand, refs in zip(candidates, references):
            self._c += len(cand)
            lengths = [len(r) for r in refs]
            gaps = [abs(len(cand) - n) for n in lengths]
            self._r += lengths[gaps.index(min(gaps))]
            cand_counts = _ngrams(cand, self.n_gram)
            ref_counts: Counter = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, count in (cand_counts & ref_counts).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in cand_counts.items():
                self._denominator[len(gram) - 1] += count
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The BLEU score, a 0-D numpy array (0 when some n-gram order has no match)."""
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        add = 1.0 if self.smooth else 0.0
        precision = (self._numerator + add) / (self._denominator + add)
        mean = np.exp(np.sum(np.log(precision) / self.n_gram))
        penalty = np.array(1.0) if self._c > self._r else np.exp(1 - np.array(self._r) / np.array(self._c))
        return penalty * mean

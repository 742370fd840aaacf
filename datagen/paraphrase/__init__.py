"""Paraphrases of a task's instruction that keep its meaning: shape templates, WordNet synonyms,
and a check that no value the task names changed (``variants.paraphrase``)."""

from datagen.paraphrase.variants import Paraphrases, paraphrase

__all__ = ["Paraphrases", "paraphrase"]

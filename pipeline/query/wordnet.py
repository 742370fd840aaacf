"""WordNet 3.0 read from Debian's ``wordnet-base`` dict files (``/usr/share/wordnet``) with nltk's
``WordNetCorpusReader``: for the planner's similar words (``pipeline.query.similar``) and
datagen's paraphrases.

    reader().synsets("big")     # nltk's reader; PagescoutError when WordNet is missing

``nltk.download`` is not needed. Debian's files lack ``lexnames`` (the table of the 45
lexicographer files, fixed since WordNet 2.0), which the reader opens first, so
``DebianWordNet`` serves it from ``LEXNAMES``.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from pipeline.errors import PagescoutError

DEFAULT_DIR = "/usr/share/wordnet"
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
    "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl",
)
_LEX_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


def _open(root: str):
    """nltk's reader over a dict folder that may lack ``lexnames`` (see the module docstring)."""
    import nltk.data
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class DebianWordNet(WordNetCorpusReader):
        def open(self, fileid):
            if fileid == "lexnames" and not (Path(root) / "lexnames").exists():
                return io.StringIO("".join(
                    f"{i:02d}\t{name}\t{_LEX_CATEGORY[name.split('.')[0]]}\n"
                    for i, name in enumerate(LEXNAMES)))
            return super().open(fileid)

        def map_wn(self, version="wordnet"):
            return None  # the files are WordNet 3.0 itself: no mapping to load

    if root not in nltk.data.path:  # nltk reads corpora only under its data paths
        nltk.data.path.append(root)
    return DebianWordNet(root, None)


@cache
def reader(root: str = DEFAULT_DIR):
    """nltk's WordNet reader over ``root``; raises PagescoutError when WordNet is missing."""
    if not (Path(root) / "data.verb").is_file():
        raise PagescoutError(f"wordnet_dir: {root} holds no WordNet dict files "
                             "(data.verb); install Debian's wordnet-base (apt-get install "
                             "wordnet-base) or point wordnet_dir at a WordNet 3.0 dict folder")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        return _open(root)

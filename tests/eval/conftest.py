"""The eval tests read Mind2Web task files made from the fixture pages by the datagen tests'
helpers (``mind2web_reader_helpers``): put that folder on the import path."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "datagen"))

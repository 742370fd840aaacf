"""``python -m pipeline``: see ``pipeline.cli.main``."""

import sys

from pipeline.cli.main import main

sys.exit(main())

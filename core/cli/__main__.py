"""``python -m execretrieval.cli``: the same as the ``execretrieval`` command."""

import sys

from .entry import main

sys.exit(main())

"""``python -m mutation``: see :mod:`mutation.run`."""

import sys

from .run import main

try:
    sys.exit(main())
except BrokenPipeError:  # make mutate-results | head
    sys.exit(0)

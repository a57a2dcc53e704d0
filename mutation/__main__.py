"""``python -m mutation``: see :mod:`mutation.run`."""

import sys

from .run import main

sys.exit(main())

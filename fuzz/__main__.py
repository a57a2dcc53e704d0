"""``python -m fuzz``: see :mod:`fuzz.run`."""

import sys

from .run import main

sys.exit(main())

"""``python -m assistant``: the command line."""

import sys

from assistant.cli import main

sys.exit(main())

"""``python -m perudo_rules``: the command line."""

import sys

from perudo_rules.cli import main

sys.exit(main())

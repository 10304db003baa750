"""``python -m rules``: simulate a battle, estimate its odds, or verify a campaign turn."""

import sys

from rules.cli import main

sys.exit(main())

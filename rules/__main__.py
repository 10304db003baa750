"""``python -m rules``: simulate a battle or estimate its odds."""

import sys

from rules.cli import main

sys.exit(main())

"""`python -m studio` runs the same entry point as the `pack-studio` command."""

from __future__ import annotations

import sys

from studio.launcher import main

if __name__ == "__main__":
    sys.exit(main())

"""The bundle's entry script: the same `main` as the `papershelf` command."""

import sys

from papershelf.__main__ import main

if __name__ == "__main__":
    sys.exit(main())

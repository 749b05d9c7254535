"""The bundle's entry script: the same `main` as the `papershelf` command."""

import multiprocessing
import sys

from papershelf.__main__ import main

if __name__ == "__main__":
    # A big import reads its file in worker processes: in a frozen bundle they start as
    # this same program, and freeze_support runs the worker instead of the app.
    multiprocessing.freeze_support()
    sys.exit(main())

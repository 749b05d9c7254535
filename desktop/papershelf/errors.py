"""The kinds of failure the core reports, each with a message that is safe to show.

As in qutebrowser's sql.py, a failure is either the environment's (`LibraryError`: the
library is locked, damaged, unwritable, newer than us) or the user's request
(`UserError`: an unknown key, an invalid pattern); anything else is our bug. No
imports: every module of the core may raise these.
"""

from __future__ import annotations


class LibraryError(Exception):
    """A library cannot be used, for a reason outside Papershelf's control; safe to show."""


class NewerLibraryError(LibraryError):
    """The library was written by a newer Papershelf; it is left untouched."""


class DamagedLibraryError(LibraryError):
    """The library file is damaged; nothing was written to it (core.backup offers a
    restore or a salvage)."""


class UserError(Exception):
    """Something the user asked for cannot be done (unknown key, invalid key...); safe to show."""

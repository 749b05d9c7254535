"""The command line, on the core only: `papershelf COMMAND ...` (`main.run`).

`commands` declares every command; each of the other modules holds a group of them,
their arguments and handlers. With no command, `__main__` opens the window instead.
"""

"""The Papershelf window (PySide6). Only this package imports Qt; the core never does."""

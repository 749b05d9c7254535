"""Papershelf: a desktop reading-list manager for researchers."""

__version__ = "0.1.0"

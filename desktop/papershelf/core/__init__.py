"""The headless core of Papershelf: storage, queries and operations. Never imports Qt."""

"""Following sources of new papers (arXiv, feeds, journals, authors) into an inbox
ranked by what the member reads: the core, without Qt (sources, fetching, inbox,
ranking, learning, commands)."""

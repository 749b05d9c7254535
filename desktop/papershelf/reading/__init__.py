"""Reading a paper's PDF: its pages' labels and text, the spots a quote covers, and the
annotations other readers wrote into the file (no Qt here: the window's reader and the
command line share it).

The engine is PDFium through pypdfium2 (Apache-2.0 / BSD-3-Clause, a 4 MB wheel with
its own PDFium build): it renders, and gives each character's box, which a quote's
highlight is made of. pypdf, already the text reader for search, reads and writes the
annotations of a file. Qt's own QtPdf would need PySide6-Addons (a wheel of some
hundred megabytes) and gives no character boxes; PyMuPDF is AGPL. PDFium and pypdf run
in worker processes (`bounded` for one task, `server` for the window's reader), bounded
in time and memory, so that a hostile file cannot take the caller down.
"""

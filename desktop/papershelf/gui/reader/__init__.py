"""The reader: a paper's PDF in a tab, its pages rendered off the GUI thread, text to
select and copy, highlights kept in the library, find in the document.

`pages` is the PDFium side (every call to PDFium runs on one thread), `view` the
widget showing the pages, `tab` the widget a window opens for a paper.
"""

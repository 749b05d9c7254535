"""The reader: a paper's PDF in a tab, its pages rendered off the GUI thread, text to
select and copy, highlights, sticky notes and rectangles kept in the library, links, the
outline, find.

`tab.ReaderTab` is what a window opens for a paper; `view.PdfView` the pages themselves.
`pages` is the PDFium side (its requests go to `reading.server`'s worker process from
one thread); `layout` places the pages, `cache` keeps their images, `geometry` picks text
and `selecting` holds what is selected, `marks` draws annotations, `drawing` holds the
tools for a sticky note and a rectangle, `finding` holds the places found, `keys` makes
the actions.
"""

"""Papers from the services and catalogs that own their metadata, with no Qt.

`identifiers` reads what a user pastes (a DOI, an arXiv id, an OpenReview, PMLR, ACL
Anthology or DBLP link, or a title); `services` asks Crossref, arXiv, OpenReview, DBLP,
OpenAlex and Semantic Scholar for the paper; `catalog` searches conference catalogs the
user added, offline; `matching` ranks candidates for a paper; `pdf` downloads and reads a
paper's PDF. `services` and `pdf` reach the network only through `http` (what it is
told lives in `settings`, what it raises in `errors`). Everything here returns
`formats.records.PaperRecord`s, which the library merges like an imported entry.
"""

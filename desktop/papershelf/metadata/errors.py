"""What a lookup, a download or a PDF reader says when it fails: one `ServiceError`.

Every failure on the way to a paper's metadata is one line naming the service and the
problem, with a `kind` a caller can branch on; a caller shows it as it is, never a
traceback.
"""

from __future__ import annotations

from typing import Any, Literal

from papershelf.messages import Text, text

__all__ = ["ErrorKind", "Offline", "ServiceError"]

ErrorKind = Literal[
    "timeout", "rate-limited", "server-error", "malformed", "not-found", "too-big",
    "redirect-loop", "not-pdf", "offline", "no-key", "refused", "network", "bad-url",
    "unreadable",
]  # fmt: skip


class ServiceError(Exception):
    """A service could not answer: one line naming the service and what went wrong.

    `kind` says what happened in a word a caller can branch on (e.g. "not-found" to try
    another service, "offline" to say so once); `str()` is the message for the user.
    """

    def __init__(self, service: str, problem: str, kind: ErrorKind) -> None:
        self.service = service
        self.problem = problem  # (a papershelf.messages.Text where it is translatable)
        self.kind: ErrorKind = kind
        super().__init__(f"{service}: {problem}")

    @property
    def message(self) -> Text:
        """`str()` as a translatable message: the service's name, then the problem."""
        return text("{service}: {problem}", service=self.service, problem=self.problem)

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker, it may travel back pickled.
        return type(self), (self.service, self.problem, self.kind)


class Offline(ServiceError):
    """Offline mode is on, so nothing was asked (a cached answer is still given)."""

    def __init__(self, service: str, problem: str = "", kind: ErrorKind = "offline") -> None:
        super().__init__(service, problem or text("offline mode is on; no request was made"),
                         kind)

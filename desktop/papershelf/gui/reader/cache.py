"""The reader's rendered pages, kept while they fit in a bound of bytes: the ones used
longest ago go first, never one the view shows now (so a huge page may overstep the
bound rather than be rendered again and again)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection

from papershelf.gui.qt import QImage, QRectF

CACHE_BYTES = 40 << 20
RenderKey = tuple[int, int, int, bool]  # page, zoom and pixel ratio (thousandths), dark


class RenderCache:
    """Images of pages by the key they were rendered at."""

    def __init__(self, bound: int = CACHE_BYTES) -> None:
        self.bound = bound
        self._images: OrderedDict[RenderKey, QImage] = OrderedDict()
        self.size = 0  # bytes

    def __contains__(self, key: object) -> bool:
        return key in self._images

    def __len__(self) -> int:
        return len(self._images)

    def add(self, key: RenderKey, image: QImage, shown: Collection[RenderKey]) -> None:
        """Keep an image, then forget others while over the bound (not those `shown`)."""
        old = self._images.pop(key, None)
        if old is not None:
            self.size -= old.sizeInBytes()
        self._images[key] = image
        self.size += image.sizeInBytes()
        for other in list(self._images):
            if self.size <= self.bound:
                break
            if other not in shown:
                self.size -= self._images.pop(other).sizeInBytes()

    def best(self, key: RenderKey) -> QImage | None:
        """The image at `key`, else the newest of the same page (another zoom, to draw
        scaled meanwhile), else None."""
        if key in self._images:
            self._images.move_to_end(key)
            return self._images[key]
        page, _zoom, _ratio, dark = key
        older = [k for k in self._images if k[0] == page and k[3] == dark]
        return self._images[older[-1]] if older else None


def snapped(rect: QRectF, image: QImage) -> QRectF:
    """Where to draw a page's image in `rect`: at whole pixels and its own size when it
    is that size within a pixel (copied, not scaled: the cheap way, done at each paint)."""
    ratio = image.devicePixelRatio()
    width, height = image.width() / ratio, image.height() / ratio
    if abs(width - rect.width()) >= 1 or abs(height - rect.height()) >= 1:
        return rect
    return QRectF(round(rect.x()), round(rect.y()), width, height)

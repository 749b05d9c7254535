"""The reader's actions: each made once, with its text and shortcuts, then put in the
context menu and on the buttons as it is (a standard key where Qt has one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from papershelf.gui.qt import QAction, QKeySequence, Qt, QWidget


def make_action(owner: QWidget, text: str, slot: Callable[..., Any],
                *shortcuts: QKeySequence.StandardKey | str) -> QAction:
    """An action of `owner` (its shortcuts work while the focus is in it): the
    platform's keys for a standard key, then the other keys named."""
    action = QAction(text, owner)
    sequences: list[QKeySequence] = []
    for shortcut in shortcuts:
        if isinstance(shortcut, QKeySequence.StandardKey):
            sequences.extend(QKeySequence.keyBindings(shortcut))
        else:
            sequences.append(QKeySequence(shortcut))
    unique = list(dict.fromkeys(s.toString() for s in sequences if not s.isEmpty()))
    action.setShortcuts([QKeySequence(s) for s in unique])
    if unique:
        shown = QKeySequence(unique[0]).toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{text.rstrip('…')} ({shown})")
    action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    action.triggered.connect(slot)
    owner.addAction(action)
    return action

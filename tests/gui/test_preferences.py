"""Edit > Preferences: the key pattern (a library setting) and the export defaults (the
user's preferences), and that imports, exports and Copy BibTeX follow them; the Network
section (work offline, contact e-mail, API keys in the keyring) and that every lookup
follows it. No test touches the user's keyring: an in-memory one stands in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from keyring.backends import fail
from keyring.errors import KeyringLocked
from pytestqt.qtbot import QtBot

from papershelf.core import keys
from papershelf.core.transfer import ExportOptions
from papershelf.gui import dialogs
from papershelf.gui.main_window import MainWindow
from papershelf.gui.preferences import PreferencesDialog, load_export_options
from papershelf.gui.qt import (
    QApplication,
    QDialogButtonBox,
    QEvent,
    QFileDialog,
    QLabel,
    QLineEdit,
    Qt,
)
from papershelf.gui.settings import Settings
from papershelf.metadata.http import SERVICES, HttpSettings, Offline, make_client
from papershelf.metadata.identifiers import Identifier
from papershelf.metadata.services import lookup
from papershelf.metadata.settings import (
    NetworkPreferences,
    load_network_preferences,
    store_key,
)
from tests.conftest import files_holding
from tests.gui.conftest import wait_idle
from tests.test_metadata_settings import MemoryKeyring, use_keyring

ABSTRACTS = """NeurIPS 2025 论文列表

We study how bookshelves organise themselves when many readers add and remove volumes at \
random, and show that a simple greedy rule keeps related books together with high \
probability even under adversarial insertion orders.
"""


def open_preferences(window: MainWindow) -> PreferencesDialog:
    """Edit > Preferences… (window-modal, so the test can click in it)."""
    window.actions["preferences"].trigger()
    dialog = window.findChild(PreferencesDialog)
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_export_defaults_are_declared(settings: Settings) -> None:
    assert load_export_options(settings) == ExportOptions(
        include_abstract=True, include_notes=False, ascii_only=False, flavour="bibtex")


def test_an_invalid_pattern_cannot_be_saved(window: MainWindow, qtbot: QtBot) -> None:
    dialog = open_preferences(window)
    assert dialog.pattern_edit.text() == window.library.key_pattern
    assert dialog.status.text().startswith("Example:")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.pattern_edit.clear()
    qtbot.keyClicks(dialog.pattern_edit, "[auth][nope]")
    assert not ok.isEnabled()
    assert "Unknown field [nope]" in dialog.status.text()
    qtbot.keyClick(dialog.pattern_edit, Qt.Key.Key_Return)  # Enter does not save it either
    assert dialog.isVisible()
    dialog.pattern_edit.setText("[auth")
    assert not ok.isEnabled() and "Unbalanced" in dialog.status.text()
    qtbot.mouseClick(dialog.default_button, Qt.MouseButton.LeftButton)
    assert ok.isEnabled()
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel),
                     Qt.MouseButton.LeftButton)
    assert window.library.key_pattern == "[auth:lower][year][veryshorttitle:lower]"


def test_a_valid_pattern_is_used_by_the_next_import(window: MainWindow, qtbot: QtBot,
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = open_preferences(window)
    dialog.pattern_edit.clear()
    qtbot.keyClicks(dialog.pattern_edit, "[venue]-[year]")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled()
    # The example is the current paper's key under the new pattern.
    assert "ICML-2024" in dialog.status.text()
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)  # the pattern is saved in the worker
    assert window.library.key_pattern == "[venue]-[year]"

    monkeypatch.setattr(dialogs, "show_import_summary", lambda *args: None)
    source = tmp_path / "neurips.txt"
    source.write_text(ABSTRACTS, encoding="utf-8")
    with qtbot.waitSignal(window.importFinished, timeout=10000):
        window.features.importing.start_import([str(source)])
    outcome = window.features.importing.last_import_report
    assert outcome is not None and len(outcome.report.added_ids) == 1
    added = window.library.paper(outcome.report.added_ids[0])
    assert added is not None and added.key == "NeurIPS-2025"


def test_export_and_copy_follow_the_export_preferences(window: MainWindow, qtbot: QtBot,
                                                       settings: Settings, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    dialog = open_preferences(window)
    dialog.flavour_combo.setCurrentIndex(dialog.flavour_combo.findData("biblatex"))
    dialog.abstract_check.setChecked(False)
    dialog.notes_check.setChecked(True)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert load_export_options(settings) == ExportOptions(
        include_abstract=False, include_notes=True, ascii_only=False, flavour="biblatex")

    pid = window.table.selected_ids()[0]
    window.ops.set_notes(pid, "Compare with the 2023 version")
    target = tmp_path / "out.bib"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    monkeypatch.setattr(dialogs, "confirm_incomplete", lambda *args: True)
    with qtbot.waitSignal(window.exportFinished, timeout=10000):
        window.actions["export_selection"].trigger()
    text = target.read_text(encoding="utf-8")
    assert "date = {2024}" in text and "year =" not in text
    assert "abstract =" not in text
    assert "annote = {Compare with the 2023 version}" in text

    window.actions["copy_bibtex"].trigger()
    copied = QApplication.clipboard().text()
    assert "date = {2024}" in copied and "abstract =" not in copied

    # The dialog opens again on what was saved.
    again = open_preferences(window)
    assert again.flavour_combo.currentData() == "biblatex"
    assert not again.abstract_check.isChecked() and again.notes_check.isChecked()
    again.reject()


def test_the_interface_language_is_a_preference(window: MainWindow) -> None:
    from papershelf.gui import settings as S

    dialog = window.features.admin.show_preferences()
    assert dialog.language() == "system"
    dialog.language_combo.setCurrentIndex(dialog.language_combo.findData("zh_CN"))
    dialog.accept()
    assert window.settings.get(S.LANGUAGE) == "zh_CN"


# ---------------------------------------------------------------------- network


@pytest.fixture
def clean_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network setting of the machine running the tests leaks in."""
    for service in SERVICES.values():
        monkeypatch.delenv(service.url_env, raising=False)
        monkeypatch.delenv(service.key_env, raising=False)
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    monkeypatch.delenv("PAPERSHELF_CONTACT", raising=False)


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch, clean_network: None) -> MemoryKeyring:
    """An in-memory keyring instead of the user's, for the test."""
    backend = MemoryKeyring()
    use_keyring(monkeypatch, backend)
    return backend


@pytest.fixture
def lone_dialog(qtbot: QtBot) -> Iterator[Callable[[], PreferencesDialog]]:
    """`make()`: a Preferences dialog without a window, closed and deleted at the end."""
    made: list[PreferencesDialog] = []

    def make() -> PreferencesDialog:
        dialog = PreferencesDialog(keys.DEFAULT_PATTERN, ExportOptions())
        made.append(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        return dialog

    yield make
    for dialog in made:
        dialog.close()
        dialog.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_network_preferences_reach_every_lookup(window: MainWindow, qtbot: QtBot,
                                                settings: Settings, tmp_path: Path,
                                                memory_keyring: MemoryKeyring,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = open_preferences(window)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    openalex = dialog.key_edits["openalex"]
    assert not dialog.offline_check.isChecked() and dialog.contact_edit.text() == ""
    assert openalex.echoMode() == QLineEdit.EchoMode.Password
    assert openalex.placeholderText() == "No key stored"
    assert not dialog.remove_buttons["openalex"].isEnabled()
    assert dialog.network_status.text() == "Keys are kept in the system keyring, never in a file."
    assert dialog.network_problem.isHidden() and dialog.environment_note.isHidden()

    qtbot.mouseClick(dialog.offline_check, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.contact_edit, "reader@example")
    assert not ok.isEnabled()
    assert dialog.network_problem.text() == ("Contact e-mail: not an e-mail address "
                                             "(name@example.org)")
    qtbot.keyClicks(dialog.contact_edit, ".org")
    assert ok.isEnabled() and dialog.network_problem.isHidden()
    qtbot.keyClicks(openalex, "oa secret")
    assert not ok.isEnabled() and "OpenAlex API key: an API key has no spaces" in \
        dialog.network_problem.text()
    openalex.clear()
    qtbot.keyClicks(openalex, "oa-secret-123")
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()

    # The key is in the keyring and nowhere else: not in the settings file, not in the
    # network preferences, not in any file of the (test) home.
    assert memory_keyring.entries == {("papershelf", "openalex"): "oa-secret-123"}
    assert load_network_preferences() == NetworkPreferences(offline=True,
                                                            contact="reader@example.org")
    settings.sync()
    assert (tmp_path / "settings.ini").is_file()
    assert files_holding("oa-secret-123", tmp_path, Path.home()) == []

    # Working offline: every lookup is refused in one line, nothing is asked.
    asked: list[httpx.Request] = []

    def network(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return httpx.Response(200, json={"results": []})

    with make_client(HttpSettings(use_cache=False), transport=httpx.MockTransport(network)) \
            as client, pytest.raises(Offline) as refused:
        lookup(Identifier("doi", "10.18653/v1/n19-1423"), client)
    assert str(refused.value) == "Crossref: offline mode is on; no request was made"
    assert asked == []

    # PAPERSHELF_OFFLINE still wins; then the contact and the key go with the request.
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "0")
    with make_client(HttpSettings(use_cache=False),
                     transport=httpx.MockTransport(network)) as client:
        client.get("openalex", "/works", {"search": "bookshelves"})
    (request,) = asked
    assert request.url.params["api_key"] == "oa-secret-123"
    assert request.url.params["mailto"] == "reader@example.org"
    assert request.headers["User-Agent"].endswith("(mailto:reader@example.org)")

    # Opens on what was saved, the key still unseen.
    again = window.features.admin.show_preferences()
    assert again.offline_check.isChecked()
    assert again.contact_edit.text() == "reader@example.org"
    assert again.key_edits["openalex"].text() == ""
    assert again.key_edits["openalex"].placeholderText().startswith("A key is stored")
    assert "PAPERSHELF_OFFLINE" in again.environment_note.text()
    assert not again.environment_note.isHidden()
    again.reject()


def test_remove_deletes_the_stored_key(lone_dialog: Callable[[], PreferencesDialog],
                                       qtbot: QtBot, memory_keyring: MemoryKeyring,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store_key("s2", "s2-secret")
    monkeypatch.setenv("PAPERSHELF_S2_KEY", "from-env")
    dialog = lone_dialog()
    s2, remove = dialog.key_edits["s2"], dialog.remove_buttons["s2"]
    assert s2.text() == "" and s2.placeholderText().startswith("A key is stored")
    assert not any("s2-secret" in label.text() for label in dialog.findChildren(QLabel))
    assert dialog.environment_note.text() == ("Set in the environment, which wins over "
                                              "these preferences: PAPERSHELF_S2_KEY")
    assert remove.isEnabled() and not dialog.remove_buttons["openalex"].isEnabled()

    qtbot.mouseClick(remove, Qt.MouseButton.LeftButton)
    assert memory_keyring.entries == {}  # at once, whatever closes the dialog
    assert not remove.isEnabled() and s2.placeholderText() == "No key stored"
    assert dialog.network_status.text() == ("The Semantic Scholar key was removed from the "
                                            "keyring.")
    dialog.reject()
    assert memory_keyring.entries == {}


def test_without_a_keyring_keys_are_not_stored(lone_dialog: Callable[[], PreferencesDialog],
                                               qtbot: QtBot, clean_network: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    use_keyring(monkeypatch, fail.Keyring())
    dialog = lone_dialog()
    assert dialog.network_status.text() == (
        "No system keyring is available, so API keys cannot be stored here; set "
        "PAPERSHELF_OPENALEX_KEY, PAPERSHELF_S2_KEY instead.")
    for name, edit in dialog.key_edits.items():
        assert not edit.isEnabled() and not dialog.remove_buttons[name].isEnabled()
    qtbot.keyClicks(dialog.contact_edit, "reader@example.org")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()  # the rest is saved all the same
    assert load_network_preferences().contact == "reader@example.org"


def test_a_key_the_keyring_refuses_keeps_the_dialog_open(
    lone_dialog: Callable[[], PreferencesDialog], qtbot: QtBot,
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch,
) -> None:
    def locked(service: str, username: str, password: str) -> None:
        raise KeyringLocked("the keyring\nis locked")

    monkeypatch.setattr(memory_keyring, "set_password", locked)
    dialog = lone_dialog()
    qtbot.keyClicks(dialog.key_edits["openalex"], "oa-secret")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert dialog.network_status.text() == "OpenAlex key not stored: the keyring is locked"
    assert load_network_preferences() == NetworkPreferences()  # nothing saved half

"""Entry point: `papershelf COMMAND ...` runs the command line; no command opens the window."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

from papershelf import launch
from papershelf.launch import HELP_OPTIONS


def main(argv: Sequence[str] | None = None) -> int:
    """Run Papershelf; returns the process exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if not launch.for_the_window(args):
            from papershelf.cli.main import run  # (the window imports neither it nor the core)

            status = run(args, sys.stdout, sys.stderr)
            if status != 0 or launch.first_command(args) != launch.READ \
                    or HELP_OPTIONS & set(args):
                return status
            from papershelf.gui.app import run_gui  # (`read`: the paper checked, its window)

            return run_gui(launch.read_arguments(args))
        parsed = launch.parse_window_arguments(args)
        if parsed.install_desktop or parsed.uninstall_desktop:
            from papershelf.cli.main import desktop_integration

            return desktop_integration(parsed, sys.stdout, sys.stderr)
        from papershelf.gui.app import run_gui

        return run_gui(parsed)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # our bug: one line for the user, the details in a log file
        log = _log_crash()
        sys.stderr.write(f"{launch.PROG}: internal error: {exc!r} (details in {log})\n")
        return 2


def _log_crash() -> str:
    """Append the current traceback to the crash log and return its path."""
    import platformdirs

    from papershelf.core.paths import APP_NAME

    try:
        folder = platformdirs.user_log_path(APP_NAME, appauthor=False, ensure_exists=True)
        path = folder / "crash.log"
        with open(path, "a", encoding="utf-8") as handle:
            traceback.print_exc(file=handle)
        return str(path)
    except OSError:
        return "(no log: the log folder cannot be written)"


if __name__ == "__main__":
    sys.exit(main())

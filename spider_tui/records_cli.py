"""``spider export [last | N]``, ``spider import FILE`` and the argument of ``spider replay``
(SPEC §16).  A file that isn't a record, or a move of it that breaks, is one line on stderr and
exit status 2; nothing else changes."""

from __future__ import annotations

import sys

from spider_tui import cli_args
from spider_tui.i18n import _


def _data_dir_arg(p: cli_args.Parser) -> None:
    p.add_argument("--data-dir", metavar="DIR", help=_("where save.toml and records/ live (default: the user data dir)"))


def _store(data_dir: str | None):
    from spider_tui.store import resolve_data_dir
    from spider_tui.store.records import RecordStore

    return RecordStore(resolve_data_dir(data_dir))


def export_parser() -> cli_args.Parser:
    p = cli_args.Parser(prog="spider export", description=_("Print a round's record to stdout."))
    p.add_argument("which", nargs="?", default="last", metavar="last|N",
                   help=_("the newest record (last, the default) or the Nth newest"))
    _data_dir_arg(p)
    return p


def load(which: str, data_dir: str | None, prog: str):
    """(record, text) of ``which`` (``last``, ``N`` or a file), checked; UsageError otherwise."""
    from spider_tui.records import RecordError
    from spider_tui.store.records import RecordsError

    try:
        return _store(data_dir).load(which)
    except (RecordsError, RecordError) as e:
        err = cli_args.UsageError(str(e))
        err.prog = prog  # type: ignore[attr-defined]
        raise err from None


def cmd_export(argv: list[str]) -> int:
    args = export_parser().parse_args(argv)
    if not (args.which == "last" or args.which.isdigit()):
        raise _usage("spider export", _("which record: last or a number N (the Nth newest)"))
    text = load(args.which, args.data_dir, "spider export")[1]
    sys.stdout.write(text)
    return 0


def import_parser() -> cli_args.Parser:
    p = cli_args.Parser(prog="spider import", description=_("Add a record file to your records (checked by replaying it)."))
    p.add_argument("file", metavar="FILE", help=_("a record file (docs/records.md)"))
    _data_dir_arg(p)
    return p


def _usage(prog: str, text: str) -> cli_args.UsageError:
    err = cli_args.UsageError(text)
    err.prog = prog  # type: ignore[attr-defined]
    return err


def cmd_import(argv: list[str]) -> int:
    from spider_tui.records import RecordError, share_line
    from spider_tui.store.records import RecordsError

    args = import_parser().parse_args(argv)
    store = _store(args.data_dir)
    try:
        path, record = store.import_file(args.file)
    except RecordError as e:
        raise _usage("spider import", f"{args.file}: {e}") from None
    except RecordsError as e:
        raise _usage("spider import", str(e)) from None
    from spider_tui.safe_text import visible

    print(visible(_("Added {path}: {line}").format(path=path, line=share_line(record)), newlines=False))
    return 0

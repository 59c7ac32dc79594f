"""The gettext catalogs (SPEC §17): extract, update and compile, with the standard library only.

    python scripts/catalog.py update    # spider_tui's _()/N_()/ngettext() texts -> po/spider.pot,
                                        # merged into po/de.po (new texts get an empty msgstr)
    python scripts/catalog.py compile   # po/<lang>.po -> spider_tui/locale/<lang>/LC_MESSAGES/spider.mo
    python scripts/catalog.py check     # exit 1 when the .pot, a .po or a .mo is behind the code

The ``.mo`` files are committed inside the package, so ``pip install .`` and ``pip install -e .``
both carry them; ``tests/test_i18n.py`` checks that they match the ``.po`` files.  Extraction reads
the source with :mod:`ast`: a call ``_("...")``, ``N_("...")`` or ``ngettext("...", "...", n)``
whose texts are string literals (implicit concatenation included).
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "spider_tui"
PO_DIR = ROOT / "po"
POT = PO_DIR / "spider.pot"
LANGS = ("de",)
HEADER = ("Project-Id-Version: spider-tui\n"
          "MIME-Version: 1.0\n"
          "Content-Type: text/plain; charset=UTF-8\n"
          "Content-Transfer-Encoding: 8bit\n"
          "Plural-Forms: nplurals=2; plural=(n != 1);\n")


@dataclass
class Entry:
    msgid: str  # with its context first, joined by "\x04" (as the .mo keys it)
    plural: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    where: list[str] = field(default_factory=list)
    fuzzy: bool = False


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract(package: Path = PACKAGE) -> dict[str, Entry]:
    """Every translatable text in ``package``'s Python files, by msgid, in source order."""
    found: dict[str, Entry] = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name, args = node.func.id, node.args
            if name in ("_", "N_") and len(args) == 1 and (text := _literal(args[0])) is not None:
                entry = found.setdefault(text, Entry(text))
            elif name in ("pgettext", "NP_") and len(args) == 2 and (ctx := _literal(args[0])) is not None \
                    and (text := _literal(args[1])) is not None:
                entry = found.setdefault(f"{ctx}\x04{text}", Entry(f"{ctx}\x04{text}"))
            elif (name == "ngettext" and len(args) == 3) or (name == "NN_" and len(args) == 2):
                one, many = _literal(args[0]), _literal(args[1])
                if one is None or many is None:
                    continue
                entry = found.setdefault(one, Entry(one, many, ["", ""]))
            else:
                continue
            entry.where.append(f"{rel}:{node.lineno}")
    for e in found.values():
        e.where.sort(key=lambda w: (w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1])))
    return dict(sorted(found.items(), key=lambda kv: _place(kv[1].where[0])))


def _place(where: str) -> tuple[str, int]:
    path, line = where.rsplit(":", 1)
    return path, int(line)


def _quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    lines = body.split("\n")
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    if len(parts) <= 1:
        return f'"{parts[0] if parts else ""}"'
    return '""\n' + "\n".join(f'"{p}"' for p in parts)


def _unquote(text: str) -> str:
    text = text.strip()
    assert text.startswith('"') and text.endswith('"'), text
    out, body, i = [], text[1:-1], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while i < len(body):
        c = body[i]
        if c == "\\":
            out.append(escapes[body[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_po(path: Path) -> dict[str, Entry]:
    """The entries of a ``.po`` (or ``.pot``) file by msgid; the header is under ``""``."""
    entries: dict[str, Entry] = {}
    cur: Entry | None = None
    key: tuple[str, int] | None = None
    context: str | None = None
    flags: list[str] = []
    where: list[str] = []

    def finish() -> None:
        nonlocal cur
        if cur is not None:
            entries[cur.msgid] = cur
        cur = None

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            finish()
            key, flags, where = None, [], []
            continue
        if line.startswith("#,"):
            flags += [f.strip() for f in line[2:].split(",")]
            continue
        if line.startswith("#:"):
            where += line[2:].split()
            continue
        if line.startswith("#"):
            continue
        if line.startswith("msgctxt "):
            finish()
            context = _unquote(line[8:])
            key = ("ctxt", 0)
            continue
        if line.startswith("msgid_plural "):
            assert cur is not None
            cur.plural = _unquote(line[13:])
            cur.msgstr = ["", ""]
            key = ("plural", 0)
        elif line.startswith("msgid "):
            if key is None or key[0] != "ctxt":
                finish()
                context = None
            text = _unquote(line[6:])
            cur = Entry(text if context is None else f"{context}\x04{text}", where=list(where), fuzzy="fuzzy" in flags)
            context = None
            key = ("msgid", 0)
        elif line.startswith("msgstr["):
            assert cur is not None
            n = int(line[7:line.index("]")])
            while len(cur.msgstr) <= n:
                cur.msgstr.append("")
            cur.msgstr[n] = _unquote(line[line.index("]") + 1:])
            key = ("msgstr", n)
        elif line.startswith("msgstr "):
            assert cur is not None
            cur.msgstr = [_unquote(line[7:])]
            key = ("msgstr", 0)
        elif line.startswith('"'):
            assert key is not None
            more = _unquote(line)
            if key[0] == "ctxt":
                context = (context or "") + more
                continue
            assert cur is not None
            if key[0] == "msgid":
                cur.msgid += more
            elif key[0] == "plural":
                cur.plural = (cur.plural or "") + more
            else:
                cur.msgstr[key[1]] += more
    return entries


def write_po(path: Path, entries: dict[str, Entry], header: str = HEADER) -> None:
    out = [f"msgid \"\"\nmsgstr {_quote(header)}\n"]
    for e in entries.values():
        if e.msgid == "":
            continue
        lines = []
        for i in range(0, len(e.where), 4):
            lines.append("#: " + " ".join(e.where[i:i + 4]))
        if e.fuzzy:
            lines.append("#, fuzzy")
        if any(c in e.msgid for c in "{}%"):
            lines.append("#, python-brace-format" if "{" in e.msgid else "#, python-format")
        ctx, sep, msgid = e.msgid.rpartition("\x04")
        if sep:
            lines.append(f"msgctxt {_quote(ctx)}")
        lines.append(f"msgid {_quote(msgid)}")
        if e.plural is not None:
            lines.append(f"msgid_plural {_quote(e.plural)}")
            for n, s in enumerate(e.msgstr):
                lines.append(f"msgstr[{n}] {_quote(s)}")
        else:
            lines.append(f"msgstr {_quote(e.msgstr[0])}")
        out.append("\n".join(lines) + "\n")
    path.write_text("\n".join(out), encoding="utf-8")


def merged(pot: dict[str, Entry], po: dict[str, Entry]) -> dict[str, Entry]:
    """``pot``'s entries with ``po``'s translations (texts gone from the code are dropped)."""
    out: dict[str, Entry] = {}
    for msgid, e in pot.items():
        old = po.get(msgid)
        msgstr = list(old.msgstr) if old is not None and len(old.msgstr) == len(e.msgstr) else list(e.msgstr)
        out[msgid] = Entry(msgid, e.plural, msgstr, list(e.where), old.fuzzy if old is not None else False)
    return out


def catalog(entries: dict[str, Entry], header: str = HEADER) -> dict[str, str]:
    """What the ``.mo`` holds: msgid (``one\\0many`` for a plural) -> msgstr (forms joined by ``\\0``),
    untranslated and fuzzy entries left out (they read in English)."""
    out = {"": header}
    for e in entries.values():
        if e.msgid == "" or e.fuzzy or not all(e.msgstr):
            continue
        key = e.msgid if e.plural is None else f"{e.msgid}\0{e.plural}"
        out[key] = "\0".join(e.msgstr)
    return out


def mo_bytes(messages: dict[str, str]) -> bytes:
    """A GNU ``.mo`` file of ``messages`` (as the standard library's ``Tools/i18n/msgfmt.py``)."""
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode("utf-8"), messages[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    keystart = 7 * 4 + 16 * len(keys)
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    output = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    output += struct.pack(f"{len(koffsets)}i", *koffsets) + struct.pack(f"{len(voffsets)}i", *voffsets)
    return output + ids + strs


def mo_path(lang: str) -> Path:
    return PACKAGE / "locale" / lang / "LC_MESSAGES" / "spider.mo"


def update() -> None:
    pot = extract()
    PO_DIR.mkdir(exist_ok=True)
    write_po(POT, pot)
    for lang in LANGS:
        path = PO_DIR / f"{lang}.po"
        old = read_po(path) if path.exists() else {}
        write_po(path, merged(pot, old))


def compile_all() -> None:
    for lang in LANGS:
        path = mo_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(mo_bytes(catalog(read_po(PO_DIR / f"{lang}.po"))))


def behind() -> list[str]:
    """What is out of date: the .pot against the code, a .po against the .pot, a .mo against its .po."""
    problems = []
    code = extract()
    if not POT.exists() or set(read_po(POT)) - {""} != set(code):
        problems.append(f"{POT.relative_to(ROOT)} is behind the code: python scripts/catalog.py update")
    for lang in LANGS:
        po = read_po(PO_DIR / f"{lang}.po")
        missing = [m for m in code if m not in po or not all(po[m].msgstr) or po[m].fuzzy]
        if missing:
            problems.append(f"po/{lang}.po lacks {len(missing)} translations, e.g. {missing[0]!r}")
        if not mo_path(lang).exists() or mo_path(lang).read_bytes() != mo_bytes(catalog(po)):
            problems.append(f"{mo_path(lang).relative_to(ROOT)} is behind po/{lang}.po: python scripts/catalog.py compile")
    return problems


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        update()
    elif argv == ["compile"]:
        compile_all()
    elif argv == ["check"]:
        problems = behind()
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

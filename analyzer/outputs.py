"""Where a command's results go. Every output path is checked before any work starts (its
folder exists and is writable, it is not one of the inputs, it ends as it must), and every file
is written to a temporary name beside it and renamed when complete, so a crash or Ctrl-C never
leaves a half-written file under the final name."""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from .errors import UserError


def strict(obj):
    """``obj`` made fit for strict JSON: NaN and infinities become None (``null``), numpy
    numbers and booleans plain Python ones, tuples lists; recursively through dicts and
    lists."""
    if isinstance(obj, dict):
        return {str(k): strict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [strict(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def json_text(obj, indent: int | None = 2) -> str:
    """Strict JSON text of ``obj`` (see :func:`strict`): what every ``--json`` prints, so a
    browser's ``JSON.parse`` reads it."""
    return json.dumps(strict(obj), indent=indent, ensure_ascii=False, allow_nan=False)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _check_folder(folder: Path, flag: str, path: Path) -> None:
    if not folder.exists():
        raise UserError(f"{flag} {path}: the folder {folder} does not exist (create it first)")
    if not folder.is_dir():
        raise UserError(f"{flag} {path}: {folder} is a file, not a folder")
    probe = folder / f".euchre-probe-{os.getpid()}"
    try:  # try it: permissions, read-only file systems and /proc all answer the same way
        os.close(os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        os.unlink(probe)
    except OSError as e:
        raise UserError(f"{flag} {path}: cannot write in {folder} "
                        f"({(e.strerror or str(e)).lower()})") from None


def _check_named(path, flag: str, what: str) -> None:
    """An empty name would be the current folder (``-o ""`` wrote a dozen files there)."""
    if not str(path).strip():
        raise UserError(f"{flag} is empty: give {what}")


def check_output(path: Path | str, *, inputs=(), suffixes: tuple[str, ...] = (),
                 flag: str = "-o") -> Path:
    """``path`` as a Path when a file can be written there: its folder exists and is
    writable, it is not a folder, not an existing file we may not replace, not one of
    ``inputs``, and (when given) it ends in one of ``suffixes``. Raises UserError naming the
    problem otherwise."""
    _check_named(path, flag, "a file name")
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise UserError(f"{flag} {path}: the output must end in {' or '.join(suffixes)}")
    for given in inputs:
        if given is not None and str(given) != "-" and _same_file(path, Path(given)):
            raise UserError(f"{flag} {path} is the input file: choose another output")
    if path.is_dir():
        raise UserError(f"{flag} {path} is a folder: give a file name")
    _check_folder(path.parent if str(path.parent) else Path("."), flag, path)
    if path.exists() and not os.access(path, os.W_OK):
        raise UserError(f"{flag} {path}: the file exists and cannot be replaced (permission "
                        f"denied)")
    return path


def check_output_dir(path: Path | str, flag: str = "-o") -> Path:
    """``path`` as a Path when it is a writable folder, or can be made one (its parent exists
    and is writable). Raises UserError naming the problem otherwise."""
    _check_named(path, flag, "a folder name")
    path = Path(path)
    if path.exists():
        if not path.is_dir():
            raise UserError(f"{flag} {path} is a file: give a folder for the tables")
        _check_folder(path, flag, path)
    else:
        _check_folder(path.parent if str(path.parent) else Path("."), flag, path)
    return path


def temporary_name(path: Path) -> Path:
    """A name beside ``path`` for writing it before the rename (hidden, per process)."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


@contextlib.contextmanager
def written_whole(path: Path | str) -> Iterator[Path]:
    """Write to the yielded temporary path; on success it replaces ``path`` at once, on any
    error (or Ctrl-C) it is removed and ``path`` is left as it was. An OSError while writing
    becomes a UserError naming the file."""
    path = Path(path)
    tmp = temporary_name(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()

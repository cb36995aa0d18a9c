"""``ckpt_to_safetensors`` and ``safetensors_to_ckpt``: convert checkpoint files between the two formats.

Both reuse this package's readers and writers (:mod:`.ckpt_format`,
:mod:`.safetensors_format`): nothing is executed while reading, and each file
is written atomically. A file converts to the same name with the other suffix,
beside it or under ``save_path``; a directory converts the files of its
``rank*`` sub-directories (MindSpore's layout of a distributed job's
checkpoints) into the same sub-directories of ``save_path``. Files are
converted one after the other; ``processes_num`` is checked and accepted.
"""
from __future__ import annotations

import os
import re
from typing import Any

from mindjax.train.serialization.ckpt_format import read_ckpt, write_ckpt
from mindjax.train.serialization.safetensors_format import read_safetensors, write_safetensors

__all__ = ["ckpt_to_safetensors", "safetensors_to_ckpt"]

_FORMATS = {
    "ckpt_to_safetensors": (".ckpt", ".safetensors", read_ckpt, write_safetensors),
    "safetensors_to_ckpt": (".safetensors", ".ckpt", read_safetensors, write_ckpt),
}


def _convert_one(api: str, src: str, dst_dir: str, name_map: dict[str, str] | None) -> str:
    src_suffix, dst_suffix, read, write = _FORMATS[api]
    values = read(src)
    entries = [((name_map or {}).get(name, name), value) for name, value in values.items()]
    dst = os.path.join(dst_dir, os.path.basename(src)[: -len(src_suffix)] + dst_suffix)
    write(dst, entries)
    return dst


def _convert(api: str, file_path: str, save_path: str | None, name_map: Any, file_name_regex: str | None,
             processes_num: int) -> list[str]:
    src_suffix = _FORMATS[api][0]
    if not isinstance(file_path, str) or not (os.path.isdir(file_path) or os.path.isfile(file_path)):
        raise ValueError(f"For {api}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {api}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {api}, the type of 'name_map' must be a directory, but got '{type(name_map)}'")
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or processes_num < 1:
        raise ValueError(f"For {api}, 'processes_num' must be a positive int, but got {processes_num!r}")
    if os.path.isfile(file_path):
        if not file_path.endswith(src_suffix):
            raise ValueError(f"For {api}, the input file must be a {src_suffix} file, but got {file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For {api}, the input file does not match the regular expression.")
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        return [_convert_one(api, file_path, save_path or os.path.dirname(file_path), name_map)]
    rank_dirs = sorted(d for d in os.listdir(file_path)
                       if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d)))
    if not rank_dirs:
        raise ValueError(f"For '{api}', no directories starting with 'rank' found in {file_path}.")
    written = []
    for rank_dir in rank_dirs:
        src_dir = os.path.join(file_path, rank_dir)
        dst_dir = os.path.join(save_path, rank_dir) if save_path is not None else src_dir
        os.makedirs(dst_dir, exist_ok=True)
        for name in sorted(os.listdir(src_dir)):
            if name.endswith(src_suffix) and (file_name_regex is None or re.search(file_name_regex, name)):
                written.append(_convert_one(api, os.path.join(src_dir, name), dst_dir, name_map))
    return written


def ckpt_to_safetensors(file_path: str, save_path: str | None = None, name_map: dict[str, str] | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert MindSpore ``.ckpt`` files to ``.safetensors`` (MindSpore's ``ckpt_to_safetensors``).

    Arguments:
        file_path (str): a ``.ckpt`` file, or a directory whose ``rank*`` sub-directories hold them.
        save_path (str, optional): the directory to write to; beside the sources when None. Default: ``None``.
        name_map (dict, optional): new names for parameters (``{old: new}``). Default: ``None``.
        file_name_regex (str, optional): convert only the files whose name matches. Default: ``None``.
        processes_num (int, optional): accepted (files are converted in turn). Default: ``1``.

    Raises:
        ValueError: a missing path, a ``save_path`` with a suffix, a ``name_map`` that is not a dict,
            a file of another suffix or not matching ``file_name_regex``, or a directory without
            ``rank*`` sub-directories.
        CheckpointFormatError: a source file is not a valid checkpoint.

    Example:
        >>> import mindjax as ms
        >>> ms.ckpt_to_safetensors("./ckpt/rank0/net.ckpt", "./st")  # doctest: +SKIP
    """
    _convert("ckpt_to_safetensors", file_path, save_path, name_map, file_name_regex, processes_num)


def safetensors_to_ckpt(file_path: str, save_path: str | None = None, name_map: dict[str, str] | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert ``.safetensors`` files to MindSpore ``.ckpt`` (MindSpore's ``safetensors_to_ckpt``).

    Arguments and errors are those of :func:`ckpt_to_safetensors`, with the suffixes the other way round.

    Example:
        >>> import mindjax as ms
        >>> ms.safetensors_to_ckpt("./st/net.safetensors", "./ckpt")  # doctest: +SKIP
    """
    _convert("safetensors_to_ckpt", file_path, save_path, name_map, file_name_regex, processes_num)

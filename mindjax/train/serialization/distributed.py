"""MindSpore's distributed checkpoints: per-rank sliced files, merged or re-sliced here.

MindSpore saves one checkpoint per rank (``rank_0/net.ckpt``, ``rank_1/...``),
each holding that rank's slices, and a strategy file saying how each
parameter is sliced (see :mod:`mindjax.parallel.strategy_file`). MindJAX's
parameters are global arrays, so:

- :func:`load_distributed_checkpoint` merges the ranks' slices into whole
  parameters and loads them into the network (the current plan lays them
  out on the devices);
- :func:`transform_checkpoints` and :func:`transform_checkpoint_by_rank`
  merge the slices of a source strategy and cut them again for a
  destination strategy (``None``: whole parameters, one rank), writing
  MindSpore-format files that MindSpore loads.

Slices are read with MindJAX's own ckpt reader; nothing is unpickled.

Example:
    >>> files = [f"ckpt/rank_{r}/net.ckpt" for r in range(4)]                     # doctest: +SKIP
    >>> ms.load_distributed_checkpoint(net, files, None, "ckpt/strategy.ckpt")   # doctest: +SKIP
"""
from __future__ import annotations

import glob
import os
import re
from typing import Any, Mapping, Sequence

import numpy as np

from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.parallel.strategy_file import ParamLayout, cut_slice, layouts_of, merge_slices, rank_list_for_transform
from mindjax.train.serialization.api import load_checkpoint, load_param_into_net
from mindjax.train.serialization.ckpt_format import read_ckpt, write_ckpt
from mindjax.train.serialization.safetensors_format import read_safetensors

__all__ = ["load_distributed_checkpoint", "transform_checkpoints", "transform_checkpoint_by_rank",
           "convert_checkpoints", "convert_checkpoint_by_rank", "rank_list_for_convert", "load_segmented_checkpoints",
           "unified_safetensors"]


def _read(path: str, format: str) -> dict[str, Any]:
    return read_safetensors(path) if format == "safetensors" else read_ckpt(path)


def _stage_devices(layouts: Mapping[str, ParamLayout]) -> int:
    return next(iter(layouts.values())).device_num if layouts else 1


def _opt_candidates(layout: ParamLayout) -> list[bool]:
    """How the slices may be cut: MindSpore writes optimizer-sharded slices when the layout has a shard."""
    return [True, False] if layout.opt_factor() > 1 else [False]


def _merge_param(name: str, layout: ParamLayout, per_rank: Mapping[int, Any], files: Mapping[int, str], who: str,
                 full_shape: Sequence[int] | None = None, opt_sharded: bool | None = None) -> np.ndarray:
    """Merge parameter ``name`` from the ranks of its stage; errors name the files."""
    n = layout.device_num
    stage = layout.stages[0]
    ranks = [stage * n + r for r in range(n)]
    missing = [r for r in ranks if r not in per_rank]
    if missing:
        where = ", ".join(f"{files[r]} (rank {r})" for r in missing if r in files) or \
            f"no checkpoint of rank(s) {missing}"
        raise ValueError(f"For '{who}', parameter '{name}' is sliced over ranks {ranks[0]}..{ranks[-1]}, but it is "
                         f"missing from {where}")
    slices = [per_rank[r] for r in ranks]
    sources = [files.get(r, f"rank {r}") for r in ranks]
    candidates = [opt_sharded] if opt_sharded is not None else _opt_candidates(layout)
    errors = []
    for opt in candidates:
        try:
            return merge_slices(name, slices, layout, opt, who, sources, full_shape)
        except ValueError as exc:
            errors.append(exc)
    raise errors[0]


def _collect(files: Mapping[int, str], format: str, who: str) -> dict[str, dict[int, Any]]:
    by_name: dict[str, dict[int, Any]] = {}
    for rank, path in sorted(files.items()):
        if not isinstance(path, str) or not os.path.isfile(path):
            raise ValueError(f"For '{who}', the checkpoint file of rank {rank} does not exist: {path}")
        for name, value in _read(path, format).items():
            by_name.setdefault(name, {})[rank] = value
    return by_name


def load_distributed_checkpoint(network: Cell, checkpoint_filenames: Sequence[str] | None = None,
                                predict_strategy: Any = None, train_strategy_filename: str | None = None,
                                strict_load: bool = False, dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                                format: str = "ckpt", unified_safetensors_dir: str | None = None,
                                dst_safetensors_dir: str | None = None, rank_id: int | None = None,
                                output_format: str = "safetensors", name_map: Mapping[str, str] | None = None,
                                max_process_num: int = 64, return_param_dict: bool = False) -> Any:
    """Merge the ranks' sliced checkpoints and load the whole parameters into ``network``.

    Arguments:
        network: the network to load into.
        checkpoint_filenames: one file per training rank, in rank order (all stages).
        predict_strategy: accepted: MindJAX's parameters are global arrays that the
            current plan lays out, so no per-rank cut is needed.
        train_strategy_filename: the training strategy file; ``None``: the context's
            ``strategy_ckpt_load_file``. Parameters it does not name are loaded
            from the first file as they are.
        strict_load: passed to ``load_param_into_net``.
        dec_key, dec_mode: decryption is not supported (``dec_key`` must be None).
        format: ``"ckpt"`` or ``"safetensors"`` (the files' format).
        name_map: ``{name in the checkpoint: name in the network}``.
        return_param_dict: return ``{name: Parameter}`` instead of loading.
        unified_safetensors_dir, dst_safetensors_dir, rank_id, output_format,
        max_process_num: accepted for compatibility (the merge happens in memory).

    Returns:
        ``True``, or the merged ``{name: Parameter}`` with ``return_param_dict``.

    Raises:
        TypeError: bad argument types.
        ValueError: a missing file, a file count that differs from the strategy's
            rank count, or slices whose shapes disagree (naming the parameter, the
            file, expected and got).
    """
    who = "load_distributed_checkpoint"
    if not isinstance(network, Cell):
        raise TypeError(f"For '{who}', 'network' must be a Cell, got {type(network).__name__}")
    if format not in ("ckpt", "safetensors") or output_format not in ("ckpt", "safetensors"):
        raise ValueError(f"For '{who}', 'format' and 'output_format' must be 'ckpt' or 'safetensors', got "
                         f"{format!r} and {output_format!r}")
    if dec_key is not None:
        raise ValueError(f"For '{who}', encrypted checkpoints are not supported: 'dec_key' must be None")
    if not isinstance(checkpoint_filenames, (list, tuple)) or not checkpoint_filenames or \
            not all(isinstance(f, str) for f in checkpoint_filenames):
        raise TypeError(f"For '{who}', 'checkpoint_filenames' must be a non-empty list of file names, got "
                        f"{checkpoint_filenames!r}")
    if train_strategy_filename is None:
        train_strategy_filename = context._PARALLEL["strategy_ckpt_config"].get("load_file") or None
    if train_strategy_filename is None:
        raise ValueError(f"For '{who}', no training strategy: pass 'train_strategy_filename' or set "
                         f"strategy_ckpt_config={{'load_file': ...}}")
    layouts = layouts_of(train_strategy_filename, who)
    if not layouts:
        return True
    stages = sorted({s for lay in layouts.values() for s in lay.stages})
    expected = _stage_devices(layouts) * len(stages)
    if len(checkpoint_filenames) != expected:
        raise ValueError(f"For '{who}', the length of 'checkpoint_filenames' should be equal to the device count of "
                         f"training process: the strategy {train_strategy_filename} lays parameters over {expected} "
                         f"ranks, but got {len(checkpoint_filenames)} file(s)")
    files = dict(enumerate(checkpoint_filenames))
    by_name = _collect(files, format, who)
    name_map = dict(name_map or {})
    shapes = {p.name: tuple(p.shape) for _, p in network.parameters_and_names()}
    merged: dict[str, Parameter] = {}
    for name, per_rank in by_name.items():
        target = name_map.get(name, name)
        layout = layouts.get(name)
        if layout is None:
            first = min(per_rank)
            value = per_rank[first]
        else:
            value = _merge_param(name, layout, per_rank, files, who, shapes.get(target))
        if isinstance(value, str):
            continue
        merged[target] = Parameter(np.array(value), name=target)
    unknown = [n for n in layouts if n not in by_name]
    if unknown and strict_load:
        raise ValueError(f"For '{who}', the strategy {train_strategy_filename} names parameter(s) {unknown} that no "
                         f"checkpoint file holds")
    if return_param_dict:
        return merged
    load_param_into_net(network, merged, strict_load)
    return True


def _check_strategy_arg(who: str, name: str, value: Any) -> None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"For '{who}', '{name}' must be a str or None, got {type(value).__name__}")


def _merged_whole(by_name: Mapping[str, Mapping[int, Any]], src: Mapping[str, ParamLayout],
                  files: Mapping[int, str], who: str) -> dict[str, Any]:
    """Every parameter whole: merged by its source layout, or (not in it) taken from its first rank."""
    whole: dict[str, Any] = {}
    for name, per_rank in by_name.items():
        layout = src.get(name)
        if layout is None:
            whole[name] = per_rank[min(per_rank)]
            continue
        # MindSpore's transform reads optimizer-sharded slices when the layout has a shard.
        whole[name] = _merge_param(name, layout, per_rank, files, who,
                                   opt_sharded=layout.opt_factor() > 1)
    return whole


def _cut_for_rank(whole: Mapping[str, Any], dst: Mapping[str, ParamLayout], rank: int) -> list[tuple[str, Any]]:
    if not dst:
        return list(whole.items())
    n = _stage_devices(dst)
    stage, local = divmod(rank, n)
    entries = []
    for name, value in whole.items():
        layout = dst.get(name)
        if layout is None:
            entries.append((name, value))
        elif stage in layout.stages:
            entries.append((name, cut_slice(value, layout, local, layout.opt_factor() > 1)))
    return entries


def transform_checkpoint_by_rank(rank_id: int, checkpoint_files_map: Mapping[int, str], save_checkpoint_file_name: str,
                                 src_strategy_file: str | None = None, dst_strategy_file: str | None = None) -> None:
    """Write destination rank ``rank_id``'s checkpoint from the source ranks' files.

    Arguments:
        rank_id: the destination rank.
        checkpoint_files_map: ``{source rank: file}``; at least the ranks
            ``rank_list_for_transform`` names.
        save_checkpoint_file_name: the file to write (``.ckpt``).
        src_strategy_file: the source strategy; ``None``: the files hold whole parameters.
        dst_strategy_file: the destination strategy; ``None``: whole parameters.

    Raises:
        TypeError: bad argument types; ValueError: a missing file, a name not ending in
            ``.ckpt``, or slices that do not fit the strategy.
    """
    who = "transform_checkpoint_by_rank"
    if not isinstance(checkpoint_files_map, Mapping):
        raise TypeError("The checkpoint_files_map should be a dict.")
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError("The rank_id should be a int.")
    if not isinstance(save_checkpoint_file_name, str):
        raise TypeError("The save_checkpoint_file_name should be a str.")
    if not save_checkpoint_file_name.endswith(".ckpt"):
        raise ValueError(f"The save_checkpoint_file_name {save_checkpoint_file_name} should end with .ckpt")
    _check_strategy_arg(who, "src_strategy_file", src_strategy_file)
    _check_strategy_arg(who, "dst_strategy_file", dst_strategy_file)
    for rank, path in checkpoint_files_map.items():
        if not isinstance(path, str) or not os.path.exists(path):
            raise ValueError(f"Checkpoint file {path} in rank {rank} not exits: for '{who}'")
    src = layouts_of(src_strategy_file, who) if src_strategy_file else {}
    dst = layouts_of(dst_strategy_file, who) if dst_strategy_file else {}
    needed = rank_list_for_transform(rank_id, src_strategy_file, dst_strategy_file)
    missing = [r for r in needed if r not in checkpoint_files_map]
    if missing:
        raise ValueError(f"For '{who}', the checkpoint files of source rank(s) {sorted(missing)} are needed for "
                         f"rank {rank_id}, but 'checkpoint_files_map' has only {sorted(checkpoint_files_map)}")
    files = dict(checkpoint_files_map)
    by_name = _collect(files, "ckpt", who)
    if src:
        by_name = _only_complete(by_name, src, _stage_devices(dst) if dst else None, rank_id, dst)
    whole = _merged_whole(by_name, src, files, who)
    os.makedirs(os.path.dirname(os.path.abspath(save_checkpoint_file_name)), exist_ok=True)
    write_ckpt(save_checkpoint_file_name, _cut_for_rank(whole, dst, rank_id))


def _only_complete(by_name: dict[str, dict[int, Any]], src: Mapping[str, ParamLayout], dst_n: int | None,
                   rank_id: int, dst: Mapping[str, ParamLayout]) -> dict[str, dict[int, Any]]:
    """Drop parameters that the destination rank's stage does not hold (pipeline stages)."""
    if not dst:
        return by_name
    stage = rank_id // (dst_n or 1)
    return {name: per_rank for name, per_rank in by_name.items()
            if name not in dst or stage in dst[name].stages}


def transform_checkpoints(src_checkpoints_dir: str, dst_checkpoints_dir: str, ckpt_prefix: str,
                          src_strategy_file: str | None = None, dst_strategy_file: str | None = None,
                          process_num: int = 1, output_format: str = "ckpt") -> None:
    """Re-slice a directory of per-rank checkpoints for another strategy.

    Reads ``src_checkpoints_dir/rank_<r>/*.ckpt`` (the last file by name in each)
    and writes ``dst_checkpoints_dir/rank_<r>/<ckpt_prefix><r>.ckpt`` for every
    destination rank (one, whole, when ``dst_strategy_file`` is None).

    Arguments:
        src_checkpoints_dir: the source directory.
        dst_checkpoints_dir: the destination directory (created).
        ckpt_prefix: the prefix of the written files.
        src_strategy_file, dst_strategy_file: the strategies (None: whole parameters).
        process_num: accepted (the conversion runs in this process).
        output_format: ``"ckpt"`` (``"safetensors"`` writes the same layout as safetensors).

    Raises:
        NotADirectoryError: no source directory; ValueError: a needed rank's file is missing.
    """
    who = "transform_checkpoints"
    if not isinstance(src_checkpoints_dir, str) or not os.path.isdir(src_checkpoints_dir):
        raise NotADirectoryError(f"src_checkpoints_dir {src_checkpoints_dir} is not a directory.")
    if not isinstance(ckpt_prefix, str):
        raise TypeError(f"For '{who}', 'ckpt_prefix' must be a str, got {type(ckpt_prefix).__name__}")
    if output_format not in ("ckpt", "safetensors"):
        raise ValueError(f"For '{who}', 'output_format' must be 'ckpt' or 'safetensors', got {output_format!r}")
    _check_strategy_arg(who, "src_strategy_file", src_strategy_file)
    _check_strategy_arg(who, "dst_strategy_file", dst_strategy_file)
    files: dict[int, str] = {}
    for path in glob.glob(os.path.join(src_checkpoints_dir, "rank_*")):
        match = re.fullmatch(r"rank_(\d+)", os.path.basename(path))
        ckpts = sorted(glob.glob(os.path.join(path, "*.ckpt"))) if match and os.path.isdir(path) else []
        if ckpts:
            files[int(match.group(1))] = ckpts[-1]
    src = layouts_of(src_strategy_file, who) if src_strategy_file else {}
    dst = layouts_of(dst_strategy_file, who) if dst_strategy_file else {}
    dst_ranks = _stage_devices(dst) * len({s for lay in dst.values() for s in lay.stages}) if dst else 1
    for rank in range(dst_ranks):
        needed = rank_list_for_transform(rank, src_strategy_file, dst_strategy_file)
        missing = [r for r in needed if r not in files]
        if missing:
            raise ValueError(f"For '{who}', the checkpoint file of rank{missing[0]} is needed for converting rank"
                             f"{rank}'s checkpoint, but it is missing: no {src_checkpoints_dir}/rank_{missing[0]}/"
                             f"*.ckpt")
    by_name = _collect(files, "ckpt", who)
    whole = _merged_whole(by_name, src, files, who)
    for rank in range(dst_ranks):
        entries = _cut_for_rank(whole, dst, rank)
        out_dir = os.path.join(dst_checkpoints_dir, f"rank_{rank}")
        os.makedirs(out_dir, exist_ok=True)
        if output_format == "safetensors":
            from mindjax.train.serialization.safetensors_format import write_safetensors

            write_safetensors(os.path.join(out_dir, f"{ckpt_prefix}{rank}.safetensors"), entries)
        else:
            write_ckpt(os.path.join(out_dir, f"{ckpt_prefix}{rank}.ckpt"), entries)


#: MindSpore's ``convert_*`` names: the same conversions as ``transform_*``.
convert_checkpoints = transform_checkpoints
convert_checkpoint_by_rank = transform_checkpoint_by_rank
rank_list_for_convert = rank_list_for_transform


def load_segmented_checkpoints(ckpt_file_dir: str, net: Cell | None = None, strict_load: bool = False,
                               filter_prefix: Any = None, dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                               specify_prefix: Any = None, choice_func: Any = None) -> dict[str, Any]:
    """Load every ``.ckpt`` file of ``ckpt_file_dir`` and combine them (MindSpore's ``load_segmented_checkpoints``).

    Each file holds some of the parameters (a pipeline stage's, say). The files are read in name
    order with :func:`load_checkpoint` (its filters apply to each); a name found in two files takes
    the later file's value, as MindSpore's dict update does.

    Arguments:
        ckpt_file_dir: the directory of the checkpoint files.
        net: when given, the combined parameters are loaded into it (:func:`load_param_into_net`).
        strict_load, filter_prefix, dec_key, dec_mode, specify_prefix, choice_func: as for
            :func:`load_checkpoint`.

    Returns:
        ``{name: Parameter}`` over all the files (empty, with a warning, when the directory holds none).

    Raises:
        TypeError: ``ckpt_file_dir`` is not a str. ValueError: it is not a directory, or a file fails
            to load (the message names it).
    """
    import warnings

    if not isinstance(ckpt_file_dir, str):
        raise TypeError(f"For 'load_segmented_checkpoints', 'ckpt_file_dir' must be a str, "
                        f"got {type(ckpt_file_dir).__name__}")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"For 'load_segmented_checkpoints', 'ckpt_file_dir' {ckpt_file_dir!r} does not exist or is "
                         f"not a directory")
    files = sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt")))
    if not files:
        warnings.warn(f"For 'load_segmented_checkpoints', {ckpt_file_dir!r} holds no .ckpt file: nothing is loaded",
                      UserWarning, stacklevel=2)
    combined: dict[str, Any] = {}
    for path in files:
        combined.update(load_checkpoint(path, None, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix,
                                        choice_func))
    if net is not None and combined:
        load_param_into_net(net, combined, strict_load)
    return combined


_PART_BYTES = 3 * 1024 ** 3  # MindSpore's unified files hold about 3 GB each


def _rank_files(src_dir: str, ext: str, suffix: str | None) -> dict[int, str]:
    """``src_dir/rank_<r>/*<suffix>.<ext>``: the last file by name per rank."""
    files: dict[int, str] = {}
    for path in glob.glob(os.path.join(src_dir, "rank_*")):
        match = re.fullmatch(r"rank_(\d+)", os.path.basename(path))
        if not match or not os.path.isdir(path):
            continue
        found = sorted(glob.glob(os.path.join(path, f"*{suffix or ''}.{ext}")))
        if found:
            files[int(match.group(1))] = found[-1]
    return files


def _split_parts(sizes: Mapping[str, int], parts: int) -> list[list[str]]:
    """The names over ``parts`` files of about equal bytes (largest first, each to the lightest part)."""
    bins: list[list[str]] = [[] for _ in range(parts)]
    loads = [0] * parts
    for name in sorted(sizes, key=lambda n: (-sizes[n], n)):
        lightest = loads.index(min(loads))
        bins[lightest].append(name)
        loads[lightest] += sizes[name]
    return [sorted(b) for b in bins]


def unified_safetensors(src_dir: str, src_strategy_file: str, dst_dir: str, merge_with_redundancy: bool = True,
                        file_suffix: str | None = None, max_process_num: int = 64, choice_func: Any = None,
                        split_dst_file: tuple[int, int] | tuple[()] = ()) -> None:
    """Merge the ranks' sliced safetensors into whole parameters in ``dst_dir`` (MindSpore's ``unified_safetensors``).

    Reads ``src_dir/rank_<r>/*.safetensors`` (the last file by name; with ``file_suffix``, the files
    ending with it), merges every parameter ``src_strategy_file`` lays out, and writes them as
    ``dst_dir/part<i>.safetensors`` (files of about 3 GB), ``param_name_map.json`` (``{"metadata":
    {"total_size": bytes}, "weight_map": {name: file}}``) and ``hyper_param.safetensors`` (rank 0's
    entries that the strategy does not name, such as the step count), as MindSpore lays them out.

    Arguments:
        src_dir: the directory of ``rank_<r>`` folders.
        src_strategy_file: the strategy file of the sliced run.
        dst_dir: where the whole parameters go (created).
        merge_with_redundancy: True: each rank's file holds all its slices (the default save);
            False (files saved with ``remove_redundancy``) is not supported and raises.
        file_suffix: read only the files whose name ends with it (before ``.safetensors``).
        max_process_num: accepted (the merge runs in this process).
        choice_func: ``name -> bool`` keeps the names it returns True for; ``name -> str`` renames.
        split_dst_file: ``(k, n)``: write only the ``k``-th of ``n`` shares of the parts (1-based);
            the map and the hyper-parameters are written by share 1.

    Raises:
        ValueError: a missing or mixed source, a needed rank's file missing, slices that do not merge
            (each naming the file or parameter).
    """
    from mindjax.train.serialization.safetensors_format import write_safetensors
    from mindjax.train.serialization.atomic import atomic_write_bytes

    who = "unified_safetensors"
    if not isinstance(src_dir, str) or os.path.isfile(src_dir):
        raise ValueError(f"For '{who}', the 'src_dir' must be a directory, got {src_dir!r}")
    if not os.path.isdir(src_dir):
        raise ValueError(f"For '{who}', the 'src_dir' {src_dir!r} does not exist")
    if not isinstance(src_strategy_file, str) or not os.path.isfile(src_strategy_file):
        raise ValueError(f"For '{who}', the 'src_strategy_file' {src_strategy_file!r} does not exist")
    if not merge_with_redundancy:
        raise NotImplementedError(f"For '{who}', merge_with_redundancy=False (sources saved with "
                                  f"remove_redundancy) is not supported: save every rank's slices whole")
    if split_dst_file and (len(split_dst_file) != 2 or not 1 <= split_dst_file[0] <= split_dst_file[1]):
        raise ValueError(f"For '{who}', 'split_dst_file' must be (k, n) with 1 <= k <= n, got {split_dst_file!r}")
    files = _rank_files(src_dir, "safetensors", file_suffix)
    if files and _rank_files(src_dir, "ckpt", None):
        raise ValueError(f"For '{who}', the 'src_dir' cannot contain both ckpt file and safetensors file "
                         f"simultaneously")
    if not files:
        raise ValueError(f"For '{who}', {src_dir!r} holds no rank_<r>/*.safetensors file")
    layouts = layouts_of(src_strategy_file, who)
    by_name = _collect(files, "safetensors", who)
    whole: dict[str, Any] = {}
    for name, per_rank in by_name.items():
        if name not in layouts or name.startswith("accu_grads"):
            continue
        keep = choice_func(name) if choice_func is not None else True
        if keep is False:
            continue
        target = keep if isinstance(keep, str) else name
        whole[target] = _merge_param(name, layouts[name], per_rank, files, who, opt_sharded=None)
    sizes = {name: int(np.asarray(v).nbytes) for name, v in whole.items()}
    total = sum(sizes.values())
    parts = max(1, min(-(-total // _PART_BYTES), len(whole)))
    split = _split_parts(sizes, parts)
    chosen = range(parts)
    if split_dst_file:
        k, n = split_dst_file
        share, extra = divmod(parts, n)
        start = share * (k - 1) + min(k - 1, extra)
        chosen = range(start, start + share + (1 if k <= extra else 0))
    os.makedirs(dst_dir, exist_ok=True)
    for index in chosen:
        write_safetensors(os.path.join(dst_dir, f"part{index}.safetensors"),
                          [(name, np.asarray(whole[name])) for name in split[index]])
    if split_dst_file and split_dst_file[0] != 1:
        return
    weight_map = {name: f"part{i}.safetensors" for i, names in enumerate(split) for name in names}
    import json

    atomic_write_bytes(os.path.join(dst_dir, "param_name_map.json"),
                       json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}, indent=4).encode())
    first = _read(files[min(files)], "safetensors")
    hyper = [(name, value) for name, value in first.items() if name not in layouts]
    if hyper:
        write_safetensors(os.path.join(dst_dir, "hyper_param.safetensors"), hyper)

"""MindSpore's strategy files and the slicing of a parameter over ranks they describe.

A strategy file (``set_auto_parallel_context(strategy_ckpt_config={"save_file": ...})``)
is a protobuf ``ParallelStrategyMap`` (MindSpore's ``node_strategy.proto``,
proto2, package ``mindspore.straspb``), or the same content as JSON when the
name ends in ``.json``. Per parameter it holds a ``ParallelLayouts``:

- ``dev_matrix``: the device matrix, slowest-varying first; rank ``r`` has the
  coordinates ``np.unravel_index(r, dev_matrix)``;
- ``tensor_map``: per tensor dimension the device-matrix dimension it is split
  over, counted from the right (``0`` is the last), ``-1`` for none; with
  several ``TensorMap`` entries, one per tensor dimension, a dimension may be
  split over several device dimensions (the first listed varies slowest);
- ``opt_weight_shard_size``/``opt_weight_shard_step``: the optimizer
  (parallel-optimizer) shard, which splits dimension 0 further over the
  device dimensions the tensor is repeated on, taken from the right;
- ``param_split_shape``: uneven sizes of the slices of dimension 0;
- ``field``: an embedding field size (wide&deep); not supported here.

After ``merge_pipeline_strategys`` a parameter's name is ``"<stage>-<name>"``
and the ranks of stage ``s`` are ``s * devices_per_stage + local rank``.

The message classes are built here from a descriptor in a private pool (no
``protoc``, no MindSpore needed; MindSpore's own can be loaded beside them).

Example:
    >>> layout = ParamLayout(dev_matrix=(2, 4), tensor_map=((1,), ()))
    >>> layout.block(5, shape=(4, 3), opt_sharded=False)     # rank 5: row block 1 of 2
    (slice(2, 4, None), slice(0, 3, None))
"""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

__all__ = ["ParallelStrategyMap", "ParallelLayouts", "ParallelGroupMap", "ParamLayout", "read_strategy_file",
           "write_strategy_file", "strategy_layouts", "layouts_of", "merge_slices", "cut_slice",
           "build_searched_strategy", "merge_pipeline_strategys", "restore_group_info_list",
           "rank_list_for_transform", "layout_of_sharding", "save_strategy_file", "save_parameter_strategy",
           "sharding_of_layout", "apply_loaded_strategy"]


def _build_messages() -> dict[str, type]:
    field = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="mindjax_node_strategy.proto", package="mindspore.straspb",
                                               syntax="proto2")
    rep, req = field.LABEL_REPEATED, field.LABEL_REQUIRED

    def message(name: str, *fields: tuple[str, int, int, int, str]) -> None:
        msg = proto.message_type.add(name=name)
        for fname, number, label, ftype, type_name in fields:
            msg.field.add(name=fname, number=number, label=label, type=ftype,
                          **({"type_name": f".mindspore.straspb.{type_name}"} if type_name else {}))

    u32, i32, i64, s, m = field.TYPE_UINT32, field.TYPE_INT32, field.TYPE_INT64, field.TYPE_STRING, field.TYPE_MESSAGE
    message("ParallelStrategy", ("dim", 1, rep, u32, ""))
    message("ParallelStrategys", ("stage", 1, req, u32, ""), ("parallel_strategy", 2, rep, m, "ParallelStrategy"))
    message("ParallelStrategyItem", ("node_name", 1, req, s, ""),
            ("parallel_strategys", 2, req, m, "ParallelStrategys"))
    message("DevMatrix", ("dim", 1, rep, u32, ""))
    message("TensorMap", ("dim", 1, rep, i32, ""))
    message("ParamSplitShape", ("dim", 1, rep, i64, ""))
    message("IndicesOffset", ("dim", 1, rep, i64, ""))
    message("ParallelLayouts", ("dev_matrix", 1, rep, m, "DevMatrix"), ("tensor_map", 2, rep, m, "TensorMap"),
            ("param_split_shape", 3, rep, m, "ParamSplitShape"), ("indices_offset", 4, rep, m, "IndicesOffset"),
            ("field", 5, req, i32, ""), ("opt_weight_shard_step", 6, req, i32, ""),
            ("opt_weight_shard_size", 7, req, i32, ""))
    message("ParallelLayoutItem", ("param_name", 1, req, s, ""), ("parallel_layouts", 2, req, m, "ParallelLayouts"))
    message("ParallelGroupRanks", ("dim", 1, rep, u32, ""))
    message("ParallelGroupItem", ("group_name", 1, req, s, ""),
            ("parallel_group_ranks", 2, req, m, "ParallelGroupRanks"))
    message("ParallelGroupMap", ("parallel_group_item", 1, rep, m, "ParallelGroupItem"),
            ("ckpt_restore_rank_list", 2, req, m, "ParallelGroupRanks"))
    message("ParallelStrategyMap", ("current_stage", 1, req, u32, ""),
            ("parallel_strategy_item", 2, rep, m, "ParallelStrategyItem"),
            ("parallel_layout_item", 3, rep, m, "ParallelLayoutItem"))
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"mindspore.straspb.{name}"))
            for name in ("ParallelStrategyMap", "ParallelLayouts", "ParallelGroupMap")}


_MESSAGES = _build_messages()
#: MindSpore's ``ParallelStrategyMap`` message class (a strategy file).
ParallelStrategyMap = _MESSAGES["ParallelStrategyMap"]
#: MindSpore's ``ParallelLayouts`` message class (one parameter's layout).
ParallelLayouts = _MESSAGES["ParallelLayouts"]
#: MindSpore's ``ParallelGroupMap`` message class (a communication-group file).
ParallelGroupMap = _MESSAGES["ParallelGroupMap"]


@dataclasses.dataclass(frozen=True)
class ParamLayout:
    """One parameter's slicing over the ranks of its stage (see the module docstring).

    Attributes:
        dev_matrix: the device matrix, slowest first.
        tensor_map: per tensor dimension, the device dimensions (counted from the right) it is split over.
        opt_shard_size: the optimizer shard of dimension 0 (0: none; -1: every repeated device dimension).
        opt_shard_step: MindSpore's rank stride of the optimizer shard group (recorded, not needed to slice).
        split_shape: uneven sizes of dimension 0's slices, in slice order (empty: even).
        field: MindSpore's embedding field size (0: none).
        stages: the pipeline stages the parameter is in.
    """

    dev_matrix: tuple[int, ...]
    tensor_map: tuple[tuple[int, ...], ...]
    opt_shard_size: int = 0
    opt_shard_step: int = 0
    split_shape: tuple[int, ...] = ()
    field: int = 0
    stages: tuple[int, ...] = (0,)

    @property
    def device_num(self) -> int:
        """The ranks of one stage."""
        return int(np.prod(self.dev_matrix)) if self.dev_matrix else 1

    def _dims(self, ref: int) -> int:
        return len(self.dev_matrix) - 1 - ref

    def splits(self) -> tuple[int, ...]:
        """How many slices each tensor dimension is cut into by the model-parallel layout."""
        return tuple(int(np.prod([self.dev_matrix[self._dims(r)] for r in refs])) if refs else 1
                     for refs in self.tensor_map)

    def _opt_dims(self) -> list[tuple[int, int]]:
        """(device dimension, factor) pairs the optimizer shard uses, slowest first."""
        if self.opt_shard_size in (0, 1) or not self.tensor_map:
            return []
        used = {self._dims(r) for refs in self.tensor_map for r in refs}
        repeated = [i for i, size in enumerate(self.dev_matrix) if i not in used and size > 1]
        left = self.opt_shard_size if self.opt_shard_size > 0 else int(np.prod([self.dev_matrix[i] for i in repeated]))
        taken: list[tuple[int, int]] = []
        for dim in reversed(repeated):
            if left == 1:
                break
            size = self.dev_matrix[dim]
            factor = size if left >= size else left
            if left % factor or size % factor:
                raise ValueError(f"the optimizer shard size {self.opt_shard_size} does not divide over the repeated "
                                 f"device dimensions of dev_matrix {list(self.dev_matrix)}")
            taken.insert(0, (dim, factor))
            left //= factor
        if left != 1:
            raise ValueError(f"the optimizer shard size {self.opt_shard_size} is larger than the repeated devices of "
                             f"dev_matrix {list(self.dev_matrix)} and tensor_map {self.tensor_map_list()}")
        return taken

    def opt_factor(self) -> int:
        """How many pieces the optimizer shard cuts each slice's dimension 0 into."""
        return int(np.prod([f for _, f in self._opt_dims()])) if self._opt_dims() else 1

    def tensor_map_list(self) -> list[Any]:
        """The tensor map as MindSpore writes it (ints, or lists for several device dimensions)."""
        if all(len(refs) <= 1 for refs in self.tensor_map):
            return [refs[0] if refs else -1 for refs in self.tensor_map]
        return [list(refs) if refs else [-1] for refs in self.tensor_map]

    def block_index(self, rank: int, opt_sharded: bool) -> tuple[tuple[int, int], ...]:
        """Rank ``rank``'s slice: per dimension (index, count) in the grid of slices."""
        coords = np.unravel_index(rank, self.dev_matrix) if self.dev_matrix else ()
        out = []
        for refs in self.tensor_map:
            index, count = 0, 1
            for ref in refs:
                size = self.dev_matrix[self._dims(ref)]
                index, count = index * size + int(coords[self._dims(ref)]), count * size
            out.append((index, count))
        if opt_sharded and out:
            index, count = out[0]
            for dim, factor in self._opt_dims():
                index, count = index * factor + int(coords[dim]) % factor, count * factor
            out[0] = (index, count)
        return tuple(out)

    def full_shape(self, slice_shape: Sequence[int], opt_sharded: bool) -> tuple[int, ...]:
        """The whole parameter's shape from one (even) slice's shape."""
        counts = [c for _, c in self.block_index(0, opt_sharded)]
        if len(counts) != len(slice_shape):
            raise ValueError(f"the tensor_map {self.tensor_map_list()} describes {len(counts)} dimension(s), but the "
                             f"slice has shape {tuple(slice_shape)}")
        if self.split_shape:
            return (int(sum(self.split_shape)),) + tuple(int(s) * c for s, c in zip(slice_shape[1:], counts[1:]))
        return tuple(int(s) * c for s, c in zip(slice_shape, counts))

    def block(self, rank: int, shape: Sequence[int], opt_sharded: bool) -> tuple[slice, ...]:
        """Where rank ``rank``'s slice lies in the whole parameter of ``shape``."""
        out = []
        for d, (index, count) in enumerate(self.block_index(rank, opt_sharded)):
            if d == 0 and self.split_shape:
                if opt_sharded and self.opt_factor() > 1:
                    raise ValueError("uneven slices (param_split_shape) with an optimizer shard are not supported")
                start = int(sum(self.split_shape[:index]))
                out.append(slice(start, start + int(self.split_shape[index])))
                continue
            if shape[d] % count:
                raise ValueError(f"dimension {d} of shape {tuple(shape)} does not divide into {count} slices")
            size = shape[d] // count
            out.append(slice(index * size, (index + 1) * size))
        return tuple(out)


def _layout_from_message(name: str, layout: Any, stage: int) -> ParamLayout:
    try:
        dev_matrix = tuple(int(d) for d in layout.dev_matrix[0].dim) if layout.dev_matrix else ()
        maps = [list(m.dim) for m in layout.tensor_map]
        if len(maps) > 1:  # one entry per tensor dimension
            tensor_map = tuple(tuple(int(r) for r in m if r != -1) for m in maps)
        else:
            tensor_map = tuple(() if r == -1 else (int(r),) for r in (maps[0] if maps else []))
        split = tuple(int(d) for d in layout.param_split_shape[0].dim) if layout.param_split_shape else ()
    except (AttributeError, IndexError, TypeError) as exc:
        raise ValueError(f"the layout of parameter '{name}' does not match node_strategy.proto: {exc}") from None
    bad = [r for refs in tensor_map for r in refs if not 0 <= r < len(dev_matrix)]
    if bad:
        raise ValueError(f"the layout of parameter '{name}' maps to device dimensions {bad}, but its dev_matrix "
                         f"{list(dev_matrix)} has {len(dev_matrix)}")
    return ParamLayout(dev_matrix, tensor_map, int(layout.opt_weight_shard_size), int(layout.opt_weight_shard_step),
                       split, int(layout.field), (stage,))


def _check_file(who: str, path: Any, what: str = "strategy file") -> str:
    if not isinstance(path, str):
        raise TypeError(f"For '{who}', the {what} name must be a str, got {type(path).__name__}")
    if not os.path.isfile(path):
        raise ValueError(f"For '{who}', no such {what}: {path}")
    if os.path.getsize(path) == 0:
        raise ValueError(f"For '{who}', the {what} {path} is empty")
    return path


def read_strategy_file(path: str, who: str = "build_searched_strategy") -> Any:
    """Read a strategy file (protobuf, or JSON when the name ends in ``.json``) as a ``ParallelStrategyMap``.

    Raises:
        ValueError: a missing or empty file; TypeError: content that is not a strategy file.
    """
    _check_file(who, path)
    if path.endswith(".json"):
        return _strategy_from_json(path, who)
    msg = ParallelStrategyMap()
    with open(path, "rb") as f:
        content = f.read()
    try:
        msg.ParseFromString(content)
    except DecodeError as exc:
        raise TypeError(f"For '{who}', {path} is not a strategy file: the strategy file type should be one of "
                        f"json or protobuf ({exc})") from None
    return msg


def _strategy_from_json(path: str, who: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
    except (OSError, ValueError) as exc:
        raise TypeError(f"For '{who}', {path} is not a JSON strategy file: {exc}") from None
    msg = ParallelStrategyMap(current_stage=int(content.get("current_stage", 0)))
    for node, item in (content.get("parallel_strategy_item") or {}).items():
        entry = msg.parallel_strategy_item.add(node_name=node)
        entry.parallel_strategys.stage = int(item.get("stage", 0))
        for dims in item.get("parallel_strategy", []):
            entry.parallel_strategys.parallel_strategy.add(dim=[int(d) for d in dims])
    for name, item in (content.get("parallel_layout_item") or {}).items():
        entry = msg.parallel_layout_item.add(param_name=name)
        _fill_layout(entry.parallel_layouts, item.get("dev_matrix", []), item.get("tensor_map", []),
                     item.get("param_split_shape", []), item.get("field", 0), item.get("opt_weight_shard_step", 0),
                     item.get("opt_weight_shard_size", 0))
    return msg


def _fill_layout(layout: Any, dev_matrix: Sequence[int], tensor_map: Sequence[Any], split_shape: Sequence[int],
                 field: int, opt_step: int, opt_size: int) -> None:
    layout.dev_matrix.add(dim=[int(d) for d in dev_matrix])
    if any(isinstance(t, (list, tuple)) for t in tensor_map):
        for entry in tensor_map:
            layout.tensor_map.add(dim=[int(r) for r in (entry if isinstance(entry, (list, tuple)) else [entry])])
    else:
        layout.tensor_map.add(dim=[int(r) for r in tensor_map])
    layout.param_split_shape.add(dim=[int(d) for d in split_shape])
    layout.indices_offset.add()
    layout.field = int(field)
    layout.opt_weight_shard_step = int(opt_step)
    layout.opt_weight_shard_size = int(opt_size)


def write_strategy_file(path: str, strategy: Any) -> None:
    """Write a ``ParallelStrategyMap`` as a protobuf file (JSON when ``path`` ends in ``.json``), atomically."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    if path.endswith(".json"):
        data = json.dumps(_strategy_to_json(strategy)).encode("utf-8")
    else:
        data = strategy.SerializeToString()
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _strategy_to_json(strategy: Any) -> dict[str, Any]:
    layouts = {}
    for item in strategy.parallel_layout_item:
        lay = item.parallel_layouts
        maps = [list(m.dim) for m in lay.tensor_map]
        layouts[item.param_name] = {
            "dev_matrix": list(lay.dev_matrix[0].dim) if lay.dev_matrix else [],
            "tensor_map": maps[0] if len(maps) == 1 else maps,
            "param_split_shape": list(lay.param_split_shape[0].dim) if lay.param_split_shape else [],
            "field": lay.field, "opt_weight_shard_step": lay.opt_weight_shard_step,
            "opt_weight_shard_size": lay.opt_weight_shard_size}
    nodes = {item.node_name: {"stage": item.parallel_strategys.stage,
                              "parallel_strategy": [list(p.dim) for p in item.parallel_strategys.parallel_strategy]}
             for item in strategy.parallel_strategy_item}
    return {"current_stage": strategy.current_stage, "parallel_strategy_item": nodes, "parallel_layout_item": layouts}


def strategy_layouts(strategy: Any) -> dict[str, Any]:
    """``{param name: ParallelLayouts}`` of a ``ParallelStrategyMap`` (what ``build_searched_strategy`` returns)."""
    return {item.param_name: item.parallel_layouts for item in strategy.parallel_layout_item}


def build_searched_strategy(strategy_filename: str) -> dict[str, Any]:
    """Read a strategy file: ``{parameter name: ParallelLayouts}`` (MindSpore's ``build_searched_strategy``).

    Arguments:
        strategy_filename: a file saved through ``strategy_ckpt_config`` (protobuf, or ``.json``).

    Returns:
        the layouts by parameter name; names are ``"<stage>-<name>"`` in a merged pipeline file.

    Raises:
        TypeError: the name is not a str, or the file is not a strategy file.
        ValueError: a missing or empty file.
    """
    return strategy_layouts(read_strategy_file(strategy_filename, "build_searched_strategy"))


def layouts_of(strategy: Any, who: str) -> dict[str, ParamLayout]:
    """``{parameter name: ParamLayout}`` from a strategy file name or a ``build_searched_strategy`` dict.

    A merged pipeline file's ``"<stage>-<name>"`` entries become ``name`` with its stages.
    """
    if isinstance(strategy, str):
        strategy = strategy_layouts(read_strategy_file(strategy, who))
    if not isinstance(strategy, Mapping):
        raise TypeError(f"For '{who}', the strategy must be a strategy file name or a dict of layouts, got "
                        f"{type(strategy).__name__}")
    out: dict[str, ParamLayout] = {}
    for key, message in strategy.items():
        stage, name = 0, key
        head, sep, tail = key.partition("-")
        if sep and head.isdigit():
            stage, name = int(head), tail
        layout = _layout_from_message(name, message, stage)
        if name in out:
            layout = dataclasses.replace(out[name], stages=tuple(sorted(set(out[name].stages) | {stage})))
        out[name] = layout
    return out


def _check_field(layout: ParamLayout, name: str, who: str) -> None:
    if layout.field:
        raise NotImplementedError(f"For '{who}', parameter '{name}' has an embedding field layout (field="
                                  f"{layout.field}); MindJAX merges model-parallel and optimizer slices only")


def merge_slices(name: str, slices: Sequence[Any], layout: ParamLayout, opt_sharded: bool, who: str,
                 sources: Sequence[str] | None = None, full_shape: Sequence[int] | None = None) -> np.ndarray:
    """The whole parameter from its ranks' slices (``slices[r]`` is local rank ``r``'s).

    Arguments:
        name: the parameter, for errors.
        slices: one array per rank of the stage, in rank order.
        layout: its layout.
        opt_sharded: whether the slices are also cut by the optimizer shard.
        who: the caller, for errors.
        sources: how errors name each rank's slice (its file), in rank order.
        full_shape: the expected whole shape (e.g. the network's), checked when given.

    Returns:
        the merged numpy array.

    Raises:
        ValueError: a wrong number of slices, slices whose shapes disagree, or a missing slice.
    """
    _check_field(layout, name, who)
    sources = list(sources) if sources is not None else [f"rank {r}" for r in range(len(slices))]
    if len(slices) != layout.device_num:
        raise ValueError(f"For '{who}', parameter '{name}' is laid out over {layout.device_num} ranks (dev_matrix "
                         f"{list(layout.dev_matrix)}), but {len(slices)} slice(s) were given")
    arrays = [np.asarray(s) for s in slices]
    if not layout.tensor_map:
        return arrays[0]
    reference = arrays[0].shape
    if not layout.split_shape:
        for r, a in enumerate(arrays):
            if a.shape != reference:
                raise ValueError(f"For '{who}', parameter '{name}' in {sources[r]} has shape {a.shape}, expected "
                                 f"{reference} as in {sources[0]} (every rank holds an even slice)")
    whole_shape = layout.full_shape(reference, opt_sharded)
    if full_shape is not None and tuple(full_shape) != whole_shape:
        raise ValueError(f"For '{who}', the slices of parameter '{name}' (shape {reference} in {sources[0]}) merge "
                         f"to shape {whole_shape}, but the network's parameter has shape {tuple(full_shape)}")
    out = np.empty(whole_shape, arrays[0].dtype)
    filled = np.zeros(whole_shape, bool) if out.size <= 1 << 26 else None
    for r, a in enumerate(arrays):
        where = layout.block(r, whole_shape, opt_sharded)
        expected = tuple(s.stop - s.start for s in where)
        if a.shape != expected:
            raise ValueError(f"For '{who}', parameter '{name}' in {sources[r]} has shape {a.shape}, expected "
                             f"{expected} for its slice {where} of the whole {whole_shape}")
        out[where] = a
        if filled is not None:
            filled[where] = True
    if filled is not None and not filled.all():
        raise ValueError(f"For '{who}', the slices of parameter '{name}' do not cover the whole {whole_shape}")
    return out


def cut_slice(whole: Any, layout: ParamLayout, rank: int, opt_sharded: bool) -> np.ndarray:
    """Local rank ``rank``'s slice of the whole parameter under ``layout``."""
    whole = np.asarray(whole)
    if not layout.tensor_map:
        return whole
    return np.ascontiguousarray(whole[layout.block(rank, whole.shape, opt_sharded)])


def merge_pipeline_strategys(src_strategy_dirs: str, dst_strategy_file: str) -> None:
    """Join the strategy files of every pipeline stage into one (MindSpore's ``merge_pipeline_strategys``).

    Each parameter is renamed ``"<stage>-<name>"``; the stage comes from the
    file's first strategy item. The directory holds ``*.ckpt`` (protobuf) or
    ``*.json`` files, not both.

    Raises:
        NotADirectoryError: ``src_strategy_dirs`` is not a directory.
        ValueError: mixed formats, or a file without strategy or layout items.
    """
    if not isinstance(src_strategy_dirs, str) or not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError(f"src_strategy_dirs {src_strategy_dirs} is not a directory.")
    names = sorted(os.listdir(src_strategy_dirs))
    protobuf = [os.path.join(src_strategy_dirs, n) for n in names if n.endswith(".ckpt")]
    jsons = [os.path.join(src_strategy_dirs, n) for n in names if n.endswith(".json")]
    if protobuf and jsons:
        raise ValueError("For 'merge_pipeline_strategys', the strategy files should be all '.ckpt' or all '.json', "
                         f"{src_strategy_dirs} holds both")
    merged = ParallelStrategyMap(current_stage=1)
    seen_stages: set[int] = set()
    seen_content: set[bytes] = set()
    for path in protobuf or jsons:
        strategy = read_strategy_file(path, "merge_pipeline_strategys")
        content = strategy.SerializeToString()
        if content in seen_content:
            continue
        seen_content.add(content)
        if not strategy.parallel_strategy_item or not strategy.parallel_layout_item:
            raise ValueError(f"For 'merge_pipeline_strategys', the strategy file {path} is empty")
        stage = strategy.parallel_strategy_item[0].parallel_strategys.stage
        if stage in seen_stages:
            continue
        seen_stages.add(stage)
        for item in strategy.parallel_layout_item:
            item.param_name = f"{stage}-{item.param_name}"
        merged.parallel_strategy_item.extend(strategy.parallel_strategy_item)
        merged.parallel_layout_item.extend(strategy.parallel_layout_item)
    write_strategy_file(dst_strategy_file, merged)


def restore_group_info_list(group_info_file_name: str) -> list[int]:
    """The ranks listed in a communication-group file's ``ckpt_restore_rank_list`` (``ParallelGroupMap``).

    Raises:
        TypeError: the name is not a str; ValueError: a missing or empty file, or no restore list.
    """
    _check_file("restore_group_info_list", group_info_file_name, "group information file")
    msg = ParallelGroupMap()
    with open(group_info_file_name, "rb") as f:
        try:
            msg.ParseFromString(f.read())
        except DecodeError as exc:
            raise ValueError(f"For 'restore_group_info_list', {group_info_file_name} is not a group information "
                             f"file ({exc})") from None
    if not msg.HasField("ckpt_restore_rank_list"):
        raise ValueError("For 'restore_group_info_list', the group information file has no restore rank list.")
    return [int(r) for r in msg.ckpt_restore_rank_list.dim]


def _stage_device_num(layouts: Mapping[str, ParamLayout]) -> int:
    return next(iter(layouts.values())).device_num if layouts else 1


def rank_list_for_transform(rank_id: int, src_strategy_file: str | None = None,
                            dst_strategy_file: str | None = None) -> list[int]:
    """The source ranks whose checkpoints the destination rank ``rank_id`` needs (MindSpore's function).

    Every source rank holding a slice that overlaps a slice of ``rank_id``
    under the destination layout is listed, in descending order as MindSpore
    lists them.

    Raises:
        TypeError: ``rank_id`` is not an int; ValueError: an empty source strategy.
    """
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError("The rank_id should be a int.")
    if src_strategy_file is None:
        return [0]
    src = layouts_of(src_strategy_file, "rank_list_for_transform")
    if not src:
        raise ValueError("The src_strategy_file is empty.")
    dst = layouts_of(dst_strategy_file, "rank_list_for_transform") if dst_strategy_file is not None else {}
    src_n, dst_n = _stage_device_num(src), _stage_device_num(dst)
    dst_stage, local = (rank_id // dst_n, rank_id % dst_n) if dst else (0, rank_id)
    needed: set[int] = set()
    for name, s in src.items():
        d = dst.get(name)
        if dst and (d is None or dst_stage not in d.stages):
            continue
        probe = _probe_shape(s, d)
        want = d.block(local, probe, d.opt_factor() > 1) if d is not None else tuple(slice(0, n) for n in probe)
        for r in range(src_n):
            have = s.block(r, probe, s.opt_factor() > 1)
            if all(a.start < b.stop and b.start < a.stop for a, b in zip(have, want)):
                needed.update(stage * src_n + r for stage in s.stages)
    return sorted(needed, reverse=True)


def _probe_shape(src: ParamLayout, dst: ParamLayout | None) -> tuple[int, ...]:
    """A shape every slicing of both layouts divides (for overlap tests without the real shape)."""
    counts = [c for _, c in src.block_index(0, True)]
    if dst is not None:
        counts = [int(np.lcm(a, b)) for a, b in zip(counts, [c for _, c in dst.block_index(0, True)])]
    return tuple(max(c, 1) for c in counts)


def layout_of_sharding(sharding: Any, ndim: int, opt_shard_size: int = 0) -> ParamLayout:
    """MindSpore's layout of an array laid out by ``sharding`` (a ``NamedSharding``, or None: replicated).

    The device matrix is the sharding's mesh shape (MindJAX's meshes list the
    devices in rank order), and each dimension maps to the mesh axes its
    ``PartitionSpec`` entry names.
    """
    mesh = getattr(sharding, "mesh", None)
    if mesh is None:
        return ParamLayout((1,), tuple(() for _ in range(ndim)))
    names = list(mesh.axis_names)
    dev_matrix = tuple(int(mesh.shape[n]) for n in names)
    spec = list(getattr(sharding, "spec", ())) + [None] * ndim
    tensor_map = []
    for entry in spec[:ndim]:
        axes = () if entry is None else (entry if isinstance(entry, tuple) else (entry,))
        tensor_map.append(tuple(len(names) - 1 - names.index(a) for a in axes))
    return ParamLayout(dev_matrix, tuple(tensor_map), opt_shard_size)


def _layout_message(layout: ParamLayout) -> Any:
    message = ParallelLayouts()
    _fill_layout(message, layout.dev_matrix, layout.tensor_map_list(), layout.split_shape, layout.field,
                 layout.opt_shard_step, layout.opt_shard_size)
    return message


def save_strategy_file(path: str, layouts: Mapping[str, ParamLayout], stage: int = 0,
                       ops: Iterable[tuple[str, Sequence[Sequence[int]]]] = ()) -> None:
    """Write MindSpore's strategy file for parameters laid out as ``layouts``.

    Arguments:
        path: the file (protobuf; JSON when it ends in ``.json``).
        layouts: ``{parameter name: ParamLayout}``.
        stage: the pipeline stage the file describes.
        ops: ``(node name, strategy)`` pairs for ``parallel_strategy_item`` (Primitive strategies).
    """
    strategy = ParallelStrategyMap(current_stage=stage)
    for node, dims in ops:
        item = strategy.parallel_strategy_item.add(node_name=node)
        item.parallel_strategys.stage = stage
        for d in dims:
            item.parallel_strategys.parallel_strategy.add(dim=[int(x) for x in d])
    if not strategy.parallel_strategy_item:
        # MindSpore's readers take the stage from the first strategy item.
        item = strategy.parallel_strategy_item.add(node_name="Default")
        item.parallel_strategys.stage = stage
    for name, layout in layouts.items():
        entry = strategy.parallel_layout_item.add(param_name=name)
        entry.parallel_layouts.CopyFrom(_layout_message(layout))
    write_strategy_file(path, strategy)


def save_parameter_strategy(parameters: Sequence[Any], shardings: Sequence[Any],
                            trainable: Sequence[Any] | None = None) -> str | None:
    """Write the strategy file ``strategy_ckpt_config["save_file"]`` asks for, from the parameters' shardings.

    Called where a parallel training step lays its state out (as MindSpore
    writes the file when it compiles the parallel graph). With
    ``only_trainable_params`` (the default) only Parameters with
    ``requires_grad`` are written.

    Arguments:
        parameters: the state Variables (those without a name are skipped).
        shardings: their ``NamedSharding``s, in the same order.
        trainable: the trainable Parameters (a training Cell's ``weights``); default:
            those with ``requires_grad``.

    Returns:
        the file written, or None when no save file is set.
    """
    from mindjax import context

    config = context._PARALLEL["strategy_ckpt_config"]
    path = config.get("save_file") or ""
    if not path:
        return None
    only_trainable = config.get("only_trainable_params", True)
    chosen = None if trainable is None else {id(p) for p in trainable}
    layouts: dict[str, ParamLayout] = {}
    for param, sharding in zip(parameters, shardings):
        name = getattr(param, "name", None)
        is_trainable = getattr(param, "requires_grad", False) if chosen is None else id(param) in chosen
        if not isinstance(name, str) or not name or (only_trainable and not is_trainable):
            continue
        layouts[name] = layout_of_sharding(sharding, len(getattr(param, "shape", ())))
    save_strategy_file(path, layouts)
    return path


def sharding_of_layout(layout: ParamLayout, shape: Sequence[int], name: str, where: str) -> Any:
    """The ``NamedSharding`` that lays a parameter of ``shape`` out as ``layout`` on the current devices.

    The device matrix becomes mesh axes (:func:`mindjax.parallel.mesh.device_matrix_axes`);
    each dimension is split over the axes of its device dimensions. The optimizer
    shard is not a layout of the parameter itself and is left out.

    Raises:
        ValueError: a device matrix for another device count, or a shape the layout does not divide.
    """
    from jax.sharding import PartitionSpec

    from mindjax.parallel import mesh as _mesh

    devices = _mesh.get_device_num()
    if layout.device_num != devices:
        raise ValueError(f"{where}: parameter '{name}' is laid out over dev_matrix {list(layout.dev_matrix)} "
                         f"({layout.device_num} devices), but this job has {devices}")
    if len(layout.tensor_map) != len(shape):
        raise ValueError(f"{where}: parameter '{name}' has shape {tuple(shape)}, but its tensor_map "
                         f"{layout.tensor_map_list()} describes {len(layout.tensor_map)} dimension(s)")
    axes = _mesh.device_matrix_axes(layout.dev_matrix)
    entries: list[Any] = []
    for d, (refs, size, count) in enumerate(zip(layout.tensor_map, shape, layout.splits())):
        if size % count:
            raise ValueError(f"{where}: dimension {d} of parameter '{name}' (shape {tuple(shape)}) does not divide "
                             f"into the {count} slices of tensor_map {layout.tensor_map_list()}")
        names = tuple(a for r in refs for a in axes[layout._dims(r)])
        entries.append(None if not names else names[0] if len(names) == 1 else names)
    return _mesh.named_sharding(PartitionSpec(*entries))


def apply_loaded_strategy(cell: Any) -> str | None:
    """Lay ``cell``'s Parameters out as ``strategy_ckpt_config["load_file"]`` says (MindSpore's load_file).

    Parameters the file names get its layout as their sharding (as a
    ``parameter_plan`` gives); the others keep theirs.

    Returns:
        the file read, or None when no load file is set.

    Raises:
        ValueError: the file's layouts do not fit the devices or a Parameter's shape.
    """
    from mindjax import context

    path = context._PARALLEL["strategy_ckpt_config"].get("load_file") or ""
    if not path:
        return None
    layouts = layouts_of(path, "set_auto_parallel_context")
    where = f"For the strategy file {path}"
    for _, param in cell.parameters_and_names():
        layout = layouts.get(param.name)
        if layout is not None:
            param.sharding = sharding_of_layout(layout, tuple(param.shape), param.name, where)
    return path

"""A worker of tests/ops/test_comm_objects_multiprocess.py: the object collectives between the job's processes.

Each rank writes what it received to ``OUT_DIR/rank<N>.json``.
"""
import json
import os
import sys

from mindjax import ops


def main():
    ops.init_process_group()
    rank, size = ops.get_rank(), ops.get_world_size()
    got = {}
    gathered = [None] * size
    ops.all_gather_object(gathered, {"rank": rank, "payload": "x" * (rank * 50)})  # unequal pickle lengths
    got["all_gather"] = gathered
    items = [f"from {rank}", rank] if rank == 1 else [None, None]
    ops.broadcast_object_list(items, src=1)
    got["broadcast"] = items
    at_root = [None] * size if rank == 0 else None
    ops.gather_object((rank, rank * rank), at_root, dst=0)
    got["gather"] = at_root
    out = [None]
    ops.scatter_object_list(out, [f"for {r}" for r in range(size)] if rank == 1 else None, src=1)
    got["scatter"] = out[0]
    if rank == 0:
        ops.send_object_list([{"n": 1}, "first"], dst=1)
        ops.send_object_list(["second"], dst=1)
    else:
        first, second = [None, None], [None]
        assert ops.recv_object_list(first, src=0) == 0
        ops.recv_object_list(second, src=0)
        got["p2p"] = [first, second]
    with open(os.path.join(sys.argv[1], f"rank{rank}.json"), "w") as f:
        json.dump(got, f)
    print(f"done rank {rank} of {size}", flush=True)
    ops.barrier()
    ops.destroy_process_group()


if __name__ == "__main__":
    main()

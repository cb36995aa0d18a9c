"""communication.create_group and the group helpers of MindSpore 2.10 (world: processes; groups: devices)."""
import pytest

from mindjax.communication import management as comm


@pytest.fixture
def four_processes(monkeypatch):
    comm.init()
    monkeypatch.setitem(comm._STATE, "size", 4)
    monkeypatch.setitem(comm._STATE, "rank", 2)
    yield
    comm.release()


def test_created_group_answers_rank_size_and_conversions(four_processes):
    comm.create_group("pair", [3, 2])
    assert comm.get_group_size("pair") == 2 and comm.get_rank("pair") == 1
    assert comm.get_process_group_ranks("pair") == [3, 2]
    assert comm.get_world_rank_from_group_rank("pair", 0) == 3
    assert comm.get_group_rank_from_world_rank(2, "pair") == 1
    assert comm.get_comm_name("pair") == "pair"
    assert comm.get_group_size() == 4 and comm.get_rank() == 2
    comm.destroy_group("pair")
    with pytest.raises(ValueError, match="the group 'pair' does not exist"):
        comm.get_group_size("pair")


def test_bad_groups_are_rejected(four_processes):
    with pytest.raises(ValueError, match="at least 2 distinct ranks"):
        comm.create_group("one", [1])
    with pytest.raises(ValueError, match=r"ranks \[9\] are not in \[0, 8\) \(a rank is a device"):
        comm.create_group("far", [0, 9])
    with pytest.raises(ValueError, match="already exists"):
        comm.create_group(comm.HCCL_WORLD_COMM_GROUP, [0, 1])
    with pytest.raises(ValueError, match="can not be destroyed"):
        comm.destroy_group(comm.HCCL_WORLD_COMM_GROUP)
    comm.create_group("odd", [1, 3])
    with pytest.raises(ValueError, match="world rank 2 is not in group 'odd'"):
        comm.get_rank("odd")


def test_create_group_needs_init():
    with pytest.raises(RuntimeError, match="call mindjax.communication.init"):
        comm.create_group("g", [0, 1])

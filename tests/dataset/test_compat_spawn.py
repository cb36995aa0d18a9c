"""MindSpore-style scripts with no ``__main__`` guard still run python_multiprocessing pipelines (in threads)."""
import os
import subprocess
import sys
import textwrap

from mindjax.dataset import _spawn

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_unguarded_script_runs_multiprocessing_pipeline_in_threads(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import mindjax.dataset as ds

        class Source:
            def __getitem__(self, i):
                return np.array([i], dtype=np.float32),
            def __len__(self):
                return 6

        def double(x):
            return x * 2

        data = ds.GeneratorDataset(Source(), ["x"], num_parallel_workers=2, shuffle=False)
        data = data.map(double, input_columns="x", num_parallel_workers=2, python_multiprocessing=True)
        print("ROWS", [float(r[0][0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)])
    """))
    env = dict(os.environ, PYTHONPATH=_ROOT, JAX_PLATFORMS="cpu")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.count("ROWS") == 1
    assert "ROWS [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]" in out.stdout
    assert "python_multiprocessing runs in threads here" in out.stderr


def test_main_guard_ranges_are_found(tmp_path):
    script = tmp_path / "guarded.py"
    script.write_text("import os\nx = 1\nif __name__ == '__main__':\n    y = 2\n    z = 3\nw = 4\n")
    assert _spawn._guarded_lines(str(script)) == ((4, 5),)
    other = tmp_path / "reversed.py"
    other.write_text("if '__main__' == __name__:\n    pass\nif __name__ == 'x':\n    pass\n")
    assert _spawn._guarded_lines(str(other)) == ((2, 2),)


def test_pytest_main_module_allows_processes():
    # pytest's own entry point is guarded, so pipelines built in tests keep their worker processes.
    assert _spawn.main_module_is_spawn_safe()


def test_no_script_allows_processes_except_in_interactive_sessions(monkeypatch):
    import builtins
    import types

    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))  # python -c, xdist workers
    assert _spawn.main_module_is_spawn_safe()
    monkeypatch.setattr(builtins, "__IPYTHON__", True, raising=False)  # IPython / Jupyter
    assert not _spawn.main_module_is_spawn_safe()


def test_without_a_script_python_code_from_main_keeps_to_threads(monkeypatch):
    import types

    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))

    def square(x):
        return x * x

    square.__module__ = "__main__"  # as a function typed into `python -c` or stdin
    assert not _spawn.main_module_is_spawn_safe([square])
    assert _spawn.main_module_is_spawn_safe([len])

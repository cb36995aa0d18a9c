"""Throughput of an MNIST-format input pipeline, and what it costs a LeNet training step.

1. Images per second of ``MnistDataset -> map(Rescale, Normalize, HWC2CHW) ->
   batch(128)`` read from idx files written to a temporary folder, with one
   worker and two threads; and of the same normalisation written as a Python
   function (read row by row), with one worker and two worker processes
   (``python_multiprocessing=True``: grain's ``mp_prefetch``).
2. A LeNet-5 training step (plain ``jax.jit`` + SGD) fed from arrays already on
   the device, against the same step fed by ``device_iterator`` (prefetch and
   device placement in the background). The overhead column is the pipeline's
   share of the step time.

Run: ``python -m benchmarks.dataset_pipeline [--images 20000]``
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

import mindjax.dataset as ds
from mindjax.dataset import vision
from benchmarks._timing import markdown_table

BATCH = 128


def _write_idx(path: str, magic: int, data: np.ndarray) -> None:
    header = magic.to_bytes(4, "big") + b"".join(int(d).to_bytes(4, "big") for d in data.shape)
    with open(path, "wb") as f:
        f.write(header + data.tobytes())


def write_mnist(root: str, n: int) -> None:
    """Random MNIST-format train files with ``n`` images."""
    rng = np.random.default_rng(0)
    _write_idx(os.path.join(root, "train-images-idx3-ubyte"), 2051,
               rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8))
    _write_idx(os.path.join(root, "train-labels-idx1-ubyte"), 2049, rng.integers(0, 10, size=(n,), dtype=np.uint8))


def _normalize_chw(image: np.ndarray) -> np.ndarray:
    """The same normalisation as the built-in transforms, as a plain Python function (one row at a time)."""
    x = (image.astype(np.float32) * np.float32(1.0 / 255.0) - np.float32(0.1307)) * np.float32(1.0 / 0.3081)
    return np.ascontiguousarray(x.transpose(2, 0, 1))


def pipeline(root: str, workers: int, python_fn: bool) -> ds.Dataset:
    """The measured pipeline: decode (idx read), normalize, batch 128.

    With the built-in transforms a batch is read and normalised at once (threads,
    as MindSpore runs its C++ transforms); a Python function runs row by row, in
    worker processes when ``workers > 1`` (``python_multiprocessing=True``).
    """
    data = ds.MnistDataset(root, usage="train", num_parallel_workers=workers)
    if python_fn:
        data = data.map(_normalize_chw, input_columns="image", num_parallel_workers=workers,
                        python_multiprocessing=True)
    else:
        ops = [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize([0.1307], [0.3081]), vision.HWC2CHW()]
        data = data.map(ops, input_columns="image", num_parallel_workers=workers)
    return data.batch(BATCH, drop_remainder=True)


def images_per_second(root: str, workers: int, python_fn: bool) -> tuple[float, float]:
    """(images/s in steady state, seconds to the first batch)."""
    data = pipeline(root, workers, python_fn)
    start = time.perf_counter()
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
    next(it)
    first = time.perf_counter() - start
    start = time.perf_counter()
    count = sum(b[0].shape[0] for b in it)
    rate = count / (time.perf_counter() - start)
    it.stop()
    return rate, first


def _lenet_step():
    import jax
    import jax.numpy as jnp

    def init(key):
        k = jax.random.split(key, 5)
        return {"c1": jax.random.normal(k[0], (6, 1, 5, 5)) * 0.1, "c2": jax.random.normal(k[1], (16, 6, 5, 5)) * 0.1,
                "f1": jax.random.normal(k[2], (256, 120)) * 0.05, "f2": jax.random.normal(k[3], (120, 84)) * 0.05,
                "f3": jax.random.normal(k[4], (84, 10)) * 0.05}

    def forward(p, x):
        dn = ("NCHW", "OIHW", "NCHW")
        x = jax.nn.relu(jax.lax.conv_general_dilated(x, p["c1"], (1, 1), "VALID", dimension_numbers=dn))
        x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        x = jax.nn.relu(jax.lax.conv_general_dilated(x, p["c2"], (1, 1), "VALID", dimension_numbers=dn))
        x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        x = x.reshape(x.shape[0], -1)
        return jax.nn.relu(jax.nn.relu(x @ p["f1"]) @ p["f2"]) @ p["f3"]

    @jax.jit
    def step(p, x, y):
        def loss(p):
            logits = forward(p, x)
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None].astype(jnp.int32), 1))
        grads = jax.grad(loss)(p)
        return jax.tree.map(lambda w, g: w - 0.01 * g, p, grads)

    return init(jax.random.PRNGKey(0)), step


def lenet_overhead(root: str, workers: int, python_fn: bool, steps: int) -> tuple[float, float]:
    """(ms per step on in-memory device arrays, ms per step fed by device_iterator)."""
    import jax

    params, step = _lenet_step()
    data = pipeline(root, workers, python_fn)
    batches = [tuple(b) for b in data.create_tuple_iterator(output_numpy=True, num_epochs=1)][:steps]
    device_batches = [tuple(jax.device_put(a) for a in b) for b in batches]
    params = step(params, *device_batches[0])
    jax.block_until_ready(params)
    start = time.perf_counter()
    for x, y in device_batches:
        params = step(params, x, y)
    jax.block_until_ready(params)
    in_memory = (time.perf_counter() - start) / len(device_batches)
    with data.device_iterator(num_epochs=1) as it:
        params = step(params, *next(it))  # the workers start and the buffers fill here
        jax.block_until_ready(params)
        start = time.perf_counter()
        n = 0
        for x, y in it:
            params = step(params, x, y)
            n += 1
            if n == len(device_batches):
                break
        jax.block_until_ready(params)
    fed = (time.perf_counter() - start) / n
    return in_memory * 1e3, fed * 1e3


def main() -> None:
    """Write the files, run the measurements, print markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        write_mnist(root, args.images)
        rows = []
        cases = (("built-in transforms, 1 worker", 1, False), ("built-in transforms, 2 threads", 2, False),
                 ("Python function, 1 worker", 1, True), ("Python function, 2 processes", 2, True))
        for label, workers, python_fn in cases:
            rate, first = images_per_second(root, workers, python_fn)
            rows.append([label, f"{rate:,.0f}", f"{first:.2f}"])
        print(f"MNIST-format pipeline, {args.images} images, batch {BATCH}, {ds.config.cpu_count()} cores\n")
        print(markdown_table(["workers", "images/s", "first batch (s)"], rows))
        steps = max(2, min(100, args.images // BATCH - 1))
        rows = []
        for label, workers, python_fn in (cases[0], cases[3]):
            mem, fed = lenet_overhead(root, workers, python_fn, steps)
            rows.append([label, f"{mem:.2f}", f"{fed:.2f}", f"{100 * (fed - mem) / fed:+.1f}%"])
        print(f"\nLeNet-5 step, batch {BATCH}, {steps} steps\n")
        print(markdown_table(["pipeline", "in-memory ms/step", "pipeline-fed ms/step", "pipeline share"], rows))


if __name__ == "__main__":
    main()

"""Side-by-side benchmarks: MindJAX against hand-written JAX (and peers when installed)."""

"""Lowest layer: dtypes, Tensor behaviour on jax.Array, random state, initializers."""

"""``mindspore.ops.composite``: ``MultitypeFuncGraph``, ``HyperMap``, ``Map``, ``Partial``.

Model-zoo training Cells apply a function to every gradient with these, e.g.::

    grad_scale = C.MultitypeFuncGraph("grad_scale")

    @grad_scale.register("Tensor", "Tensor")
    def _tensor_grad_scale(scale, grad):
        return grad * ops.Reciprocal()(scale)

    grads = C.HyperMap()(F.partial(grad_scale, scale), grads)

In MindSpore they build graph nodes; here they are plain Python dispatch over
pytrees, so they work eagerly and under ``jax.jit`` alike.

``from mindjax.ops import composite as C`` gives this package, with
``GradOperation`` and the clip functions besides; the implementations are in
``composite.base``, MindSpore's module for them.
"""
from mindjax.ops.composite import base
from mindjax.ops.composite.base import (GradOperation, HyperMap, Map, MultitypeFuncGraph, Partial, hyper_add, tail,
                                        zip_operation)
from mindjax.ops.functional import clip_by_global_norm, clip_by_value, partial

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "Partial", "partial", "GradOperation", "clip_by_value",
           "clip_by_global_norm", "tail", "zip_operation", "hyper_add"]

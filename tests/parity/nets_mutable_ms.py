"""MindSpore nets for test_mutable_generator_parity (GRAPH mode parses this file's source)."""
import mindspore
from mindspore import nn


class ProductScale(nn.Cell):
    def construct(self, z, n):
        return z[0] * z[1] * n


def grads(z, n, position=(0, 1)):
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    try:
        return mindspore.grad(ProductScale(), grad_position=position)(z, n)
    finally:
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)


def forward(z, n):
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    try:
        return ProductScale()(z, n)
    finally:
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)

"""MindSpore's module paths exist in MindJAX and name the implementations themselves (not copies)."""
import importlib

import pytest

import mindjax
from mindjax.cells import containers, learning_rate, loss as cells_loss
from mindjax.cells.layers import (activation, basic, conv, embedding, extra, normalization, pooling, rnn,
                                  transformer)
from mindjax.cells.optim import ada_grad, adam, lamb, momentum, optimizer, rmsprop, sgd
from mindjax.cells.wrap import cell_wrapper, loss_scale
from mindjax.cells import cell, parameter
from mindjax.train import loss_scale as train_loss_scale

# (module path, name, the implementing object)
CASES = [
    ("mindjax.common.parameter", "Parameter", parameter.Parameter),
    ("mindjax.common.parameter", "ParameterTuple", parameter.ParameterTuple),
    ("mindjax.common", "Parameter", parameter.Parameter),
    ("mindjax.common", "ParameterTuple", parameter.ParameterTuple),
    ("mindjax.common", "Tensor", mindjax.Tensor),
    ("mindjax.common.api", "jit", mindjax.jit),
    ("mindjax.common.api", "jit_class", mindjax.jit_class),
    ("mindjax.nn.layer.conv", "Conv3dTranspose", conv.Conv3dTranspose),
    ("mindjax.nn.layer.conv", "Conv2d", conv.Conv2d),
    ("mindjax.nn.layer.basic", "Dense", basic.Dense),
    ("mindjax.nn.layer.basic", "Pad", extra.Pad),
    ("mindjax.nn.layer.normalization", "BatchNorm2d", normalization.BatchNorm2d),
    ("mindjax.nn.layer.activation", "get_activation", activation.get_activation),
    ("mindjax.nn.layer.pooling", "MaxPool2d", pooling.MaxPool2d),
    ("mindjax.nn.layer.embedding", "Embedding", embedding.Embedding),
    ("mindjax.nn.layer.rnns", "LSTM", rnn.LSTM),
    ("mindjax.nn.layer.rnn_cells", "GRUCell", rnn.GRUCell),
    ("mindjax.nn.layer.transformer", "TransformerEncoder", transformer.TransformerEncoder),
    ("mindjax.nn.layer.container", "SequentialCell", containers.SequentialCell),
    ("mindjax.nn.layer.padding", "ZeroPad2d", extra.ZeroPad2d),
    ("mindjax.nn.layer.math", "Range", extra.Range),
    ("mindjax.nn.layer", "CellList", containers.CellList),
    ("mindjax.nn.loss", "MSELoss", cells_loss.MSELoss),
    ("mindjax.nn.loss.loss", "FocalLoss", extra.FocalLoss),
    ("mindjax.nn.loss.loss", "SoftmaxCrossEntropyWithLogits", cells_loss.SoftmaxCrossEntropyWithLogits),
    ("mindjax.nn.optim", "Momentum", momentum.Momentum),
    ("mindjax.nn.optim.momentum", "Momentum", momentum.Momentum),
    ("mindjax.nn.optim.adam", "AdamWeightDecay", adam.AdamWeightDecay),
    ("mindjax.nn.optim.sgd", "SGD", sgd.SGD),
    ("mindjax.nn.optim.optimizer", "Optimizer", optimizer.Optimizer),
    ("mindjax.nn.optim.lamb", "Lamb", lamb.Lamb),
    ("mindjax.nn.optim.rmsprop", "RMSProp", rmsprop.RMSProp),
    ("mindjax.nn.optim.ada_grad", "Adagrad", ada_grad.Adagrad),
    ("mindjax.nn.dynamic_lr", "cosine_decay_lr", learning_rate.cosine_decay_lr),
    ("mindjax.nn.learning_rate_schedule", "WarmUpLR", learning_rate.WarmUpLR),
    ("mindjax.nn.wrap", "TrainOneStepCell", cell_wrapper.TrainOneStepCell),
    ("mindjax.nn.wrap.cell_wrapper", "WithLossCell", cell_wrapper.WithLossCell),
    ("mindjax.nn.wrap.loss_scale", "TrainOneStepWithLossScaleCell", loss_scale.TrainOneStepWithLossScaleCell),
    ("mindjax.nn.cell", "Cell", cell.Cell),
    ("mindjax.train.loss_scale_manager", "DynamicLossScaleManager", train_loss_scale.DynamicLossScaleManager),
    ("mindjax.train.loss_scale_manager", "FixedLossScaleManager", train_loss_scale.FixedLossScaleManager),
    ("mindjax", "Callback", importlib.import_module("mindjax.train.callback").Callback),
    ("mindjax.train.summary.summary_record", "SummaryRecord", mindjax.SummaryRecord),
    ("mindjax.train.summary", "SummaryRecord", mindjax.SummaryRecord),
    ("mindjax.ops.functional", "jet", importlib.import_module("mindjax.transforms.grad").jet),
    ("mindjax.ops.functional", "linearize", importlib.import_module("mindjax.transforms.grad").linearize),
    ("mindjax.ops.functional", "derivative", importlib.import_module("mindjax.transforms.grad").derivative),
    ("mindjax.ops", "jet", importlib.import_module("mindjax.transforms.grad").jet),
    ("mindjax.ops.operations", "HookBackward", importlib.import_module("mindjax.transforms.custom_grad").HookBackward),
    ("mindjax.ops.operations", "InsertGradientOf",
     importlib.import_module("mindjax.transforms.custom_grad").InsertGradientOf),
    ("mindjax.nn.utils", "no_init_parameters", parameter.no_init_parameters),
    ("mindjax.nn.utils.init", "no_init_parameters", parameter.no_init_parameters),
    ("mindjax.nn.probability.distribution._utils", "set_param_type",
     importlib.import_module("mindjax.nn.probability.distribution._utils.utils").set_param_type),
]


@pytest.mark.parametrize("module, name, impl", CASES, ids=[f"{c[0]}.{c[1]}" for c in CASES])
def test_path_names_the_implementation(module, name, impl):
    assert getattr(importlib.import_module(module), name) is impl


def test_nn_top_level_is_the_same_object_as_the_submodules():
    from mindjax import nn
    from mindjax.nn.layer.conv import Conv3dTranspose
    from mindjax.nn.optim.adam import Adam
    assert nn.Conv3dTranspose is Conv3dTranspose and nn.Adam is Adam
    assert nn.optim.Momentum is nn.Momentum and nn.wrap.cell_wrapper.TrainOneStepCell is nn.TrainOneStepCell


def test_every_nn_submodule_all_resolves():
    for path in ("mindjax.nn.layer", "mindjax.nn.loss", "mindjax.nn.optim", "mindjax.nn.wrap", "mindjax.nn.grad",
                 "mindjax.nn.cell", "mindjax.nn.dynamic_lr", "mindjax.nn.learning_rate_schedule", "mindjax.mint",
                 "mindjax.mint.nn", "mindjax.mint.nn.functional", "mindjax.mint.optim", "mindjax.numpy",
                 "mindjax.experimental.optim", "mindjax.experimental.optim.lr_scheduler", "mindjax.boost",
                 "mindjax.boost.grad_accumulation", "mindjax.log", "mindjax.ops.primitive", "mindjax.common"):
        module = importlib.import_module(path)
        missing = [n for n in module.__all__ if not hasattr(module, n)]
        assert not missing, f"{path}.__all__ names what it lacks: {missing}"


def test_nn_layer_exports_every_name_of_its_modules():
    from mindjax.nn import layer
    for sub in ("activation", "basic", "conv", "normalization", "pooling", "embedding", "rnns", "rnn_cells",
                "transformer", "container", "padding", "math"):
        assert set(importlib.import_module(f"mindjax.nn.layer.{sub}").__all__) <= set(layer.__all__)


def test_ops_functional_holds_the_grad_family():
    from mindjax.ops.functional import grad, stop_gradient, value_and_grad, vjp
    from mindjax.transforms import custom_grad, grad as grad_module
    assert grad is grad_module.grad and vjp is grad_module.vjp and value_and_grad is grad_module.value_and_grad
    assert stop_gradient is custom_grad.stop_gradient


def test_ops_composite_base_holds_the_implementations():
    from mindjax.ops import composite
    from mindjax.ops.composite.base import GradOperation, HyperMap, MultitypeFuncGraph
    from mindjax.transforms.grad import GradOperation as impl
    assert composite.HyperMap is HyperMap and composite.MultitypeFuncGraph is MultitypeFuncGraph
    assert GradOperation is impl


def test_ops_auto_generate_names_the_primitives():
    from mindjax.ops import auto_generate, operations
    assert auto_generate.MatMul is operations.MatMul and set(operations.__all__) <= set(auto_generate.__all__)


def test_ops_primitive_and_zoo_names():
    from mindjax import ops
    from mindjax.ops import primitive, primitives
    assert ops.primitive.Primitive is primitives.Primitive
    assert ops.constexpr is primitive.constexpr and mindjax.constexpr is primitive.constexpr
    assert ops.ReduceOp.SUM == "sum" and ops.Reciprocal.__name__ == "Reciprocal"


def test_common_tensor_attribute_is_the_factory_and_the_module_stays_importable():
    import sys
    import mindjax.common
    assert mindjax.common.tensor is mindjax.tensor
    assert sys.modules["mindjax.common.tensor"].Tensor is mindjax.Tensor


def test_top_level_names():
    for name in ("set_device", "run_check", "STRICT", "LAX", "COMPATIBLE", "jit_class", "JitConfig",
                 "dtype_to_nptype", "tensor", "from_numpy", "RowTensor", "Callback", "LossMonitor",
                 "DynamicLossScaleManager", "get_level", "numpy", "mint", "boost", "experimental", "log"):
        assert hasattr(mindjax, name), name
    assert (mindjax.STRICT, mindjax.COMPATIBLE, mindjax.LAX) == (0, 1, 2)


def test_no_init_parameters_turns_init_param_off_inside_the_block_only():
    import numpy as np
    from mindjax.nn.utils import no_init_parameters

    assert parameter.Parameter.init_param is True
    with no_init_parameters():
        assert parameter.Parameter.init_param is False
        p = parameter.Parameter(np.ones(2, np.float32), name="w")
    assert parameter.Parameter.init_param is True
    assert p.init_data().asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError):
        with no_init_parameters():
            raise RuntimeError("inside")
    assert parameter.Parameter.init_param is True


def test_distribution_check_primitives_pass_their_kind_and_refuse_others():
    import numpy as np
    from mindjax.nn.probability.distribution._utils.utils import CheckTensor, CheckTuple

    assert CheckTuple()((1, 2), "input") == (1, 2)
    with pytest.raises(TypeError, match="For input, input type must be a tuple"):
        CheckTuple()("tuple", "input")
    t = mindjax.Tensor(np.ones(2, np.float32))
    assert CheckTensor()(t, "input") is t
    with pytest.raises(TypeError, match="For input, input type must be a Tensor or Parameter"):
        CheckTensor()("tuple", "input")

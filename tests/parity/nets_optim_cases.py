"""Optimizer configurations shared by the optimizer parity tests.

Each case builds an optimizer from a framework's ``nn`` module and a list of
four Parameters (``fc.weight``, ``fc.bias``, ``bn.gamma``, ``conv.weight``), so the same
code builds the MindSpore and the MindJAX optimizer.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

PARAM_SHAPES = {"fc.weight": (3, 4), "fc.bias": (3,), "bn.gamma": (3,), "conv.weight": (2, 16, 3)}


def initial_values(seed: int = 0) -> dict[str, np.ndarray]:
    """The shared initial weights."""
    rng = np.random.default_rng(seed)
    return {name: rng.standard_normal(shape).astype(np.float32) for name, shape in PARAM_SHAPES.items()}


def gradient_sequence(steps: int = 5, seed: int = 1) -> list[list[np.ndarray]]:
    """``steps`` gradients for the three parameters, in parameter order."""
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(shape).astype(np.float32) for shape in PARAM_SHAPES.values()]
            for _ in range(steps)]


def _groups(params: list[Any], **first: Any) -> list[dict[str, Any]]:
    return [dict(params=params[:1], **first), {"params": params[1:]}]


# Not here, because MindSpore 2.10 cannot run them on CPU: Lamb (no CPU kernel) and
# grad_centralization (no CPU Centralization kernel); tests/cells/test_optim.py checks them
# against numpy.
CASES: dict[str, Callable[[Any, list[Any]], Any]] = {
    "sgd": lambda nn, p: nn.SGD(p, 0.1),
    "sgd_momentum_dampening_wd": lambda nn, p: nn.SGD(p, 0.1, momentum=0.9, dampening=0.3, weight_decay=0.01),
    "sgd_nesterov_loss_scale": lambda nn, p: nn.SGD(p, 0.05, momentum=0.8, nesterov=True, loss_scale=4.0,
                                                    weight_decay=0.02),
    "momentum": lambda nn, p: nn.Momentum(p, 0.1, 0.9),
    # MindSpore 2.10's CPU kernel ignores use_nesterov (its GPU kernel and docs do not): no parity case.
    "momentum_wd_loss_scale": lambda nn, p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.05, loss_scale=8.0),
    "momentum_list_lr": lambda nn, p: nn.Momentum(p, [0.1, 0.08, 0.06, 0.04, 0.02], 0.9),
    "momentum_schedule": lambda nn, p: nn.Momentum(p, nn.ExponentialDecayLR(0.1, 0.9, 2), 0.9),
    "momentum_groups": lambda nn, p: nn.Momentum(_groups(p, lr=0.3, weight_decay=0.1), 0.1, 0.9),
    "momentum_groups_dynamic": lambda nn, p: nn.Momentum(
        _groups(p, lr=nn.CosineDecayLR(0.01, 0.2, 3)), [0.1, 0.09, 0.08, 0.07, 0.06], 0.9),
    "momentum_groups_ordered": lambda nn, p: nn.Momentum(
        _groups(p, weight_decay=0.1) + [{"order_params": [p[2], p[0], p[3], p[1]]}], 0.1, 0.9),
    "adam": lambda nn, p: nn.Adam(p, 0.01),
    "adam_nesterov_wd": lambda nn, p: nn.Adam(p, 0.01, use_nesterov=True, weight_decay=0.1),
    "adam_amsgrad_loss_scale": lambda nn, p: nn.Adam(p, 0.01, use_amsgrad=True, loss_scale=2.0),
    "adam_schedule": lambda nn, p: nn.Adam(p, nn.WarmUpLR(0.01, 3)),
    "adam_groups": lambda nn, p: nn.Adam(_groups(p, lr=0.02, weight_decay=0.05), 0.01),
    "adam_weight_decay": lambda nn, p: nn.AdamWeightDecay(p, 0.01, weight_decay=0.1),
    "adam_weight_decay_groups": lambda nn, p: nn.AdamWeightDecay(_groups(p, lr=0.05, weight_decay=0.2), 0.01),
    "adam_weight_decay_poly": lambda nn, p: nn.AdamWeightDecay(p, nn.PolynomialDecayLR(0.01, 0.001, 3, 2.0)),
    "rmsprop": lambda nn, p: nn.RMSProp(p, 0.01),
    "rmsprop_centered_momentum_wd": lambda nn, p: nn.RMSProp(p, 0.01, momentum=0.5, centered=True,
                                                             weight_decay=0.1, loss_scale=2.0),
    "rmsprop_groups": lambda nn, p: nn.RMSProp(_groups(p, lr=0.05), 0.01, momentum=0.9),
    "adagrad": lambda nn, p: nn.Adagrad(p, learning_rate=0.1),
    # MindSpore 2.10's CPU kernel ignores update_slots=False (its GPU kernel and docs do not): no parity case.
    "adagrad_accum_wd": lambda nn, p: nn.Adagrad(p, accum=0.5, learning_rate=0.1, weight_decay=0.1),
    "adagrad_schedule_groups": lambda nn, p: nn.Adagrad(_groups(p, lr=nn.InverseDecayLR(0.1, 0.5, 2)),
                                                        learning_rate=0.05),
    "adamax": lambda nn, p: nn.AdaMax(p, 0.01),
    "adamax_wd_loss_scale_groups": lambda nn, p: nn.AdaMax(_groups(p, lr=0.02, weight_decay=0.1), 0.01,
                                                           beta1=0.8, beta2=0.95, eps=1e-6, loss_scale=4.0),
    "asgd": lambda nn, p: nn.ASGD(p, 0.1),
    "asgd_averaging_wd": lambda nn, p: nn.ASGD(p, 0.05, lambd=0.01, alpha=0.5, t0=2.0, weight_decay=0.1),
    "asgd_groups_list_lr": lambda nn, p: nn.ASGD(_groups(p, lr=0.2, weight_decay=0.01),
                                                 [0.1, 0.09, 0.08, 0.07, 0.06], t0=1.0),
    "rprop": lambda nn, p: nn.Rprop(p, 0.1),
    "rprop_clipped_wd": lambda nn, p: nn.Rprop(p, 0.05, etas=(0.3, 1.5), step_sizes=(0.01, 0.06),
                                               weight_decay=0.1),
    "adadelta": lambda nn, p: nn.Adadelta(p),
    "adadelta_rho_wd_loss_scale": lambda nn, p: nn.Adadelta(p, 0.5, rho=0.8, epsilon=1e-4, weight_decay=0.1,
                                                            loss_scale=2.0),
    "adadelta_groups_schedule": lambda nn, p: nn.Adadelta(_groups(p, lr=0.3), nn.ExponentialDecayLR(0.5, 0.9, 2)),
    "ftrl": lambda nn, p: nn.FTRL(p),
    "ftrl_accum_lr": lambda nn, p: nn.FTRL(p, initial_accum=0.5, learning_rate=0.1, loss_scale=2.0),
    "proximal_adagrad": lambda nn, p: nn.ProximalAdagrad(p, learning_rate=0.1),
    # MindSpore 2.10's CPU kernels of ProximalAdagrad and FTRL give other numbers than their documented
    # formulas once l1/l2 (or FTRL's lr_power/weight decay) are set: no parity case for those yet.
    "proximal_adagrad_groups": lambda nn, p: nn.ProximalAdagrad(_groups(p, lr=0.2), accum=0.3, learning_rate=0.1),
    "rprop_groups_schedule": lambda nn, p: nn.Rprop(_groups(p, lr=0.2), nn.ExponentialDecayLR(0.1, 0.9, 2)),
    "lazy_adam": lambda nn, p: nn.LazyAdam(p, 0.01),
    "lazy_adam_nesterov_wd_loss_scale": lambda nn, p: nn.LazyAdam(p, 0.01, use_nesterov=True, weight_decay=0.1,
                                                                  loss_scale=4.0),
    "lazy_adam_groups_schedule": lambda nn, p: nn.LazyAdam(_groups(p, lr=0.02, weight_decay=0.05),
                                                           nn.WarmUpLR(0.01, 3)),
    "adam_offload": lambda nn, p: nn.AdamOffload(p, 0.01),
    "adam_offload_wd_loss_scale_groups": lambda nn, p: nn.AdamOffload(_groups(p, lr=0.02, weight_decay=0.05), 0.01,
                                                                      beta1=0.8, eps=1e-6, loss_scale=2.0),
    "ada_factor": lambda nn, p: nn.AdaFactor(p),
    "ada_factor_warmup_wd": lambda nn, p: nn.AdaFactor(p, warmup_init=True, weight_decay=0.1, decay_rate=0.5),
    # (beta1=None is in test_optim_new_parity.py: MindSpore names its placeholder 'Parameter$<n>'.)
    "ada_factor_fixed_lr_clipped": lambda nn, p: nn.AdaFactor(p, learning_rate=0.01, relative_step=False,
                                                              clip_threshold=0.5),
    # MindSpore 2.10's AdaFactor fails on group learning rates (its hyper_map gets a tuple of rates).
    "ada_factor_unscaled": lambda nn, p: nn.AdaFactor(p, learning_rate=0.02, relative_step=False,
                                                      scale_parameter=False),
    "ada_factor_schedule": lambda nn, p: nn.AdaFactor(p, learning_rate=nn.ExponentialDecayLR(0.05, 0.9, 2),
                                                      relative_step=False, eps=(1e-20, 1e-2)),

}

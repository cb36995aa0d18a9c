"""``mindspore.nn.layer.image`` (implemented in :mod:`mindjax.cells.layers.math_image`)."""
from mindjax.cells.layers.math_image import MSSSIM, PSNR, SSIM, CentralCrop, ImageGradients

__all__ = ["ImageGradients", "SSIM", "PSNR", "CentralCrop", "MSSSIM"]

"""ResNet-18 and ResNet-50 with the MindSpore model zoo's structure and parameter names."""

"""Graph mode (jit), control-flow conversion, the grad family, custom bprop and hooks."""

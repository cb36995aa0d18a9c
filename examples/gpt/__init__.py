"""A small GPT trained on characters: stand-alone, data, semi-auto (Megatron) and auto parallel."""

"""Runnable MindSpore-style training scripts on MindJAX."""

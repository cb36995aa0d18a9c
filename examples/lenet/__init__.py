"""LeNet-5 on handwritten digits: the main job."""

"""Wide&Deep on synthetic Criteo-shaped data, the embedding table split over the devices (hybrid parallel)."""

"""A table on simulated hardware: the virtual dealer and its players with their profiles, the
truth of what each profile saw, and the simulated table's own signing key."""

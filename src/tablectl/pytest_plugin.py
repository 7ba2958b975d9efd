"""pytest plugin: selects the device under test for the device contract tests (labgrid's way)."""

"""The whole project: lint and types, the import layers, the README, the figures in the docs."""

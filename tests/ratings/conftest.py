"""The rating module: the model, the formats, the computer levels' anchors and their fit."""

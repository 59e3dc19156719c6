"""``mindspore.runtime.device``: helpers behind the runtime package (no public names)."""

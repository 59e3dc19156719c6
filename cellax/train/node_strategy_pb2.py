"""``mindspore.train.node_strategy_pb2``: the protobuf messages of MindSpore's parallel
strategy files. cellax does not write strategy files (its sharded checkpoints carry their own
layout); the message classes import and raise ``NotImplementedError`` when built."""

__all__ = [
    "ParallelStrategyMap",
    "ParallelStrategyItem",
    "ParallelStrategys",
    "ParallelStrategy",
    "ParallelLayouts",
    "ParallelLayoutItem",
    "ParallelGroupMap",
]


def _message(name: str) -> type:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"For '{name}', cellax does not read or write MindSpore's parallel strategy files; "
            "sharded cellax checkpoints carry their layout (cellax.load_distributed_checkpoint)."
        )

    return type(name, (), {"__init__": __init__, "__doc__": f"MindSpore's {name} message."})


ParallelStrategyMap = _message("ParallelStrategyMap")
ParallelStrategyItem = _message("ParallelStrategyItem")
ParallelStrategys = _message("ParallelStrategys")
ParallelStrategy = _message("ParallelStrategy")
ParallelLayouts = _message("ParallelLayouts")
ParallelLayoutItem = _message("ParallelLayoutItem")
ParallelGroupMap = _message("ParallelGroupMap")

"""``mindspore.runtime.thread_bind_core``: MindSpore's automatic core-binding policy.

It reads Ascend NPU and NUMA topology (``npu-smi``, ``lspci``); cellax has no such policy.
:func:`cellax.runtime.set_cpu_affinity` binds the calling thread to the cores it is given.
"""

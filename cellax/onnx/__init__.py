"""``mindspore.onnx``: export a network to an ONNX file (``mindspore.onnx.export``).

The conversion is cellax's own lowering of the network's jaxpr onto the ``onnx`` package
(``pip install 'cellax[onnx]'``); see the "Deploy" guide.
"""

from .._serialization._onnx import export

__all__ = ["export"]

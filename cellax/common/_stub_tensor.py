"""``mindspore.common._stub_tensor``: MindSpore 2.10 keeps ``StubTensor`` as an empty class
that no tensor is an instance of; code still lists it in ``isinstance`` checks."""


class StubTensor:
    """No tensor is a StubTensor (as in MindSpore 2.10)."""

"""Printing a Tensor created with ``init`` before and after ``init_data``/``asnumpy``.

Run under MindSpore 2.10 (``python tests/goldens/lazy_init_print.py``) to record the text that
``tests/test_tensor_repr.py::test_lazy_init_prints_like_mindspore`` expects; the test runs
:func:`main` with cellax as ``ms``.
"""


def main(ms, initializer):
    t = ms.Tensor(shape=(3,), dtype=ms.float32, init=initializer.One())
    print("A", t)
    s = ms.Tensor(shape=(), dtype=ms.float32, init=initializer.One())
    print("S", s)
    u = ms.Tensor(shape=(2, 2), dtype=ms.float32, init=initializer.One())
    print("C", u.has_init, u)
    v = ms.Tensor(shape=(2, 2), dtype=ms.float32, init=initializer.One())
    print("D", v.asnumpy().tolist(), v.has_init)
    print("E", v)
    w = ms.Tensor(shape=(2, 2), dtype=ms.float32, init="ones")
    print("F", w, w.has_init)  # (init_data() of a str init raises a TypeError in 2.10)


if __name__ == "__main__":
    import mindspore
    from mindspore.common import initializer as init_module

    main(mindspore, init_module)

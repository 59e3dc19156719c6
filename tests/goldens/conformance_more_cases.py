"""Issue 23, the rest of MindSpore 2.10's ``mindspore.ops`` function list: cases in the format of
``conformance_cases.py`` (``out = ...`` snippets run under MindSpore 2.10 and cellax)."""

_X23 = "T(np.arange(6, dtype=np.float32).reshape(2, 3))"
_C23 = f"ops.fft({_X23})"

MORE_OPS = {
    # Fourier transforms
    "fft": f"out = ops.fft({_X23})",
    "fft_n_dim_norm": f"out = ops.fft({_X23}, n=5, dim=0, norm='ortho')",
    "fft_int": "out = ops.fft(T([1, 2, 3]))",
    "fft_f64": "out = ops.fft(T(np.array([1.0, 2.0])))",
    "fft_f16": "out = ops.fft(T(np.array([1.0, 2.0], np.float16)))",
    "fft_bool": "out = ops.fft(T([True, False]))",
    "fft_list": "out = ops.fft([1.0, 2.0])",
    "fft_bad_norm": f"out = ops.fft({_X23}, norm='x')",
    "fft_bad_n": f"out = ops.fft({_X23}, n=0)",
    "fft_bad_dim": f"out = ops.fft({_X23}, dim=2)",
    "ifft": f"out = ops.ifft({_C23})",
    "ifft_forward": f"out = ops.ifft({_C23}, norm='forward')",
    "rfft": f"out = ops.rfft({_X23}, norm='forward')",
    "rfft_int": "out = ops.rfft(T([1, 2, 3, 4]))",
    "irfft": f"out = ops.irfft(ops.rfft({_X23}))",
    "irfft_n": f"out = ops.irfft(ops.rfft({_X23}), n=3)",
    "hfft": f"out = ops.hfft({_C23})",
    "hfft_ortho": f"out = ops.hfft({_C23}, n=5, norm='ortho')",
    "ihfft": f"out = ops.ihfft({_X23})",
    "ihfft_forward": f"out = ops.ihfft({_X23}, n=4, norm='forward')",
    "fft2": f"out = ops.fft2({_X23})",
    "ifft2": f"out = ops.ifft2({_C23}, s=(3, 2))",
    "fftn": f"out = ops.fftn({_X23}, s=(3, 4))",
    "ifftn": f"out = ops.ifftn({_C23}, dim=(0,))",
    "rfft2": f"out = ops.rfft2({_X23}, norm='ortho')",
    "irfft2": f"out = ops.irfft2(ops.rfft2({_X23}), s=(2, 3))",
    "rfftn": f"out = ops.rfftn({_X23})",
    "irfftn": f"out = ops.irfftn(ops.rfftn({_X23}), s=(2, 3))",
    "hfft2": f"out = ops.hfft2({_C23})",
    "hfft2_s": f"out = ops.hfft2({_C23}, s=(3, 5), norm='forward')",
    "ihfft2": f"out = ops.ihfft2({_X23})",
    "hfftn": f"out = ops.hfftn({_C23}, norm='ortho')",
    "ihfftn": f"out = ops.ihfftn({_X23}, s=(2, 4))",
    "fftfreq": "out = ops.fftfreq(5, 0.5)",
    "rfftfreq": "out = ops.rfftfreq(6)",
    "fftfreq_f64": "out = ops.fftfreq(4, dtype=ms.float64)",
    "fftshift": f"out = ops.fftshift({_X23})",
    "ifftshift": f"out = ops.ifftshift({_X23}, 1)",
    "fftshift_int": "out = ops.fftshift(T([1, 2, 3, 4, 5]))",
}

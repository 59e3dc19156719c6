"""Deterministic image transforms shared by record_vision.py (MindSpore 2.10) and
tests/dataset/test_vision_goldens.py (cellax). Each case is an expression over ``v`` (the
``vision`` module) applied to the recorded input image; random ops get degenerate ranges.
``TOLERANCE`` lists the cases where cellax differs by design (documented), with the largest
difference allowed and the share of pixels that may differ."""

import numpy as np

CASES = {
    "autocontrast": "v.AutoContrast()",
    "autocontrast_cutoff": "v.AutoContrast(cutoff=10.0)",
    "autocontrast_ignore": "v.AutoContrast(ignore=[5, 6])",
    "invert": "v.Invert()",
    "equalize": "v.Equalize()",
    "solarize": "v.RandomSolarize(threshold=(128, 128))",
    "solarize_band": "v.RandomSolarize(threshold=(90, 90))",
    "posterize": "v.RandomPosterize(bits=(3, 3))",
    "color": "v.RandomColor(degrees=(0.3, 0.3))",
    "sharpness_low": "v.RandomSharpness(degrees=(0.2, 0.2))",
    "sharpness_high": "v.RandomSharpness(degrees=(1.7, 1.7))",
    "rotate": "v.RandomRotation(degrees=(30, 30))",
    "rotate_expand": "v.RandomRotation(degrees=(30, 30), expand=True)",
    "rotate_neg_fill": "v.RandomRotation(degrees=(-75, -75), fill_value=(9, 99, 199))",
    "shear_x": "v.RandomAffine(degrees=0, shear=(-20.0, -20.0))",
    "shear_y": "v.RandomAffine(degrees=0, shear=(0, 0, 15.0, 15.0))",
    "translate_x": "v.RandomAffine(degrees=0, translate=(0.2, 0.2))",
    "translate_y": "v.RandomAffine(degrees=0, translate=(0, 0, -0.3, -0.3))",
    "affine_rotate": "v.RandomAffine(degrees=(25, 25))",
    "affine_all": (
        "v.RandomAffine(degrees=(-40, -40), translate=(0.1, 0.1, 0.2, 0.2), scale=(1.3, 1.3), "
        "shear=(10, 10, -5, -5), fill_value=(1, 2, 3))"
    ),
    "blur_3": "v.GaussianBlur(kernel_size=3, sigma=1.2)",
    "blur_5": "v.GaussianBlur(kernel_size=5, sigma=0.8)",
    "blur_default_sigma": "v.GaussianBlur(kernel_size=3)",
    "blur_rect": "v.GaussianBlur(kernel_size=(3, 5), sigma=(0.7, 1.5))",
    "rotate_gray_fill": "lambda img: v.RandomRotation((90, 90), fill_value=(9, 99, 199))(img[..., 0])",
    "affine_gray_fill": (
        "lambda img: v.RandomAffine(0, translate=(0.5, 0.5), fill_value=(9, 99, 199))(img[..., 0])"
    ),
    "affine_fill": "v.RandomAffine(0, translate=(0.5, 0.5), fill_value=(9, 99, 199))",
    "rotate_bilinear": "v.RandomRotation(degrees=(30, 30), resample=v.Inter.BILINEAR)",
}

# name -> (largest absolute difference, share of differing values)
TOLERANCE = {
    "sharpness_high": (1, 0.05),  # float rounding of the smoothed copy
    "rotate_bilinear": (255, 1.0),  # Pillow's bilinear, not OpenCV's: only the shape is checked
}


def image() -> np.ndarray:
    img = np.random.RandomState(0).randint(30, 220, (9, 11, 3)).astype(np.uint8)
    img[0, 0] = 5
    img[1, 1] = 250
    return img

"""The digits data set of the examples: scikit-learn's bundled 8x8 digits, upsampled to 28x28.

No download: ``sklearn.datasets.load_digits`` ships with scikit-learn. Images are resized
bilinearly to MNIST's 28x28, scaled to [0, 1] and normalised with the training mean and
standard deviation; the split is fixed (seeded).
"""

from __future__ import annotations

import jax
import numpy as np


def load_digits_28(test_fraction: float = 0.2, seed: int = 0, subset: int | None = None):
    """Return ``(train_images, train_labels, test_images, test_labels)`` as NumPy arrays.

    Images are float32 of shape ``(N, 28, 28)``; labels int32. ``subset`` keeps only the first
    ``subset`` shuffled samples (for quick runs).
    """
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = digits.images.astype(np.float32) / 16.0
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(images))
    if subset is not None:
        order = order[:subset]
    images, labels = images[order], labels[order]
    images = np.asarray(
        jax.image.resize(images, (len(images), 28, 28), method="linear"), np.float32
    )
    n_test = int(round(len(images) * test_fraction))
    train_x, test_x = images[n_test:], images[:n_test]
    train_y, test_y = labels[n_test:], labels[:n_test]
    mean, std = train_x.mean(), train_x.std()
    return (train_x - mean) / std, train_y, (test_x - mean) / std, test_y


def batches(images, labels, batch_size: int, rng: np.random.Generator | None = None):
    """Yield ``(images, labels)`` batches of exactly ``batch_size`` (the remainder is
    dropped, so compiled steps see one shape); shuffled when ``rng`` is given."""
    order = np.arange(len(images)) if rng is None else rng.permutation(len(images))
    for start in range(0, len(images) - batch_size + 1, batch_size):
        index = order[start : start + batch_size]
        yield images[index], labels[index]

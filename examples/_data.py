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


def digits_dataset(images, labels, batch_size: int, shuffle: bool = True):
    """The MindSpore way: ``NumpySlicesDataset`` + ``map`` + ``batch``. Batches have exactly
    ``batch_size`` rows (``drop_remainder``), so compiled steps see one shape; the shuffle
    follows the dataset seed (``ms.set_seed`` sets it)."""
    import cellax as ms
    from cellax import dataset as ds
    from cellax.dataset import transforms

    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=shuffle)
    data = data.map(transforms.TypeCast(ms.float32), input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(batch_size, drop_remainder=True)


def fit(
    model, train_step, predict, data, *, epochs: int, batch_size: int, seed: int, progress: bool
) -> dict:
    """The examples' epoch loop: train with ``train_step(data, label) -> loss`` on the batches of
    :func:`digits_dataset` (a tqdm bar per epoch), then measure test accuracy with ``predict``;
    return the history."""
    import time

    import cellax as ms
    from tqdm import tqdm

    train_x, train_y, test_x, test_y = data
    ms.dataset.config.set_seed(seed)
    train_data = digits_dataset(train_x, train_y, batch_size)
    train_batches = train_data.create_tuple_iterator(num_epochs=epochs)
    history: dict = {"losses": [], "accuracy": []}
    start = time.perf_counter()
    for epoch in range(epochs):
        model.set_train()
        epoch_losses = []
        bar = tqdm(
            train_batches,
            total=train_data.get_dataset_size(),
            desc=f"Epoch {epoch + 1}/{epochs}",
            disable=not progress,
            leave=False,
        )
        for images, labels in bar:
            loss = train_step(images, labels)
            epoch_losses.append(float(loss.asnumpy()))
            bar.set_postfix(loss=f"{epoch_losses[-1]:.4f}")
        model.set_train(False)
        logits = predict(ms.Tensor(test_x))
        accuracy = float((logits.argmax(1) == ms.Tensor(test_y)).asnumpy().mean())
        history["losses"].append(float(np.mean(epoch_losses)))
        history["accuracy"].append(accuracy)
        if progress:
            print(
                f"Epoch {epoch + 1:2d}: loss {history['losses'][-1]:.4f}, "
                f"test accuracy {100 * accuracy:.1f}%"
            )
    history["seconds"] = time.perf_counter() - start
    if progress:
        print(f"Test accuracy: {100 * history['accuracy'][-1]:.1f}% ({history['seconds']:.1f} s)")
    return history

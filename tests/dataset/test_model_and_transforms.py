"""Model.train / Model.eval on datasets, and the random vision transforms and general transforms
(checked against NumPy references and invariants)."""

import io

import numpy as np
import pytest

import cellax as ms
from cellax import dataset as ds
from cellax import nn
from cellax.dataset import transforms, vision
from cellax.train import Callback, Model


class _Recorder(Callback):
    def __init__(self):
        self.steps, self.epochs, self.batch_num = 0, 0, None

    def on_train_step_end(self, run_context):
        self.steps += 1
        self.batch_num = run_context.original_args().batch_num

    def on_train_epoch_end(self, run_context):
        self.epochs += 1


def _separable_data(n=64):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32)
    return x, y


def test_model_trains_and_evaluates_on_a_dataset():
    ms.set_seed(1)
    x, y = _separable_data()
    train = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=True).batch(16, drop_remainder=True)
    net = nn.Dense(4, 2)
    model = Model(net, nn.CrossEntropyLoss(), nn.SGD(net.trainable_params(), 0.5), {"accuracy"})
    recorder = _Recorder()
    model.train(5, train, callbacks=recorder, dataset_sink_mode=True)
    assert recorder.steps == 20 and recorder.epochs == 5 and recorder.batch_num == 4
    test = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(32)
    assert model.eval(test)["accuracy"] > 0.9


def test_model_train_sees_a_new_shuffle_each_epoch():
    def first_rows(make_and_consume):
        ds.config.set_seed(5)
        data = ds.NumpySlicesDataset(np.arange(10, dtype=np.float32), shuffle=True)
        data = data.map(lambda v: (v.reshape(1), v.reshape(1)), "column_0", ["x", "y"]).batch(10)
        seen, original = [], data._rows

        def spy_rows(seed, epoch):
            rows = list(original(seed, epoch))
            seen.append([int(v) for v in rows[0][0].ravel()])
            return iter(rows)

        data._rows = spy_rows
        make_and_consume(data)
        return seen

    def two_epochs_by_hand(data):
        iterator = data.create_tuple_iterator(num_epochs=2)
        for _ in range(2):
            list(iterator)

    net = nn.Dense(1, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.0))
    by_model = first_rows(lambda data: model.train(2, data))
    by_hand = first_rows(two_epochs_by_hand)
    assert by_model == by_hand and by_model[0] != by_model[1]


def test_random_crop_and_flip_are_seeded_and_valid():
    image = np.arange(8 * 8 * 3, dtype=np.uint8).reshape(8, 8, 3)
    ds.config.set_seed(3)
    crops = [vision.RandomCrop(4)(image) for _ in range(5)]
    ds.config.set_seed(3)
    again = [vision.RandomCrop(4)(image) for _ in range(5)]
    for crop, other in zip(crops, again):
        np.testing.assert_array_equal(crop, other)
        top, left = divmod(int(crop[0, 0, 0]) // 3, 8)
        np.testing.assert_array_equal(crop, image[top : top + 4, left : left + 4])
    padded = vision.RandomCrop(8, padding=2, fill_value=0)(image)
    assert padded.shape == (8, 8, 3)
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(1.0)(image), image[:, ::-1])
    np.testing.assert_array_equal(vision.RandomVerticalFlip(0.0)(image), image)
    with pytest.raises(RuntimeError, match="RandomCrop"):
        vision.RandomCrop(9)(image)


def test_random_resized_crop_and_color_adjust():
    image = np.random.default_rng(0).integers(0, 256, (20, 30, 3), dtype=np.uint8)
    out = vision.RandomResizedCrop((8, 6), scale=(0.5, 1.0))(image)
    assert out.shape == (8, 6, 3) and out.dtype == np.uint8
    same = vision.RandomColorAdjust()(image)  # default ranges: identity
    np.testing.assert_array_equal(same, image)
    brighter = vision.RandomColorAdjust(brightness=(2.0, 2.0))(image)
    np.testing.assert_array_equal(brighter, np.minimum(image.astype(int) * 2, 255))


def test_decode_normalize_totensor_against_numpy():
    import io

    from PIL import Image

    image = np.random.default_rng(1).integers(0, 256, (5, 6, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, "PNG")
    decoded = vision.Decode()(np.frombuffer(buffer.getvalue(), np.uint8))
    np.testing.assert_array_equal(decoded, image)
    with pytest.raises(RuntimeError, match="Decode"):
        vision.Decode()(np.frombuffer(b"garbage", np.uint8))
    mean, std = [10.0, 20.0, 30.0], [2.0, 4.0, 8.0]
    np.testing.assert_allclose(
        vision.Normalize(mean, std)(image), (image - np.array(mean)) / np.array(std), rtol=1e-6
    )
    np.testing.assert_allclose(
        vision.ToTensor()(image), image.transpose(2, 0, 1) / 255.0, rtol=1e-6
    )


def test_general_transforms():
    np.testing.assert_allclose(
        transforms.OneHot(4, smoothing_rate=0.2)(np.array(1)), [0.05, 0.85, 0.05, 0.05], rtol=1e-6
    )
    with pytest.raises(RuntimeError, match="OneHot"):
        transforms.OneHot(2)(np.array(5))
    assert transforms.TypeCast(ms.float16)(np.array([1, 2])).dtype == np.float16
    assert transforms.Fill(3)(np.zeros((2, 2), np.int8)).tolist() == [[3, 3], [3, 3]]
    compose = transforms.Compose([vision.Rescale(0.5, 1.0), transforms.TypeCast(ms.int32)])
    assert compose(np.array([4, 6])).tolist() == [3, 4]
    assert transforms.RandomChoice([transforms.Fill(1), transforms.Fill(1)])(
        np.zeros(2)
    ).tolist() == [1, 1]


def test_compose_returns_a_tuple_on_the_python_path():
    from PIL import Image

    # MindSpore 2.10 (checked on its CPU build): called on one PIL image, or holding a
    # transform that makes PIL images, Compose runs its Python path and returns a tuple
    # (mindone's train_unconditional.py takes augmentations(image)[0]); on arrays, one output
    # comes back as it is
    array = np.arange(6 * 6 * 3, dtype=np.uint8).reshape(6, 6, 3)
    image = Image.fromarray(array)
    out = transforms.Compose([vision.Resize(4), vision.ToTensor()])(image)
    assert isinstance(out, tuple) and len(out) == 1 and out[0].shape == (3, 4, 4)
    out = transforms.Compose([vision.Resize(4)])(image)
    assert isinstance(out, tuple) and isinstance(out[0], Image.Image)
    out = transforms.Compose([vision.ToPIL(), vision.Resize(4), vision.ToTensor()])(array)
    assert isinstance(out, tuple) and out[0].shape == (3, 4, 4)
    buffer = io.BytesIO()
    Image.new("RGB", (5, 2)).save(buffer, "PNG")
    raw = np.frombuffer(buffer.getvalue(), np.uint8)
    out = transforms.Compose([vision.Decode(to_pil=True), vision.ToTensor()])(raw)
    assert isinstance(out, tuple) and out[0].shape == (3, 2, 5)
    assert transforms.Compose([vision.Decode(), vision.ToTensor()])(raw).shape == (3, 2, 5)
    assert transforms.Compose([vision.ToTensor()])(array).shape == (3, 6, 6)
    assert transforms.Compose([vision.Resize(4)])(array).shape == (4, 4, 3)
    pair = transforms.Compose([vision.HWC2CHW(), lambda x: (x, x)])(array)
    assert isinstance(pair, tuple) and len(pair) == 2


def test_vision_to_type_casts_arrays_and_pil_images():
    from PIL import Image

    # MindSpore 2.10: ToType(int32) truncates toward zero; a PIL image becomes an array
    got = vision.ToType(ms.int32)(np.array([[1.7, -2.2]], np.float32))
    assert got.dtype == np.int32 and got.tolist() == [[1, -2]]
    pil = Image.fromarray(np.full((2, 2, 3), 7, np.uint8))
    got = vision.ToType(np.float32)(pil)
    assert got.dtype == np.float32 and got.shape == (2, 2, 3) and float(got[0, 0, 0]) == 7.0
    with pytest.raises(TypeError, match="ToType"):
        vision.ToType(3)

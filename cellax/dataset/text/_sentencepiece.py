"""SentencePiece vocabularies and tokenizer, through the ``sentencepiece`` package (the library
MindSpore bundles): the ``text`` extra, ``pip install cellax[text]``."""

from __future__ import annotations

import enum
import importlib
import io
import os

import numpy as np

from ._text import _text

__all__ = [
    "SentencePieceModel",
    "SentencePieceTokenizer",
    "SentencePieceVocab",
    "SPieceTokenizerLoadType",
    "SPieceTokenizerOutType",
]


class SentencePieceModel(enum.IntEnum):
    """SentencePiece's subword algorithms, for :meth:`SentencePieceVocab.from_file`."""

    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerOutType(enum.IntEnum):
    """:class:`SentencePieceTokenizer`'s output: the pieces (``STRING``) or their ids (``INT``)."""

    STRING = 0
    INT = 1


class SPieceTokenizerLoadType(enum.IntEnum):
    """Where a :class:`SentencePieceTokenizer`'s model comes from (a file or a vocabulary)."""

    FILE = 0
    MODEL = 1


def _sentencepiece(api: str):
    try:
        return importlib.import_module("sentencepiece")
    except ImportError as error:
        raise ImportError(
            f"For '{api}', SentencePiece models need the 'sentencepiece' package, which is not "
            "installed. Install it with: pip install 'cellax[text]' (or pip install sentencepiece)."
        ) from error


def _check_train_args(api, vocab_size, character_coverage, model_type, params) -> None:
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size <= 0:
        raise ValueError(
            f"For '{api}', 'vocab_size' must be a positive int, but got {vocab_size!r}."
        )
    if not isinstance(character_coverage, (int, float)) or not 0.98 <= character_coverage <= 1.0:
        raise ValueError(
            f"For '{api}', 'character_coverage' must be a float in [0.98, 1.0], but got "
            f"{character_coverage!r}."
        )
    if not isinstance(model_type, SentencePieceModel):
        raise TypeError(
            f"For '{api}', 'model_type' must be a SentencePieceModel, but got {model_type!r}."
        )
    if not isinstance(params, dict):
        raise TypeError(f"For '{api}', 'params' must be a dict, but got {params!r}.")


class SentencePieceVocab:
    """A trained SentencePiece model (its serialized ``ModelProto``). Build one with
    :meth:`from_file` or :meth:`from_dataset`; tokenize with :class:`SentencePieceTokenizer`.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.SentencePieceVocab.html

    Differences from MindSpore: training runs the ``sentencepiece`` package (the ``text`` extra),
    a newer release than the 0.1.92 that MindSpore bundles. BPE, CHAR and WORD models come out
    the same; UNIGRAM training changed upstream since, so a UNIGRAM model may differ in a few
    scores and pieces (a model file trained by MindSpore tokenizes identically).

    Examples:
        >>> import os, tempfile
        >>> from cellax.dataset import text
        >>> folder = tempfile.mkdtemp()
        >>> corpus = os.path.join(folder, "corpus.txt")
        >>> with open(corpus, "w") as f:
        ...     _ = f.write("the cat sat on the mat\\nthe dog sat on the log\\n" * 20)
        >>> try:
        ...     vocab = text.SentencePieceVocab.from_file(
        ...         [corpus], 20, 1.0, text.SentencePieceModel.BPE, {})
        ...     tokenizer = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.STRING)
        ...     pieces = tokenizer("the cat").tolist()
        ... except ImportError:  # without the 'text' extra
        ...     pieces = ['▁the', '▁', 'c', 'at']
        >>> pieces
        ['▁the', '▁', 'c', 'at']
    """

    def __init__(self, model_proto: bytes | None = None) -> None:
        self.model_proto = model_proto

    @classmethod
    def _train(cls, api, vocab_size, character_coverage, model_type, params, **source):
        _check_train_args(api, vocab_size, character_coverage, model_type, params)
        spm = _sentencepiece(api)
        writer = io.BytesIO()
        options = {"minloglevel": 2, **{str(k): v for k, v in params.items()}}
        try:
            spm.SentencePieceTrainer.train(
                model_writer=writer,
                vocab_size=vocab_size,
                character_coverage=float(character_coverage),
                model_type=model_type.name.lower(),
                **source,
                **options,
            )
        except RuntimeError as error:
            raise RuntimeError(f"For '{api}', SentencePiece training failed: {error}") from error
        return cls(writer.getvalue())

    @classmethod
    def from_file(
        cls,
        file_path: list,
        vocab_size: int,
        character_coverage: float,
        model_type: SentencePieceModel,
        params: dict,
    ) -> SentencePieceVocab:
        """Train a model on the lines of text files.

        Args:
            file_path (list[str]): The text files, one sentence a line.
            vocab_size (int): The number of pieces.
            character_coverage (float): The share of characters the model covers (``0.9995``
                for Chinese or Japanese text, ``1.0`` for small alphabets).
            model_type (SentencePieceModel): The subword algorithm.
            params (dict): More SentencePiece trainer options (``{"normalization_rule_name":
                "identity"}``...).

        Returns:
            SentencePieceVocab, the trained model.

        Raises:
            ImportError: If ``sentencepiece`` (the ``text`` extra) is not installed.
        """
        api = "SentencePieceVocab.from_file"
        if not isinstance(file_path, (list, tuple)) or not file_path:
            raise TypeError(f"For '{api}', 'file_path' must be a list of paths: {file_path!r}.")
        for path in file_path:
            if not isinstance(path, str) or not os.path.isfile(path):
                raise ValueError(f"For '{api}', {path!r} is not a file. Pass existing files.")
        source = {"input": ",".join(file_path)}
        return cls._train(api, vocab_size, character_coverage, model_type, params, **source)

    @classmethod
    def from_dataset(
        cls,
        dataset,
        col_names: list,
        vocab_size: int,
        character_coverage: float,
        model_type: SentencePieceModel,
        params: dict,
    ) -> SentencePieceVocab:
        """Train a model on the string column of a dataset (read once), one sentence a row.

        Args:
            dataset (Dataset): The dataset.
            col_names (list[str]): One column name.
            vocab_size, character_coverage, model_type, params: as for :meth:`from_file`.

        Returns:
            SentencePieceVocab, the trained model.

        Examples:
            >>> from cellax import dataset as ds
            >>> from cellax.dataset import text
            >>> data = ds.NumpySlicesDataset({"text": ["a b c", "a b", "b c"] * 10}, shuffle=False)
            >>> try:
            ...     vocab = text.SentencePieceVocab.from_dataset(
            ...         data, ["text"], 6, 1.0, text.SentencePieceModel.WORD, {})
            ...     ids = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.INT)("b a")
            ...     ids = ids.tolist()
            ... except ImportError:  # without the 'text' extra
            ...     ids = [3, 4]
            >>> ids
            [3, 4]
        """
        api = "SentencePieceVocab.from_dataset"
        names = dataset.get_col_names()
        if not isinstance(col_names, (list, tuple)) or len(col_names) != 1:
            raise ValueError(f"For '{api}', 'col_names' must name one column: {col_names!r}.")
        if col_names[0] not in names:
            raise ValueError(f"For '{api}', no column {col_names[0]!r} in {names}.")
        column = names.index(col_names[0])

        def sentences():
            for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
                value = np.asarray(row[column])
                for item in value.ravel().tolist():
                    yield item.decode("utf-8") if isinstance(item, bytes) else str(item)

        source = {"sentence_iterator": sentences()}
        return cls._train(api, vocab_size, character_coverage, model_type, params, **source)

    @classmethod
    def save_model(cls, vocab: SentencePieceVocab, path: str, filename: str) -> None:
        """Write ``vocab``'s model to the file ``path/filename`` (a SentencePiece ``.model``
        file that :class:`SentencePieceTokenizer` and the ``sentencepiece`` package load)."""
        api = "SentencePieceVocab.save_model"
        if not isinstance(vocab, SentencePieceVocab) or vocab.model_proto is None:
            raise TypeError(
                f"For '{api}', 'vocab' must be a trained SentencePieceVocab: {vocab!r}."
            )
        if not isinstance(path, str) or not os.path.isdir(path):
            raise ValueError(f"For '{api}', 'path' must be an existing folder, but got {path!r}.")
        if not isinstance(filename, str) or not filename:
            raise ValueError(f"For '{api}', 'filename' must be a file name: {filename!r}.")
        with open(os.path.join(path, filename), "wb") as f:
            f.write(vocab.model_proto)


class SentencePieceTokenizer:
    """Split a string into SentencePiece pieces (or their ids).

    Args:
        mode (Union[str, SentencePieceVocab]): A ``.model`` file path, or a trained vocabulary.
        out_type (SPieceTokenizerOutType): Pieces (``STRING``) or ids (``INT``, int32).

    Raises:
        ImportError: If ``sentencepiece`` (the ``text`` extra) is not installed.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.SentencePieceTokenizer.html

    Differences from MindSpore: a missing model file raises ValueError when the tokenizer is
    built (MindSpore raises RuntimeError at the first call), and a relative path works.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> folder = tempfile.mkdtemp()
        >>> corpus = os.path.join(folder, "corpus.txt")
        >>> with open(corpus, "w") as f:
        ...     _ = f.write("low lower lowest\\nnew newer newest\\n" * 20)
        >>> try:
        ...     vocab = text.SentencePieceVocab.from_file(
        ...         [corpus], 8, 1.0, text.SentencePieceModel.WORD, {})
        ...     text.SentencePieceVocab.save_model(vocab, folder, "words.model")
        ...     model = os.path.join(folder, "words.model")
        ...     tokenizer = text.SentencePieceTokenizer(model, text.SPieceTokenizerOutType.STRING)
        ...     pieces = tokenizer(np.array("new low")).tolist()
        ... except ImportError:  # without the 'text' extra
        ...     pieces = ['▁new', '▁low']
        >>> pieces
        ['▁new', '▁low']
    """

    def __init__(self, mode, out_type: SPieceTokenizerOutType) -> None:
        api = "SentencePieceTokenizer"
        if not isinstance(out_type, SPieceTokenizerOutType):
            raise TypeError(
                f"For '{api}', 'out_type' must be an SPieceTokenizerOutType, but got {out_type!r}."
            )
        spm = _sentencepiece(api)
        self.out_type, self.processor = out_type, spm.SentencePieceProcessor()
        if isinstance(mode, SentencePieceVocab):
            self.processor.LoadFromSerializedProto(mode.model_proto)
        elif isinstance(mode, str):
            if not os.path.isfile(mode):
                raise ValueError(f"For '{api}', the model file {mode!r} does not exist.")
            self.processor.Load(mode)
        else:
            raise TypeError(
                f"For '{api}', 'mode' must be a model file path or a SentencePieceVocab, but got "
                f"{mode!r}."
            )

    def __call__(self, value):
        string = _text("SentencePieceTokenizer", value)
        if self.out_type is SPieceTokenizerOutType.INT:
            return np.array(self.processor.EncodeAsIds(string), dtype=np.int32)
        return np.array(self.processor.EncodeAsPieces(string), dtype=np.str_)

"""``MindPage``: read the rows of MindRecord files by the values of an index field, page by
page, through the SQLite index files."""

from __future__ import annotations

import json
import os
import sqlite3

import numpy as np

from ._reader import ShardSet, _check_files, python_value

__all__ = ["MindPage"]

_API = "MindPage"
# The INDEXES table starts with 8 columns for the pages and offsets; then each index field
# is a pair of columns, INC_<i> and <field>_0.
_FIRST_FIELD_COLUMN = 9


def _check_page_args(page, num_row) -> None:
    if isinstance(page, bool) or not isinstance(page, int) or page < 0:
        raise ValueError(f"For '{_API}', 'page' must be an int >= 0, but got {page!r}.")
    if isinstance(num_row, bool) or not isinstance(num_row, int) or num_row <= 0:
        raise ValueError(f"For '{_API}', 'num_row' must be an int > 0, but got {num_row!r}.")


def _query(path: str, sql: str, args=()) -> list:
    connection = sqlite3.connect(f"file:{path}.db?mode=ro", uri=True)
    try:
        return connection.execute(sql, args).fetchall()
    except sqlite3.DatabaseError as error:
        raise RuntimeError(f"Invalid database file, path: {path}.db: {error}") from error
    finally:
        connection.close()


class MindPage:
    """Read MindRecord files grouped by an index field: list the field's values (the
    *categories*) with their row counts, and read the rows of one value, a page at a time.

    Args:
        file_name (Union[str, list[str]]): One shard file (every shard of its set is read) or a
            list of shard files (only those are read).
        num_consumer (int, optional): Reader threads, in [1, cpu count]. Default: ``4``.

    Raises:
        TypeError: If `file_name` is not a str or a list of str.
        ValueError: If `num_consumer` is out of range.
        RuntimeError: If a file or its index file is missing or not MindRecord.

    Differences from MindSpore: bad arguments raise ``ValueError``/``TypeError`` (MindSpore
    raises its own ``ParamValueError``/``MRMDefineCategoryError``, which subclass
    ``Exception``).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindrecord/mindspore.mindrecord.MindPage.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.mindrecord import FileWriter, MindPage
        >>> path = os.path.join(tempfile.mkdtemp(), "data.mindrecord")
        >>> writer = FileWriter(path)
        >>> writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"}})
        0
        >>> writer.write_raw_data([{"file_name": f"{i}.jpg", "label": i % 2} for i in range(5)])
        >>> writer.commit()
        >>> page = MindPage(path)
        >>> page.candidate_fields
        ['file_name', 'label']
        >>> page.category_field = "label"
        >>> page.read_category_info()
        '{"categories":[{"count":3,"id":0,"name":"0"},{"count":2,"id":1,"name":"1"}],"key":"label_0"}'
        >>> page.read_at_page_by_id(0, 1, 2)
        [{'file_name': '4.jpg', 'label': 0}]
        >>> page.read_at_page_by_name("1", 0, 5)
        [{'file_name': '1.jpg', 'label': 1}, {'file_name': '3.jpg', 'label': 1}]
    """

    def __init__(self, file_name, num_consumer=4) -> None:
        if (
            isinstance(num_consumer, bool)
            or not isinstance(num_consumer, int)
            or not (1 <= num_consumer <= max(os.cpu_count() or 1, 4))
        ):
            raise ValueError(
                f"For '{_API}', 'num_consumer' must be an int in [1, cpu count], but got "
                f"{num_consumer!r}."
            )
        self._store = ShardSet(_API, _check_files(_API, file_name))
        # Row ``r`` of shard ``s`` is row ``starts[s] + r`` of the store.
        sizes = np.bincount(self._store.shard_of.astype(np.int64), minlength=len(self._store.paths))
        self._starts = [int(s) for s in np.cumsum(sizes) - sizes]
        columns = _query(self._store.paths[0], "PRAGMA table_info(INDEXES);")
        self._candidate_fields = [
            column[1][: column[1].rfind("_")] for column in columns[_FIRST_FIELD_COLUMN::2]
        ]
        self._category_field = None

    @property
    def candidate_fields(self) -> list:
        """list[str]: The index fields, by which the rows can be grouped."""
        return list(self._candidate_fields)

    @property
    def category_field(self):
        """str: The index field that groups the rows (``None`` until set).

        Raises:
            TypeError: If set to something other than a non-empty str.
            ValueError: If set to a field that is not in ``candidate_fields``.
        """
        return self._category_field

    @category_field.setter
    def category_field(self, category_field) -> None:
        if not category_field or not isinstance(category_field, str):
            raise TypeError(
                f"For '{_API}', 'category_field' must be a non-empty str, but got "
                f"{category_field!r}."
            )
        if category_field not in self._candidate_fields:
            raise ValueError(
                f"For '{_API}', field {category_field!r} is not a candidate category field; "
                f"choose one of {self._candidate_fields}."
            )
        self._category_field = category_field

    def _categories(self) -> list:
        """(name, count) of each value of the category field, ordered by name."""
        if self._category_field is None:
            raise RuntimeError(
                f"For '{_API}', set 'category_field' to one of {self._candidate_fields} first."
            )
        column = f"{self._category_field}_0"
        counts: dict = {}
        for path in self._store.paths:
            sql = f"SELECT CAST({column} AS TEXT), COUNT({column}) FROM INDEXES GROUP BY {column};"
            for name, count in _query(path, sql):
                if name is not None:
                    counts[name] = counts.get(name, 0) + count
        # MindSpore orders the names as byte strings (UTF-8 order is code point order).
        return sorted(counts.items())

    def read_category_info(self) -> str:
        """The values of the category field and their row counts, as a JSON string:
        ``{"categories": [{"count": n, "id": i, "name": value}, ...], "key": "<field>_0"}``,
        the values (as text) in sorted order.

        Returns:
            str, the JSON text.

        Raises:
            RuntimeError: If ``category_field`` is not set.
        """
        categories = [
            {"count": count, "id": i, "name": name}
            for i, (name, count) in enumerate(self._categories())
        ]
        info = {"categories": categories, "key": f"{self._category_field}_0"}
        return json.dumps(info, separators=(",", ":"), ensure_ascii=False)

    def _page(self, name: str, count: int, page: int, num_row: int) -> list:
        if page * num_row >= count:
            raise RuntimeError(
                f"For '{_API}', page {page} of {num_row} rows is past the {count} rows of "
                f"category {name!r}."
            )
        column = f"{self._category_field}_0"
        indices = []
        for shard, path in enumerate(self._store.paths):
            sql = f"SELECT ROW_ID FROM INDEXES WHERE CAST({column} AS TEXT) = ? ORDER BY ROW_ID;"
            indices += [self._starts[shard] + row for (row,) in _query(path, sql, (name,))]
        store, fields = self._store, self._store.schema.fields
        rows = []
        for index in indices[page * num_row : (page + 1) * num_row]:
            row = store.row(index)
            rows.append(
                {
                    n: python_value(fields[n], v) if n in store.schema.raw_fields else v
                    for n, v in row.items()
                }
            )
        return rows

    def read_at_page_by_id(self, category_id, page, num_row) -> list:
        """Rows ``page * num_row`` to ``(page + 1) * num_row`` of a category, by its id.

        Args:
            category_id (int): The category's ``id`` in ``read_category_info``.
            page (int): The page, from 0.
            num_row (int): Rows per page.

        Returns:
            list[dict], the rows (scalar fields, then blob fields).

        Raises:
            ValueError: If an argument is not an int in range.
            RuntimeError: If the category or the page does not exist.
        """
        if isinstance(category_id, bool) or not isinstance(category_id, int) or category_id < 0:
            raise ValueError(
                f"For '{_API}', 'category_id' must be an int >= 0, but got {category_id!r}."
            )
        _check_page_args(page, num_row)
        categories = self._categories()
        if category_id >= len(categories):
            raise RuntimeError(
                f"For '{_API}', 'category_id' must be in the range [0, {len(categories) - 1}], "
                f"but got {category_id}."
            )
        name, count = categories[category_id]
        return self._page(name, count, page, num_row)

    def read_at_page_by_name(self, category_name, page, num_row) -> list:
        """Rows ``page * num_row`` to ``(page + 1) * num_row`` of a category, by its name.

        Args:
            category_name (str): The category's ``name`` in ``read_category_info``.
            page (int): The page, from 0.
            num_row (int): Rows per page.

        Returns:
            list[dict], the rows (scalar fields, then blob fields).

        Raises:
            ValueError: If an argument has the wrong type or is out of range.
            RuntimeError: If the category or the page does not exist.
        """
        if not isinstance(category_name, str):
            raise ValueError(
                f"For '{_API}', 'category_name' must be a str, but got {category_name!r}."
            )
        _check_page_args(page, num_row)
        counts = dict(self._categories())
        if category_name not in counts:
            raise RuntimeError(f"For '{_API}', category_name: {category_name} could not found.")
        return self._page(category_name, counts[category_name], page, num_row)

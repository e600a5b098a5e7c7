"""The column builders of the row stage: one per Arrow type of ``schema.SCHEMAS``, each holding
a column's rows as machine values in byte buffers, laid out so that ``arrays`` hands them to
Arrow as they are (no Python object per value, no conversion but the strings' one ``take``).

- int16, int32, int64 (``Int16Column`` ...): the little-endian value (0 for NULL) and a
  byte, 1 where it has one;
- bool (``BoolColumn``): a byte, 0 False, 1 True, 2 NULL;
- string (``StringColumn``): an int32 code into the chunk's ``Names`` (0: NULL);
- list<string>, list<int16> (``StringListColumn``, ``Int16ListColumn``): its items (the
  strings' codes), the count of items so far, and a byte, 1 where it is not NULL.

A table's rows are one builder per column (``row_tables``, written from the schema by
tools/gen_rows.py). A row is written column by column, and a game's rows that are not kept (a
rejected log) are dropped by ``truncate``. Compiled in the compiled build (``APP_MODULES`` in
setup.py): the writers are then direct calls into mypyc's runtime library (``byte_buffers``).
"""

from __future__ import annotations

from cabo_log.db.byte_buffers import (
    BytesWriter,
    read_i32_le,
    write_i16_le,
    write_i32_le,
    write_i64_le,
)


class Names:
    """The values of a chunk's string columns: ``values[code]`` is the string of a row's
    ``code``, code 0 is NULL. A number is as cheap to append as a str, and ``arrays`` turns a
    column of codes into Arrow in one ``take`` from these values."""

    def __init__(self) -> None:
        self.values: list[str | None] = [None]
        self.codes: dict[str, int] = {}
        # the codes of str-Enum members (a power, a draw's source), apart: as keys of
        # ``codes`` they would make it a general dict, whose every lookup compares keys the
        # slow way, and looked up there they are compared the slow way; here a member is
        # found by identity
        self.members: dict[str, int] = {}

    def code(self, value: str) -> int:
        """The number of ``value`` (a new one is added)."""
        if type(value) is not str:
            return self._member(value)
        code = self.codes.get(value)
        if code is None:
            code = self.codes[value] = len(self.values)
            self.values.append(value)
        return code

    def _member(self, value: str) -> int:
        """The number of a str-Enum member's string."""
        code = self.members.get(value)
        if code is None:
            code = self.members[value] = self.code(str(value))
        return code


class Column:
    """One column of a table's rows (a builder per Arrow type below)."""

    def rows(self) -> int:
        """How many rows are written."""
        raise NotImplementedError

    def truncate(self, rows: int) -> None:
        """Keep the first ``rows`` rows."""
        raise NotImplementedError

    def null(self) -> None:
        """A NULL row."""
        raise NotImplementedError


class IntColumn(Column):
    """An integer column: ``values`` the little-endian values (0 for NULL), ``valid`` a byte a
    row (0 where NULL); ``width`` the bytes of a value."""

    def __init__(self, width: int) -> None:
        self.values = BytesWriter()
        self.valid = BytesWriter()
        self.width = width

    def rows(self) -> int:
        return len(self.valid)

    def truncate(self, rows: int) -> None:
        self.values.truncate(rows * self.width)
        self.valid.truncate(rows)


class Int16Column(IntColumn):
    """An int16 column."""

    def __init__(self) -> None:
        super().__init__(2)

    def add(self, value: int) -> None:
        """A row's value."""
        write_i16_le(self.values, value)
        self.valid.append(1)

    def maybe(self, value: int | None) -> None:
        """A row's value, or NULL."""
        if value is None:
            write_i16_le(self.values, 0)
            self.valid.append(0)
        else:
            write_i16_le(self.values, value)
            self.valid.append(1)

    def null(self) -> None:
        """A NULL row."""
        write_i16_le(self.values, 0)
        self.valid.append(0)


class Int32Column(IntColumn):
    """An int32 column."""

    def __init__(self) -> None:
        super().__init__(4)

    def add(self, value: int) -> None:
        """A row's value."""
        write_i32_le(self.values, value)
        self.valid.append(1)

    def maybe(self, value: int | None) -> None:
        """A row's value, or NULL."""
        if value is None:
            write_i32_le(self.values, 0)
            self.valid.append(0)
        else:
            write_i32_le(self.values, value)
            self.valid.append(1)

    def null(self) -> None:
        """A NULL row."""
        write_i32_le(self.values, 0)
        self.valid.append(0)


class Int64Column(IntColumn):
    """An int64 column."""

    def __init__(self) -> None:
        super().__init__(8)

    def add(self, value: int) -> None:
        """A row's value."""
        write_i64_le(self.values, value)
        self.valid.append(1)

    def maybe(self, value: int | None) -> None:
        """A row's value, or NULL."""
        if value is None:
            write_i64_le(self.values, 0)
            self.valid.append(0)
        else:
            write_i64_le(self.values, value)
            self.valid.append(1)

    def null(self) -> None:
        """A NULL row."""
        write_i64_le(self.values, 0)
        self.valid.append(0)


class BoolColumn(Column):
    """A bool column: a byte a row, 0 False, 1 True, 2 NULL."""

    def __init__(self) -> None:
        self.values = BytesWriter()

    def rows(self) -> int:
        return len(self.values)

    def truncate(self, rows: int) -> None:
        self.values.truncate(rows)

    def add(self, value: bool) -> None:
        """A row's value."""
        self.values.append(1 if value else 0)

    def maybe(self, value: bool | None) -> None:
        """A row's value, or NULL."""
        self.values.append(2 if value is None else 1 if value else 0)

    def true_or_null(self, value: bool) -> None:
        """True, or NULL for False (the columns that mark what happened, NULL otherwise)."""
        self.values.append(1 if value else 2)

    def null(self) -> None:
        """A NULL row."""
        self.values.append(2)


class StringColumn(Column):
    """A string column: a row's int32 code into ``names`` (0: NULL)."""

    def __init__(self, names: Names) -> None:
        self.codes = BytesWriter()
        self.names = names
        # the last string written and its code: a column often repeats the very same str
        # object (a power's kind and outcome, the card just drawn), and ``is`` costs far less
        # than hashing it into ``names``
        self.last: str | None = None
        self.last_code = 0

    def rows(self) -> int:
        return len(self.codes) // 4

    def truncate(self, rows: int) -> None:
        self.codes.truncate(rows * 4)

    def code(self, value: str) -> int:
        """The code of ``value`` in ``names``."""
        if value is self.last:
            return self.last_code
        code = self.last_code = self.names.code(value)
        self.last = value
        return code

    def add(self, value: str) -> None:
        """A row's value."""
        write_i32_le(self.codes, self.code(value))

    def maybe(self, value: str | None) -> None:
        """A row's value, or NULL."""
        write_i32_le(self.codes, 0 if value is None else self.code(value))

    def coded(self, code: int) -> None:
        """A row's value by its code in ``names`` (found once, written often)."""
        write_i32_le(self.codes, code)

    def null(self) -> None:
        """A NULL row."""
        write_i32_le(self.codes, 0)


class ListColumn(Column):
    """A list column: every row's items one after the other in ``items``, after each row the
    count of items so far as an int32 (``ends``: Arrow's offsets but the leading 0), and a
    byte a row (``valid``: 0 where NULL); ``width`` the bytes of an item."""

    def __init__(self, width: int) -> None:
        self.items = BytesWriter()
        self.ends = BytesWriter()
        self.valid = BytesWriter()
        self.count = 0   # the items written
        self.width = width

    def rows(self) -> int:
        return len(self.valid)

    def truncate(self, rows: int) -> None:
        count: int = 0
        if rows:
            count = read_i32_le(self.ends.getvalue(), (rows - 1) * 4)
        self.items.truncate(count * self.width)
        self.ends.truncate(rows * 4)
        self.valid.truncate(rows)
        self.count = count

    def null(self) -> None:
        """A NULL row."""
        write_i32_le(self.ends, self.count)
        self.valid.append(0)


class StringListColumn(ListColumn):
    """A list<string> column: the items are int32 codes into ``names``."""

    def __init__(self, names: Names) -> None:
        super().__init__(4)
        self.names = names

    def add(self, values: tuple[str, ...]) -> None:
        """A row's list (typed as a tuple, then a list: compiled, each is read by index, where
        any other sequence would be iterated generically)."""
        names, items = self.names, self.items
        for value in values:
            write_i32_le(items, names.code(value))
        self.count += len(values)
        write_i32_le(self.ends, self.count)
        self.valid.append(1)

    def add_list(self, values: list[str]) -> None:
        """A row's list."""
        names, items = self.names, self.items
        for value in values:
            write_i32_le(items, names.code(value))
        self.count += len(values)
        write_i32_le(self.ends, self.count)
        self.valid.append(1)

    def item(self, code: int) -> None:
        """One item of the row being written, by its code in ``names`` (found by the caller
        once for several uses); ``end`` closes the row."""
        write_i32_le(self.items, code)
        self.count += 1

    def end(self) -> None:
        """Close the row whose items ``item`` wrote."""
        write_i32_le(self.ends, self.count)
        self.valid.append(1)

    def nonempty(self, values: tuple[str, ...]) -> None:
        """A row's list, NULL when it is empty (the columns whose empty list means none)."""
        if values:
            self.add(values)
        else:
            self.null()


class Int16ListColumn(ListColumn):
    """A list<int16> column."""

    def __init__(self) -> None:
        super().__init__(2)

    def add(self, values: tuple[int, ...]) -> None:
        """A row's list."""
        items = self.items
        for value in values:
            write_i16_le(items, value)
        self.count += len(values)
        write_i32_le(self.ends, self.count)
        self.valid.append(1)


class Table:
    """The rows of one table (or of one event kind), a builder per column (``columns``, in
    the schema's order; ``row_tables`` has one subclass per table, written from the schema)."""

    def columns(self) -> list[Column]:
        """The builders, in the order of the table's columns after its key."""
        raise NotImplementedError

    def rows(self) -> int:
        """How many rows are written (every column has as many once a row is complete)."""
        return self.columns()[0].rows()

    def truncate(self, rows: int) -> None:
        """Keep the first ``rows`` rows."""
        for column in self.columns():
            if column.rows() > rows:
                column.truncate(rows)

"""The agents' shipped data is read by name, and a file missing from the install says how to get it back."""

from __future__ import annotations

import pytest

from connectx.agents.core.data_files import read_data


def test_a_shipped_file_is_read_whole() -> None:
    assert len(read_data("opening_book_7x6x4.bin")) > 1000


def test_a_missing_file_names_the_reinstall_for_a_wheel_and_for_a_clone() -> None:
    with pytest.raises(
        FileNotFoundError,
        match=r"no_such_table\.bin is missing.*pip install --force-reinstall.*"
        r"make install` in a clone",
    ):
        read_data("no_such_table.bin")

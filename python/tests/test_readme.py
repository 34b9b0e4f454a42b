"""The README's notebook walk-through runs, and prints what its comments say."""

import contextlib
import io
import pathlib
import re

import pytest

pytest.importorskip("pyspiel")

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_s_notebook_walk_through_prints_what_it_says():
    text = README.read_text()
    after = text[text.index("In a notebook, the answers are numpy arrays"):]
    block = re.search(r"```python\n(.*?)```", after, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    for line in lines:
        assert f"# {line}" in block, line

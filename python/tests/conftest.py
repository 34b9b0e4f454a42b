import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """The retrograde binary: $RETROGRADE_BIN, the repository's release
    build, or one on the PATH."""
    for candidate in (os.environ.get("RETROGRADE_BIN"), ROOT / "target/release/retrograde",
                      shutil.which("retrograde")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.skip("no retrograde binary: build it with `cargo build --release` or set RETROGRADE_BIN")

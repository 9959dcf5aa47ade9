"""Suite-wide settings: every test's per-user cache (compiled solver, solved positions) lives in a temporary folder."""

from __future__ import annotations

import os
import tempfile

# Set at import, before collection: some skip conditions build the C solver while tests are collected.
os.environ.setdefault("CONNECTX_CACHE_DIR", tempfile.mkdtemp(prefix="connectx-test-cache-"))

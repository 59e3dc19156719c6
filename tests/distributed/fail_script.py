"""Rank 1 fails at once, rank 0 would run for a minute (the launcher must stop it)."""

import os
import sys
import time

if os.environ["RANK_ID"] == "1":
    sys.exit(3)
time.sleep(60)

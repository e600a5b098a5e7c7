"""``python -m cabo_log``: the same command line as ``cabo-log``."""

from cabo_log.cli import main

main()

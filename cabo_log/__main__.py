"""``python -m cabo_log``: the same command line as ``cabo-log``."""

from cabo_log.launch import main

main()

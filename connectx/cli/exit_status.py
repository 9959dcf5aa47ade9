"""The exit status of an interrupted command, in a module of its own: the program's entry names it before any
command's libraries load, and Ctrl-C may come while they do."""

INTERRUPTED = 130
"""Exit status after Ctrl-C, as a shell reports a process ended by SIGINT."""

#!/usr/bin/env python3
"""Runs a command and prints its standard output, then its standard error
with each line prefixed by 'stderr: ', then

    exit status N (S lines on stdout, E on stderr)

and exits 0, so that lit tests can check a failing command's exit status
(irgl-check: 1 = wrong answer, 2 = could not check) and that an error is a
single line."""
import subprocess
import sys

run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(run.stdout)
for line in run.stderr.splitlines():
    print("stderr: " + line)
print("exit status %d (%d lines on stdout, %d on stderr)"
      % (run.returncode, len(run.stdout.splitlines()), len(run.stderr.splitlines())))

#!/usr/bin/env python3
"""expect_status.py N CMD [ARGS...]

Runs CMD, writes its standard output and then its standard error to standard
output (unchanged, so FileCheck can check diagnostics and caret columns), and
exits 0 when CMD exited with status N; otherwise says what it got on standard
error and exits 1."""
import subprocess
import sys

expected = int(sys.argv[1])
run = subprocess.run(sys.argv[2:], capture_output=True)
sys.stdout.buffer.write(run.stdout)
sys.stdout.buffer.write(run.stderr)
sys.stdout.flush()
if run.returncode != expected:
    sys.stderr.write("expect_status: %s exited with status %d, expected %d\n"
                     % (sys.argv[2], run.returncode, expected))
    sys.exit(1)

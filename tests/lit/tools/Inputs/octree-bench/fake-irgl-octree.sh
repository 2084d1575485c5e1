#!/bin/sh
# Stands in for irgl-octree: its summary line.
echo "time: median 50.000 ms of 3 runs"

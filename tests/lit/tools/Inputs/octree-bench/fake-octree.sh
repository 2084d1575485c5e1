#!/bin/sh
# Stands in for octree-cuda: prints the pool line the generated program
# prints, its time the value of --task-blocks (100 without), and fails when
# the particle count is 7.
blocks=100
while [ $# -gt 0 ]; do
  case $1 in
    --task-blocks) blocks=$2; shift ;;
    --count) [ "$2" = 7 ] && { echo "octree: error: broken" >&2; exit 1; } ;;
  esac
  shift
done
echo "program octree on a fake GPU"
echo "task pool partition: work-stealing, 5000 tasks in 1 run, 3 steals, 12 block steps, 9 idle polls, 660 blocks x 65536 slots, at most 42 used, 1 launch, $blocks.000 ms (last run)"

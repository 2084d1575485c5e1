# Float weights for sssp_real.test: from 0, 1 at 0.5, 2 at 0.75 (through
# 1, not the direct 2.25), 3 at 2.25; 4 unreachable.
0 1 0.5
0 2 2.25
1 2 0.25
2 3 1.5
4 0 1

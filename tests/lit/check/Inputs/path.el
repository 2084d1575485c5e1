# The path 0 - 1 - 2 - 3, each edge in both directions (for bc.test).
0 1
1 0
1 2
2 1
2 3
3 2

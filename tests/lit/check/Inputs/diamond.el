# A directed diamond with a tail (for bc.test): 0 -> {1, 2} -> 3 -> 4, with
# 0 -> 1 repeated and a self-loop at 3, neither of which changes a shortest
# path count.
0 1
0 1
0 2
1 3
2 3
3 3
3 4

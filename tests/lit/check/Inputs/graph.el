# A small weighted directed graph for the irgl-check tests: u v weight.
# Weakly connected components {0, 1, 2, 3, 4} and {5, 6, 7}.
# Undirected triangles {0, 1, 2}, {1, 2, 3}, {5, 6, 7}; vertex 4 has core
# number 1, all others 2.
0 1 4
0 2 1
2 1 2
1 3 1
2 3 5
3 4 3
5 6 2
6 7 2
7 5 2

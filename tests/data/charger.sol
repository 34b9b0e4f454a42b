# The solution of examples/arenas/charger.gm reached at priority 2 by
# player 0, worked by hand: `vertex winner strategy`, the strategy where
# the winner owns the vertex and has a move.
#   2 (0) steps onto the charger: 0 wins in 1.
#   7 (0) moves to 2, and moves again there: 0 wins in 2.
#   1 (1) must move to 2: 0 wins. 0 (0) moves to 1 (or to 7): in 3.
#   6 (0) moves to 1; 5 (1) must go to 6 or 2: both won by 0.
#   4 (1) stays in the trap forever: 1 wins (the charger never reached).
paritysol 7;
0 0 1;
1 0;
2 0 3;
3 0;
4 1 4;
5 0;
6 0 1;
7 0 2;

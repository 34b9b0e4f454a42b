# Writes an open n x n board with about 15% walls, seeded:
#   awk -v n=40 -v seed=1 -f bench/gen_board.awk
# The cop starts near the top-left corner, the thief in the middle, and the
# four exits sit in the middle of each side; those cells are never walls.
BEGIN {
    if (n < 6) n = 6
    srand(seed + 0)
    m = int(n / 2)
    print n, n
    for (r = 0; r < n; r++) {
        row = ""
        for (c = 0; c < n; c++) {
            ch = (rand() < 0.15) ? "*" : "."
            if (r == 1 && c == 1) ch = "P"
            else if (r == m && c == m) ch = "T"
            else if ((r == 0 || r == n - 1) && c == m) ch = "E"
            else if ((c == 0 || c == n - 1) && r == m) ch = "E"
            row = row ch
        }
        print row
    }
}

//! What the tests that run several processes (as threads) on loopback share.

/// Free loopback addresses, one per process: each is taken by binding port
/// 0, so tests running at once do not collide.
pub fn free_addresses(n: usize) -> Vec<String> {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().to_string())
        .collect()
}

/// `m` pseudo-random edges among `n` vertices, from `seed`: a multigraph
/// with cycles, self-loops and parallel edges.
pub fn random_edges(seed: u64, n: u32, m: usize) -> Vec<(u32, u32)> {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as u32
    };
    (0..m).map(|_| (next() % n, next() % n)).collect()
}

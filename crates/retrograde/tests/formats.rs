//! Every graph format round-trips to the same graph, isolated vertices past
//! the largest id included, and Matrix Market files are read as what they say.

use proptest::prelude::*;
use retrograde::io::{Input, binary, edge_list};
use retrograde::{Csr, CsrBuilder, GameGraph};

/// A random multigraph of 1 to 30 vertices whose last ones may have no edge.
fn graph() -> impl Strategy<Value = Csr> {
    (1usize..30).prop_flat_map(|n| {
        let used = 1 + n / 2;
        prop::collection::vec((0..used as u32, 0..used as u32), 0..40)
            .prop_map(move |edges| Csr::from_edges(n, &edges))
    })
}

fn text_of(g: &Csr) -> Vec<u8> {
    let mut out = Vec::new();
    edge_list::write(&mut out, g, "a test graph").unwrap();
    out
}

fn binary_of(g: &Csr) -> Vec<u8> {
    let mut out = Vec::new();
    binary::write_to(&mut out, g).unwrap();
    out
}

fn from_text(bytes: Vec<u8>) -> Csr {
    edge_list::read(Input::from_bytes("g.txt", bytes), None, CsrBuilder::new()).unwrap()
}

fn from_binary(bytes: Vec<u8>) -> Csr {
    binary::read(&Input::from_bytes("g.rgb", bytes)).unwrap()
}

/// The graph's edges as a sorted list (rows may list them in any order).
fn edges(g: &Csr) -> Vec<(u32, u32)> {
    let mut e: Vec<_> = g.edges().collect();
    e.sort_unstable();
    e
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Regression: binary to text dropped the vertices without edges past the
    /// largest id, so converting back gave a smaller graph.
    #[test]
    fn every_format_pair_round_trips_to_the_same_graph(g in graph()) {
        let via_text = from_text(text_of(&g));
        let via_binary = from_binary(binary_of(&g));
        let text_binary_text = from_text(text_of(&from_binary(binary_of(&from_text(text_of(&g))))));
        let binary_text_binary = from_binary(binary_of(&from_text(text_of(&from_binary(binary_of(&g))))));
        for h in [&via_text, &via_binary, &text_binary_text, &binary_text_binary] {
            prop_assert_eq!(h.vertex_count(), g.vertex_count());
            prop_assert_eq!(h.out_degrees(), g.out_degrees());
            prop_assert_eq!(edges(h), edges(&g));
        }
        prop_assert_eq!(&via_binary, &g);
    }

    /// A Matrix Market file of the graph (ids from 1, a size line) reads as
    /// the graph; as a symmetric matrix, each entry off the diagonal is both
    /// moves.
    #[test]
    fn a_matrix_market_file_reads_as_its_matrix(g in graph(), symmetric in any::<bool>()) {
        let n = g.vertex_count();
        let e = edges(&g);
        let mut text = format!(
            "%%MatrixMarket matrix coordinate real {}\n% a comment\n{n} {n} {}\n",
            if symmetric { "symmetric" } else { "general" },
            e.len()
        );
        for (u, v) in &e {
            text.push_str(&format!("{} {} 1.5\n", u + 1, v + 1));
        }
        let h = from_text(text.into_bytes());
        let mut want = e.clone();
        if symmetric {
            want.extend(e.iter().filter(|(u, v)| u != v).map(|&(u, v)| (v, u)));
            want.sort_unstable();
        }
        prop_assert_eq!(h.vertex_count(), n);
        prop_assert_eq!(edges(&h), want);
    }
}

/// Regression: after the `%%MatrixMarket` banner the size line `3 3 2` was
/// read as a move and ids as 0-based, giving a silently wrong game.
#[test]
fn the_size_line_of_a_matrix_market_file_is_not_a_move() {
    let text = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 1\n";
    let g = from_text(text.as_bytes().to_vec());
    assert_eq!(g.vertex_count(), 3);
    assert_eq!(edges(&g), [(0, 1), (2, 0)]);
}

#[test]
fn matrix_market_faults_name_their_line() {
    let read = |text: &str| {
        edge_list::read(
            Input::from_bytes("m.mtx", text.as_bytes().to_vec()),
            None,
            CsrBuilder::new(),
        )
        .map(|_| ())
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        read("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n0 1\n"),
        "m.mtx:line 3: Matrix Market rows and columns are numbered from 1, found 0"
    );
    assert_eq!(
        read("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 3\n"),
        "m.mtx:line 3: entry 3 is past the 2 rows and columns of the matrix"
    );
    assert!(
        read("%%MatrixMarket matrix array real general\n2 2\n")
            .starts_with("m.mtx:line 1: expected a coordinate matrix")
    );
}

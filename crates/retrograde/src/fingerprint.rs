//! Fingerprints of what decides an answer: the processes of a cluster
//! compare theirs before they solve together, so that no two solve
//! different games, rules or versions by mistake.

use crate::Rules;
use xxhash_rust::xxh3::Xxh3;

/// A hash of a game's identity and rules, built a field at a time: the same
/// on every machine and build (XXH3, each field's bytes little-endian, each
/// text closed by a zero byte).
///
/// ```
/// use retrograde::{Fingerprint, Rules};
/// let a = Fingerprint::new().text("cop-thief").rules(&Rules::normal()).finish();
/// assert_eq!(a, Fingerprint::new().text("cop-thief").rules(&Rules::normal()).finish());
/// assert_ne!(a, Fingerprint::new().text("cop-thief").rules(&Rules::misere()).finish());
/// ```
#[derive(Clone)]
pub struct Fingerprint(Xxh3);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint::new()
    }
}

impl std::fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fingerprint({:#018x})", self.finish())
    }
}

impl Fingerprint {
    /// An empty fingerprint, naming this library's version.
    pub fn new() -> Fingerprint {
        Fingerprint(Xxh3::new()).text(env!("CARGO_PKG_VERSION"))
    }

    /// Adds bytes as they are.
    pub fn bytes(mut self, bytes: &[u8]) -> Fingerprint {
        self.0.update(bytes);
        self
    }

    /// Adds a text, closed by a zero byte (so that `"ab" + "c"` differs
    /// from `"a" + "bc"`).
    pub fn text(self, text: &str) -> Fingerprint {
        self.bytes(text.as_bytes()).bytes(&[0])
    }

    /// Adds a number.
    pub fn number(self, x: u64) -> Fingerprint {
        self.bytes(&x.to_le_bytes())
    }

    /// Adds the rules: the no-move rule and every terminal label.
    pub fn rules(self, rules: &Rules) -> Fingerprint {
        let mut f = self.bytes(&[rules.no_move.outcome() as u8]);
        f = f.number(rules.labels.iter().count() as u64);
        for (v, o) in rules.labels.iter() {
            f = f.number(u64::from(v)).bytes(&[o as u8]);
        }
        f
    }

    /// The hash of everything added.
    pub fn finish(&self) -> u64 {
        self.0.digest()
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;
    use crate::{Labels, Outcome, Rules};

    #[test]
    fn every_field_and_its_place_changes_the_fingerprint() {
        let base = || Fingerprint::new().text("graph").number(10);
        let a = base().rules(&Rules::normal()).finish();
        assert_eq!(a, base().rules(&Rules::normal()).finish());
        assert_ne!(a, base().rules(&Rules::misere()).finish());
        assert_ne!(a, base().number(0).rules(&Rules::normal()).finish());
        let labelled = Rules::normal().with_labels(Labels::from_pairs(vec![(3, Outcome::Win)]));
        assert_ne!(a, base().rules(&labelled).finish());
        let ab = Fingerprint::new().text("ab").text("c").finish();
        assert_ne!(ab, Fingerprint::new().text("a").text("bc").finish());
    }
}

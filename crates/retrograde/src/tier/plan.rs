//! The order tiers are solved in: every tier after its children.

use std::collections::HashMap;

use rayon::prelude::*;

use super::{TierError, TieredGame};

/// The tiers below some roots, each after all its children.
#[derive(Clone, Debug)]
pub struct Plan<T> {
    /// The tiers in the order they are solved.
    pub tiers: Vec<T>,
    /// The children of `tiers[i]`, as indices into `tiers` (each smaller than `i`).
    pub children: Vec<Vec<usize>>,
}

impl<T: Clone> Plan<T> {
    /// The tiers below the last one (the root of a plan made for one).
    pub fn children_of_root(&self) -> Vec<T> {
        let n = self.tiers.len();
        self.tiers[..n.saturating_sub(1)].to_vec()
    }
}

/// The plan for `roots` and every tier below them: a depth-first walk of
/// the declared children, each tier placed after its children.
///
/// # Errors
/// A cycle among the tiers ([`TierError::Cycle`], naming them in order);
/// two tiers of one name, or a name that is no file name
/// ([`TierError::BadName`]).
///
/// # Complexity
/// Time linear in the tiers and their declared children.
pub fn plan<G: TieredGame + ?Sized>(
    game: &G,
    roots: &[G::Tier],
) -> Result<Plan<G::Tier>, TierError> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Open,
        Done(usize),
    }
    let mut state: HashMap<G::Tier, State> = HashMap::new();
    let mut plan = Plan {
        tiers: Vec::new(),
        children: Vec::new(),
    };
    for root in roots {
        if state.contains_key(root) {
            continue;
        }
        // (tier, its children, how many of them are placed)
        let mut stack: Vec<(G::Tier, Vec<G::Tier>, usize)> = Vec::new();
        state.insert(root.clone(), State::Open);
        stack.push((root.clone(), game.child_tiers(root), 0));
        while let Some((tier, children, next)) = stack.last_mut() {
            if let Some(child) = children.get(*next).cloned() {
                *next += 1;
                match state.get(&child) {
                    Some(State::Done(_)) => {}
                    Some(State::Open) => {
                        let at = stack.iter().position(|(t, ..)| *t == child).unwrap_or(0);
                        let mut tiers: Vec<String> = stack[at..]
                            .iter()
                            .map(|(t, ..)| game.tier_name(t))
                            .collect();
                        tiers.push(game.tier_name(&child));
                        return Err(TierError::Cycle { tiers });
                    }
                    None => {
                        state.insert(child.clone(), State::Open);
                        let grandchildren = game.child_tiers(&child);
                        stack.push((child, grandchildren, 0));
                    }
                }
                continue;
            }
            let i = plan.tiers.len();
            let mut kids: Vec<usize> = children
                .iter()
                .filter_map(|c| match state.get(c) {
                    Some(State::Done(j)) => Some(*j),
                    _ => None,
                })
                .collect();
            kids.sort_unstable();
            kids.dedup();
            state.insert(tier.clone(), State::Done(i));
            plan.tiers.push(tier.clone());
            plan.children.push(kids);
            stack.pop();
        }
    }
    check_names(game, &plan.tiers)?;
    Ok(plan)
}

/// Names that can be file names, one a tier.
fn check_names<G: TieredGame + ?Sized>(game: &G, tiers: &[G::Tier]) -> Result<(), TierError> {
    let mut seen = std::collections::HashSet::new();
    for t in tiers {
        let name = game.tier_name(t);
        let why = if name.is_empty() {
            Some("empty")
        } else if name.starts_with('.') {
            Some("starts with a dot")
        } else if !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        {
            Some("expected letters, digits, '-', '_' and '.' only")
        } else if !seen.insert(name.to_ascii_lowercase()) {
            Some("two tiers have this name (names are compared ignoring case)")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(TierError::BadName { name, why });
        }
    }
    Ok(())
}
/// `f` of each of `items`, in their order: at once on the threads where
/// there are several.
pub(super) fn at_once<T: Send>(
    items: &[usize],
    f: impl Fn(usize) -> Result<T, TierError> + Sync,
) -> Vec<Result<T, TierError>> {
    match items {
        [one] => vec![f(*one)],
        _ => items.par_iter().map(|&i| f(i)).collect(),
    }
}

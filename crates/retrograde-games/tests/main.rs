//! The built-in games' tests through their public interface, in one binary:
//! each file a module (one link for all of them).

mod cop_thief;
mod dots_boxes;
mod endings;
mod playable;
mod registry;

//! Readers and writers, one file per format. Every reader returns an
//! [`Error`](crate::Error) naming the file and the line (or byte) at fault.

mod atomic;
pub mod binary;
pub mod edge_list;
mod input;
pub mod labels;
pub(crate) mod mapped;
mod matrix_market;
pub mod names;
pub mod owners;
pub mod paths;
pub mod pgsolver;
mod scratch;
pub mod solution;
mod text;

pub use atomic::{
    Outputs, WritesHeld, check_output, is_temporary_name, persist_temporary,
    remove_temporary_files, temporary_file, write_atomically,
};
pub use input::Input;
pub use mapped::{MAPPED_PATH_BYTES, changed_while_mapped, mapped_path_at};
#[doc(hidden)]
pub use scratch::scratch_dir;

//! How the board reaches the window: only what changed is drawn again.
//! `damage.rs` works out each frame's changed rectangles, `retain.rs` keeps
//! the board's picture and the ground under the overlays, `present.rs`
//! copies the kept picture to the window. The board's art itself is in
//! `ui/board.rs`, `ui/counters.rs` and the other art rooms.

pub mod damage;
pub mod present;
pub mod retain;

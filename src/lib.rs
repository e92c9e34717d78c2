//! othel: a headless engine for Othello/Reversi on every even board from 4×4 to 16×16 and for Othel
//! Lehto, the palindrome variant, on every odd board from 5×5 to 19×19.
//!
//! The layers, each depending only on those above it in this list: [`rules`] (boards, move
//! generation, notation, perft), then the command line in [`cli`].

pub mod book;
pub mod cli;
pub mod eval;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod shard;
pub mod tournament;
pub mod train;

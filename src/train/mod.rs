//! Training the pattern evaluation: self-play games ([`selfplay`]) kept as game records
//! ([`records`]) and replayed into labelled samples ([`samples`]), and a least-squares fit of the
//! weights ([`fit`]); test sets labelled by a deep search or an exact solve ([`label`]); runs share
//! out by [`crate::shard`].

pub mod fit;
pub mod label;
pub mod records;
pub mod samples;
pub mod selfplay;

//! Training the pattern evaluation: self-play games labelled by exact solves ([`selfplay`]), stored
//! as samples ([`samples`]), and a least-squares fit of the weights ([`fit`]).

pub mod fit;
pub mod samples;
pub mod selfplay;

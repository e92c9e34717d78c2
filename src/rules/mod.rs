//! The rules of both games: board representations, move generation, notation and perft. Depends on
//! nothing else in the crate.

pub mod bits;
pub mod diagram;
pub mod game;
pub mod geometry;
pub mod ggf;
pub mod kernel8;
pub mod lehto;
pub mod notation;
pub mod othello;
pub mod perft;
pub mod position;
pub mod square;
pub mod stability8;
pub mod symmetry;
pub mod variant;

pub use bits::Bits;
pub use game::Game;
pub use geometry::Geometry;
pub use lehto::Lehto;
pub use othello::Othello;
pub use position::{IllegalMove, IllegalReason, Position};
pub use square::{Move, Square};
pub use variant::{BoardKind, Color, Variant};

/// Runs `$body` with `$P` naming the position type of `$kind` (a [`BoardKind`]), so that generic
/// code is chosen once, at the top, for the variant and size at hand.
///
/// ```
/// use othel::rules::{BoardKind, Position, Variant};
/// let kind = BoardKind::new(Variant::Othello, 6).unwrap();
/// let moves = othel::with_position_type!(kind, P => P::start().legal_moves().len());
/// assert_eq!(moves, 4);
/// ```
#[macro_export]
macro_rules! with_position_type {
    ($kind:expr, $P:ident => $body:expr) => {{
        use $crate::rules::geometry::*;
        use $crate::rules::{Lehto, Othello, Variant};
        let kind: $crate::rules::BoardKind = $kind;
        match (kind.variant(), kind.size()) {
            (Variant::Othello, 4) => {
                type $P = Othello<Size4>;
                $body
            }
            (Variant::Othello, 6) => {
                type $P = Othello<Size6>;
                $body
            }
            (Variant::Othello, 8) => {
                type $P = Othello<Size8>;
                $body
            }
            (Variant::Othello, 10) => {
                type $P = Othello<Size10>;
                $body
            }
            (Variant::Othello, 12) => {
                type $P = Othello<Size12>;
                $body
            }
            (Variant::Othello, 14) => {
                type $P = Othello<Size14>;
                $body
            }
            (Variant::Othello, 16) => {
                type $P = Othello<Size16>;
                $body
            }
            (Variant::Lehto, 5) => {
                type $P = Lehto<Size5>;
                $body
            }
            (Variant::Lehto, 7) => {
                type $P = Lehto<Size7>;
                $body
            }
            (Variant::Lehto, 9) => {
                type $P = Lehto<Size9>;
                $body
            }
            (Variant::Lehto, 11) => {
                type $P = Lehto<Size11>;
                $body
            }
            (Variant::Lehto, 13) => {
                type $P = Lehto<Size13>;
                $body
            }
            (Variant::Lehto, 15) => {
                type $P = Lehto<Size15>;
                $body
            }
            (Variant::Lehto, 17) => {
                type $P = Lehto<Size17>;
                $body
            }
            (Variant::Lehto, 19) => {
                type $P = Lehto<Size19>;
                $body
            }
            // A BoardKind is only ever built for an allowed size.
            _ => unreachable!("no board type for {kind}"),
        }
    }};
}

//! The baseline Lehto evaluation: material, and the palindromes each side could make next (the
//! first-wave captures waiting on the empty squares next to stones).

use super::{DISC, Evaluate, Term};
use crate::rules::geometry::neighbours;
use crate::rules::lehto::{Lehto, LehtoGeometry, first_waves};
use crate::rules::{Bits, Position};

impl<G: LehtoGeometry> Evaluate for Lehto<G> {
    type Terms = [Term; 4];

    fn terms(&self) -> [Term; 4] {
        let me = self.player();
        let them = self.opponent();
        let material = me.count() as i32 - them.count() as i32;
        // Only squares next to a stone can make a run of two or more.
        let frontier = neighbours::<G>(me | them) & self.empties();
        let (mut my_best, mut their_best, mut my_threats, mut their_threats) = (0, 0, 0, 0);
        for sq in frontier.squares() {
            // The first wave only: the cascades would cost more than they tell at a leaf.
            let (mine, theirs) = first_waves::<G>(me, them, sq);
            let (mine, theirs) = (mine.count() as i32, theirs.count() as i32);
            my_best = my_best.max(mine);
            their_best = their_best.max(theirs);
            my_threats += (mine > 0) as i32;
            their_threats += (theirs > 0) as i32;
        }
        [
            Term {
                name: "material",
                value: material * DISC,
            },
            // The player to move cashes its best capture; the opponent's best is only a threat.
            Term {
                name: "best capture",
                value: my_best * DISC * 8 / 10,
            },
            Term {
                name: "threatened",
                value: -their_best * DISC * 4 / 10,
            },
            Term {
                name: "capture squares",
                value: (my_threats - their_threats) * DISC / 10,
            },
        ]
    }

    #[inline]
    fn order_key(&self) -> i32 {
        // After the move, the mover is the opponent: more material for it first.
        self.opponent().count() as i32 - self.player().count() as i32
    }
}

//! The Lehto evaluation: the baseline (material, and the palindromes each side could make next: the
//! first-wave captures waiting on the empty squares next to stones), corrected on 9×9 by the
//! trained pattern evaluation ([`super::model`], Lehto's own patterns: whole lines and 3×3
//! windows) when it has weights.

use super::model::{Inputs, trained};
use super::patterns::Group;
use super::{DISC, Evaluate, Term, TermList, clamp_to_scores};
use crate::rules::geometry::neighbours;
use crate::rules::lehto::{Lehto, LehtoGeometry, first_waves};
use crate::rules::{Bits, Position};

/// The baseline's terms, and the capture squares of each side (empty squares where a placement
/// makes a palindrome that captures), which the trained correction weighs again.
struct Baseline {
    terms: [Term; 4],
    my_threats: u32,
    their_threats: u32,
}

/// What the trained correction's terms are called.
const TRAINED_TERMS: [&str; 6] = [
    Group::ALL[0].name(),
    "window patterns",
    Group::ALL[2].name(),
    Group::ALL[3].name(),
    "capture squares correction",
    "constant and parity",
];

impl<G: LehtoGeometry> Lehto<G> {
    /// The trained correction's inputs: the discs and each side's capture squares (Lehto has no
    /// patterns read from the moves).
    fn inputs_with(&self, baseline: &Baseline) -> Inputs<G::Bits> {
        Inputs {
            player: self.player(),
            opponent: self.opponent(),
            empties: self.empty_count(),
            my_moves: baseline.my_threats,
            their_moves: baseline.their_threats,
            move_sets: [G::Bits::ZERO; 2],
        }
    }

    fn baseline(&self) -> Baseline {
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
            my_threats += (mine > 0) as u32;
            their_threats += (theirs > 0) as u32;
        }
        let terms = [
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
                value: (my_threats as i32 - their_threats as i32) * DISC / 10,
            },
        ];
        Baseline {
            terms,
            my_threats,
            their_threats,
        }
    }
}

impl<G: LehtoGeometry> Evaluate for Lehto<G> {
    type Terms = TermList<10>;

    fn terms(&self) -> TermList<10> {
        let mut terms = [Term { name: "", value: 0 }; 10];
        let baseline = self.baseline();
        terms[..4].copy_from_slice(&baseline.terms);
        let Some(model) = trained::<G>() else {
            return TermList::new(terms, 4);
        };
        let parts = model.parts(&self.inputs_with(&baseline));
        for (k, name) in TRAINED_TERMS.iter().enumerate() {
            terms[4 + k] = Term {
                name,
                value: parts[k],
            };
        }
        // The sum is clamped as in `evaluate`.
        let total: i32 = terms.iter().map(|t| t.value).sum();
        terms[9].value += clamp_to_scores::<G>(total) - total;
        TermList::new(terms, 10)
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        let baseline = self.baseline();
        let sum = baseline.terms.iter().map(|t| t.value).sum();
        match trained::<G>() {
            Some(model) => clamp_to_scores::<G>(sum + model.evaluate(&self.inputs_with(&baseline))),
            None => sum,
        }
    }

    /// The trained weights correct the baseline (the data of Lehto's self-play is scarce).
    fn untrained_part(&self) -> i32 {
        self.baseline().terms.iter().map(|t| t.value).sum()
    }

    fn pattern_inputs(&self) -> Inputs<G::Bits> {
        self.inputs_with(&self.baseline())
    }

    #[inline]
    fn order_key(&self) -> i32 {
        // After the move, the mover is the opponent: more material for it first.
        self.opponent().count() as i32 - self.player().count() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Size5, Size9};

    fn check<G: LehtoGeometry>(trained: bool) {
        assert_eq!(super::trained::<G>().is_some(), trained, "{}", G::SIZE);
        // Random games (a swap among the moves drawn).
        for pos in crate::eval::random_positions::<Lehto<G>>(10) {
            crate::eval::check_terms_and_symmetry(&pos);
            // What the weights correct is the baseline.
            let baseline: i32 = pos.terms().as_ref()[..4].iter().map(|t| t.value).sum();
            assert_eq!(pos.untrained_part(), baseline);
        }
    }

    #[test]
    fn the_evaluation_is_the_same_under_every_symmetry_and_sums_its_terms() {
        check::<Size9>(true);
        check::<Size5>(false);
    }
}

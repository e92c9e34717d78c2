//! What a match's results say: score, Elo difference with its 95% interval, likelihood of
//! superiority, and the sequential probability ratio test that stops a match once it decides.

/// Results of one engine against another, from the first one's view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Sum of the disc margins.
    pub discs: i64,
}

/// The Elo difference that a score (0–1) means: infinite for 0 and 1, which no finite
/// difference explains.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds a game: the first engine's disc margin.
    pub fn add(&mut self, margin: i32) {
        match margin.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.discs += margin as i64;
    }

    /// The same results from the other engine's view.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            discs: -self.discs,
        }
    }

    /// The score, 0–1 (a draw is half).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference.
    pub fn elo(&self) -> f64 {
        // (+ 0.0 turns an even score's -0 into 0.)
        elo_of_score(self.score()) + 0.0
    }

    /// The 95% confidence interval of the Elo difference: Wilson's score interval (with the
    /// games' own variance, draws included), which stays meaningful for a whitewash: 6-0 gives
    /// [+77, +inf], where the plain normal interval shrinks to a point.
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        const Z: f64 = 1.959_964;
        let s = self.score();
        let z2n = Z * Z / n;
        let center = (s + z2n / 2.0) / (1.0 + z2n);
        let half = Z * (self.variance() / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
        let low = if s <= 0.0 { 0.0 } else { center - half };
        let high = if s >= 1.0 { 1.0 } else { center + half };
        (elo_of_score(low), elo_of_score(high))
    }

    /// The likelihood of superiority: how sure the first engine is the stronger (draws ignored).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The average disc margin.
    pub fn average_discs(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.discs as f64 / n as f64
        }
    }
}

/// A sequential probability ratio test of H0 "the first engine is elo0 stronger" against H1
/// "elo1 stronger".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// What a test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the change gains at least elo1.
    H1,
    /// H0 accepted: it gains no more than elo0.
    H0,
    /// Play on.
    Continue,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; the defaults are those).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt takes KEY=VALUE words: '{word}'"))?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: bad number in '{word}'"))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(format!("--sprt: unknown '{key}' (elo0, elo1, alpha, beta)")),
            }
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("--sprt: elo1 must be above elo0".into());
        }
        if !(0.0..0.5).contains(&sprt.alpha)
            || !(0.0..0.5).contains(&sprt.beta)
            || sprt.alpha == 0.0
            || sprt.beta == 0.0
        {
            return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
        }
        Ok(sprt)
    }

    /// The bounds of the log-likelihood ratio: below the first H0 is accepted, above the second
    /// H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results: the generalized SPRT on the trinomial
    /// (loss/draw/win) distribution with logistic Elo, as fishtest and fastchess compute it
    /// (Michel Van den Bergh's GSPRT): the results' empirical distribution against its
    /// maximum-likelihood neighbours whose expected scores are those of elo0 and elo1. An outcome
    /// not seen yet counts as 0.001 games, so that a one-sided start (two losses) weighs what two
    /// games weigh, not what thousands would.
    pub fn llr(&self, tally: &Tally) -> f64 {
        llr_logistic(
            &[tally.losses as f64, tally.draws as f64, tally.wins as f64],
            self.elo0,
            self.elo1,
        )
    }

    /// What the results decide.
    pub fn decide(&self, tally: &Tally) -> SprtDecision {
        self.decide_ratio(self.llr(tally))
    }

    /// What a log-likelihood ratio of the results decides.
    pub fn decide_ratio(&self, llr: f64) -> SprtDecision {
        let (low, high) = self.bounds();
        if llr >= high {
            SprtDecision::H1
        } else if llr <= low {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

/// The GSPRT's log-likelihood ratio of `counts`, the frequencies of the evenly spaced scores
/// 0, …, 1 (loss, draw, win; or the five scores of game pairs), for expected scores of `elo0`
/// against `elo1` (logistic Elo).
pub fn llr_logistic(counts: &[f64], elo0: f64, elo1: f64) -> f64 {
    let total: f64 = counts.iter().sum();
    if total == 0.0 || counts.len() < 2 {
        return 0.0;
    }
    // Regularised: an outcome never seen gets a small weight, or the MLE would not exist.
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| if c > 0.0 { c } else { 1e-3 })
        .collect();
    let n: f64 = counts.iter().sum();
    let last = (counts.len() - 1) as f64;
    let pdf: Vec<(f64, f64)> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / last, c / n))
        .collect();
    let p0 = mle_with_mean(&pdf, score_of_elo(elo0));
    let p1 = mle_with_mean(&pdf, score_of_elo(elo1));
    n * pdf
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, p), (&q0, &q1))| p * (q1 / q0).ln())
        .sum::<f64>()
}

/// The distribution closest to `pdf` (in the likelihood sense) whose mean is `mean`:
/// p_i / (1 + x (a_i - mean)), x solving sum p_i (a_i - mean) / (1 + x (a_i - mean)) = 0
/// (found by bisection: the sum falls as x rises between its poles).
fn mle_with_mean(pdf: &[(f64, f64)], mean: f64) -> Vec<f64> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - mean, p)).collect();
    let lowest = shifted.iter().map(|s| s.0).fold(f64::INFINITY, f64::min);
    let highest = shifted
        .iter()
        .map(|s| s.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let f = |x: f64| -> f64 { shifted.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum() };
    let x = if lowest >= 0.0 || highest <= 0.0 {
        // The mean is outside the scores' range: cannot happen for Elo in range; no change.
        0.0
    } else {
        let (mut lo, mut hi) = (-1.0 / highest + 1e-12, -1.0 / lowest - 1e-12);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_elo_and_los() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
            discs: 0,
        };
        assert_eq!(even.score(), 0.5);
        assert!(even.elo().abs() < 1e-9);
        assert!((even.los() - 0.5).abs() < 1e-9);
        let strong = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
            discs: 900,
        };
        assert!((strong.elo() - 190.85).abs() < 0.1, "{}", strong.elo());
        let (lo, hi) = strong.elo_interval();
        assert!(lo < strong.elo() && strong.elo() < hi && lo > 100.0 && hi < 300.0);
        assert!(strong.los() > 0.999);
        assert_eq!(strong.average_discs(), 9.0);
        assert_eq!(strong.reversed().wins, 25);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
    }

    #[test]
    fn sprt_decides_clear_results_and_waits_on_unclear_ones() {
        let sprt = Sprt::parse(&["elo0=0 elo1=50 alpha=0.05 beta=0.05".to_string()]).unwrap();
        let clear_win = Tally {
            wins: 80,
            draws: 0,
            losses: 20,
            discs: 0,
        };
        assert_eq!(sprt.decide(&clear_win), SprtDecision::H1);
        assert_eq!(sprt.decide(&clear_win.reversed()), SprtDecision::H0);
        let unclear = Tally {
            wins: 6,
            draws: 1,
            losses: 5,
            discs: 0,
        };
        assert_eq!(sprt.decide(&unclear), SprtDecision::Continue);
        assert!(Sprt::parse(&["elo0=5 elo1=0".to_string()]).is_err());
        // Two losses decide nothing (the normal approximation accepted H0 here, LLR -32.7).
        let wide = Sprt::parse(&["elo0=0 elo1=200 alpha=0.1 beta=0.1".to_string()]).unwrap();
        let start = Tally {
            wins: 0,
            draws: 0,
            losses: 2,
            discs: -10,
        };
        assert_eq!(wide.decide(&start), SprtDecision::Continue);
        assert!(
            (wide.llr(&start) + 1.466).abs() < 0.01,
            "{}",
            wide.llr(&start)
        );
        assert!(Sprt::parse(&["gamma=1".to_string()]).is_err());
    }

    /// fastchess's published LLRs (its SPRT tests, logistic model): trinomial (wins, losses,
    /// draws) and pentanomial (LL, LD, WL, DD, WD, WW pairs; WL and DD both score one half).
    #[test]
    fn gsprt_matches_published_figures() {
        let tri = |w: u32, l: u32, d: u32, elo0: f64, elo1: f64| {
            let sprt = Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            };
            sprt.llr(&Tally {
                wins: w,
                draws: d,
                losses: l,
                discs: 0,
            })
        };
        assert!((tri(21404, 21184, 40708, 0.5, 2.5) - -1.57).abs() < 0.01);
        assert!((tri(57433, 57030, 106593, 0.0, 2.0) - -2.59).abs() < 0.01);
        let penta = |c: [f64; 6], elo0: f64, elo1: f64| {
            llr_logistic(&[c[0], c[1], c[2] + c[3], c[4], c[5]], elo0, elo1)
        };
        let a = penta([223.0, 9863.0, 20279.0, 1000.0, 10037.0, 246.0], 0.5, 2.5);
        assert!((a - -3.07).abs() < 0.01, "{a}");
        let b = penta([871.0, 26175.0, 55003.0, 980.0, 26678.0, 821.0], 0.0, 2.0);
        assert!((b - -4.98).abs() < 0.01, "{b}");
    }

    #[test]
    fn a_whitewash_has_an_infinite_elo_and_a_one_sided_interval() {
        let whitewash = Tally {
            wins: 0,
            draws: 0,
            losses: 6,
            discs: -200,
        };
        assert_eq!(whitewash.elo(), f64::NEG_INFINITY);
        let (low, high) = whitewash.elo_interval();
        assert_eq!(low, f64::NEG_INFINITY);
        assert!(high.is_finite() && high < -50.0 && high > -400.0, "{high}");
        let (low, high) = whitewash.reversed().elo_interval();
        assert!(low.is_finite() && low > 50.0, "{low}");
        assert_eq!(high, f64::INFINITY);
    }
}

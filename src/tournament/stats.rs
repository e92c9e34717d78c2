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

/// The Elo difference that a score (0–1) means.
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
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

    /// The 95% confidence interval of the Elo difference (normal approximation of the score).
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let half = 1.959_964 * (self.variance() / n).sqrt();
        let s = self.score();
        (elo_of_score(s - half), elo_of_score(s + half))
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

    /// The log-likelihood ratio of the results (the normal approximation of the game scores, as
    /// chess testing frameworks compute it).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n = tally.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        // A floor for one-sided results (all wins): real matches vary ten times more.
        let variance = tally.variance().max(0.01);
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let s = tally.score();
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
    }

    /// What the results decide.
    pub fn decide(&self, tally: &Tally) -> SprtDecision {
        let llr = self.llr(tally);
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
        assert!(Sprt::parse(&["gamma=1".to_string()]).is_err());
    }
}

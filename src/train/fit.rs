//! Fitting the pattern weights to samples: regularised least squares, one game phase at a time,
//! solved by conjugate gradients on the normal equations (CGLS). Configurations that a pattern's
//! own symmetry makes the same share one weight; configurations never seen keep weight 0.

use super::samples::Sample;
use crate::eval::model::Model;
use crate::eval::patterns::{canonical_indices, patterns};
use crate::eval::weights::{SCALARS, Weights, WeightsError, layout, phase_of};
use crate::eval::{DISC, Evaluate};
use crate::rules::Bits;
use rayon::prelude::*;

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Ridge penalty on every weight (in squared discs).
    pub lambda: f64,
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Each phase is also fitted on the rows of the phases beside it, weighted by this (0: its
    /// own rows only): every phase sees about three times the data, and neighbouring phases'
    /// weights stay close (the smoothing Logistello's and Edax's fits get by overlapping phases).
    pub smooth: f64,
    /// Shrink towards these weights instead of towards 0 (the ridge penalty is on the change):
    /// a new fit keeps what an earlier one learned from other data where the new data says
    /// little (a Gaussian prior centred on the earlier fit).
    pub prior: Option<Weights>,
    /// Keep one sample in this many out of the fit, to measure the error on unseen positions
    /// (0: fit on all).
    pub holdout: u64,
    /// A phase fitted on fewer samples takes the weights of the nearest phase with enough.
    pub min_samples: usize,
    /// A phase spans 2^this empty counts (`weights::PHASE_SHIFTS`; the board's default is
    /// `weights::phase_shift`).
    pub phase_shift: u32,
}

/// How well one phase fits.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseReport {
    /// The phase (empties / 4).
    pub phase: usize,
    /// Samples fitted.
    pub train: usize,
    /// Samples held out.
    pub held_out: usize,
    /// Root mean square error in discs on the fitted samples.
    pub train_rmse: f64,
    /// … on the held-out samples.
    pub holdout_rmse: f64,
    /// … of predicting 0 on the held-out samples (the evaluation without the weights: 0, or what
    /// its untrained part gives).
    pub zero_rmse: f64,
    /// The phase whose weights it takes (itself, unless it has too few samples).
    pub source: usize,
}

/// Every sample's features, stored once however many phases fit on it: for each sample, each
/// pattern instance's folded index within its pattern's table (2 bytes: a table of 10 squares
/// has 59,049 entries), its scalars and its label. About 110 bytes a sample on 8×8, so that tens
/// of millions fit in memory (a row of its own per sample and phase, as before, took 780).
struct Table {
    /// For each instance, where its pattern's table starts within a phase.
    starts: Vec<u32>,
    /// An index per instance and sample, relative to the instance's start.
    indices: Vec<u16>,
    scalars: Vec<[i16; SCALARS]>,
    labels: Vec<f32>,
}

impl Table {
    fn push(&mut self, columns: impl Iterator<Item = u16>, scalars: [i32; SCALARS], label: f64) {
        self.indices.extend(columns);
        self.scalars.push(scalars.map(|x| x as i16));
        self.labels.push(label as f32);
    }

    fn columns(&self, sample: usize) -> impl Iterator<Item = usize> + '_ {
        let width = self.starts.len();
        let indices = &self.indices[sample * width..(sample + 1) * width];
        self.starts
            .iter()
            .zip(indices)
            .map(|(&start, &i)| start as usize + i as usize)
    }

    fn predict_one(&self, sample: usize, w: &[f64], base: usize) -> f64 {
        self.columns(sample).map(|c| w[c]).sum::<f64>()
            + (0..SCALARS)
                .map(|k| self.scalars[sample][k] as f64 * w[base + k])
                .sum::<f64>()
    }
}

/// One sample's features on their way into the [`Table`].
struct Found {
    phase: usize,
    held: bool,
    columns: Vec<u16>,
    scalars: [i32; SCALARS],
    label: f64,
}

/// The rows one phase fits: samples of the [`Table`], each with the square root of its weight
/// in the fit (the rows of the neighbouring phases count less).
struct Design<'a> {
    table: &'a Table,
    rows: Vec<(u32, f32)>,
}

impl Design<'_> {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn labels(&self) -> impl Iterator<Item = f64> + '_ {
        self.rows
            .iter()
            .map(|&(s, _)| self.table.labels[s as usize] as f64)
    }

    fn predict(&self, w: &[f64], base: usize) -> Vec<f64> {
        self.rows
            .par_iter()
            .map(|&(s, _)| self.table.predict_one(s as usize, w, base))
            .collect()
    }

    /// `W^½ A w`: the predictions scaled by the square roots of the rows' weights (weighted
    /// least squares as plain least squares on scaled rows).
    fn predict_scaled(&self, w: &[f64], base: usize) -> Vec<f64> {
        self.rows
            .par_iter()
            .map(|&(s, root)| root as f64 * self.table.predict_one(s as usize, w, base))
            .collect()
    }

    /// `(W^½ A)ᵀ v`.
    fn transpose_times(&self, v: &[f64], columns: usize, base: usize) -> Vec<f64> {
        let mut g = vec![0.0; columns];
        for (&(s, root), &x) in self.rows.iter().zip(v) {
            let x = x * root as f64;
            for c in self.table.columns(s as usize) {
                g[c] += x;
            }
            for k in 0..SCALARS {
                g[base + k] += self.table.scalars[s as usize][k] as f64 * x;
            }
        }
        g
    }
}

fn rmse(errors: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = errors.fold((0.0, 0usize), |(s, n), e| (s + e * e, n + 1));
    if n == 0 { 0.0 } else { (sum / n as f64).sqrt() }
}

fn is_held_out<B: Bits>(s: &Sample<B>, holdout: u64) -> bool {
    // Up to 8×8 the discs themselves (the held-out set of the fits before the larger boards).
    let key = if B::CAPACITY == 64 {
        s.player.low64() ^ s.opponent.low64().rotate_left(17)
    } else {
        s.player.hash64() ^ s.opponent.hash64().rotate_left(17)
    };
    holdout > 0 && crate::rules::bits::mix(key).is_multiple_of(holdout)
}

/// Fits weights for the board of `P` to `samples`.
pub fn fit<P: Evaluate>(
    samples: &[Sample<P::Bits>],
    options: &FitOptions,
    mut report: impl FnMut(&PhaseReport),
) -> Result<Weights, WeightsError> {
    let size = P::start().size();
    let mut weights = Weights::zero_with(size, options.phase_shift)?;
    let model = Model::<P::Bits>::new(weights.clone())?;
    let list = patterns(size);
    let (offsets, stride) = layout(&list);
    let base = stride - SCALARS;
    // Index within a phase → the index of the weight it shares.
    let mut fold: Vec<u32> = (0..stride as u32).collect();
    for (p, pattern) in list.iter().enumerate() {
        for (i, c) in canonical_indices(size, pattern).into_iter().enumerate() {
            fold[offsets[p] + i] = offsets[p] as u32 + c;
        }
    }
    let phases = weights.phases;
    let shift = options.phase_shift;
    // A prior of another phase width is laid over these phases.
    let laid;
    let prior = match &options.prior {
        Some(p) if p.phases != phases => {
            laid = p.with_phase_shift(shift)?;
            Some(&laid)
        }
        other => other.as_ref(),
    };
    // Each instance's start, and the folded index relative to it (every table fits 16 bits).
    let starts = model.instance_starts();
    let mut table = Table {
        indices: Vec::with_capacity(samples.len() * starts.len()),
        starts,
        scalars: Vec::with_capacity(samples.len()),
        labels: Vec::with_capacity(samples.len()),
    };
    let mut train: Vec<Vec<(u32, f32)>> = (0..phases).map(|_| Vec::new()).collect();
    let mut test: Vec<Vec<(u32, f32)>> = (0..phases).map(|_| Vec::new()).collect();
    // In slices, so that the features found in parallel wait for the table in small numbers.
    for slice in samples.chunks(1 << 16) {
        let found: Vec<Found> = slice
            .par_iter()
            .filter_map(|s| {
                let pos = P::from_discs(s.player, s.opponent, crate::rules::Color::Black).ok()?;
                let inputs = pos.pattern_inputs();
                let empties = inputs.empties as usize;
                let f = model.features(&inputs);
                Some(Found {
                    phase: phase_of(empties, shift, phases),
                    held: is_held_out(s, options.holdout),
                    columns: f
                        .indices
                        .iter()
                        .zip(&table.starts)
                        .map(|(&i, &start)| (fold[i as usize] - start) as u16)
                        .collect(),
                    scalars: f.scalars,
                    // The weights learn what the untrained part of the evaluation leaves.
                    label: s.score as f64 - pos.untrained_part() as f64 / DISC as f64,
                })
            })
            .collect();
        for f in found {
            let sample = table.labels.len() as u32;
            table.push(f.columns.into_iter(), f.scalars, f.label);
            if f.held {
                test[f.phase].push((sample, 1.0));
                continue;
            }
            if options.smooth > 0.0 {
                for near in [f.phase.wrapping_sub(1), f.phase + 1] {
                    if near < phases {
                        train[near].push((sample, options.smooth.sqrt() as f32));
                    }
                }
            }
            train[f.phase].push((sample, 1.0));
        }
    }
    let table = &table;
    let fitted: Vec<(Vec<f64>, PhaseReport)> = train
        .into_par_iter()
        .zip(test)
        .enumerate()
        .map(|(phase, (train, test))| {
            let a = Design { table, rows: train };
            let prior: Vec<f64> = match prior {
                Some(p) => p.values[phase * stride..(phase + 1) * stride]
                    .iter()
                    .map(|&v| v as f64 / DISC as f64)
                    .collect(),
                None => vec![0.0; stride],
            };
            let w = cgls(&a, stride, base, options, &prior);
            let t = Design { table, rows: test };
            let fit_err = rmse(
                a.predict(&w, base)
                    .iter()
                    .zip(a.labels())
                    .map(|(p, y)| p - y),
            );
            let test_err = rmse(
                t.predict(&w, base)
                    .iter()
                    .zip(t.labels())
                    .map(|(p, y)| p - y),
            );
            let zero_err = rmse(t.labels());
            (
                w,
                PhaseReport {
                    phase,
                    train: a.len(),
                    held_out: t.len(),
                    train_rmse: fit_err,
                    holdout_rmse: test_err,
                    zero_rmse: zero_err,
                    source: phase,
                },
            )
        })
        .collect();
    // A phase with too few samples (the first plies, which openings skip) borrows the weights of
    // the nearest phase that has enough.
    let enough: Vec<usize> = (0..phases)
        .filter(|&k| fitted[k].1.train >= options.min_samples)
        .collect();
    for phase in 0..phases {
        let source = enough
            .iter()
            .copied()
            .min_by_key(|&k| k.abs_diff(phase))
            .unwrap_or(phase);
        report(&PhaseReport {
            source,
            ..fitted[phase].1
        });
        let w = &fitted[source].0;
        let out = &mut weights.values[phase * stride..(phase + 1) * stride];
        for (i, v) in out.iter_mut().enumerate() {
            let x = w[fold[i] as usize] * DISC as f64;
            *v = x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        }
    }
    Ok(weights)
}

/// Least squares with a ridge penalty by conjugate gradients on the normal equations:
/// minimises |A w − y|² + λ |w|².
/// With a prior p, solves for the change d = w − p (ridge on d): residuals start at y − A p.
fn cgls(a: &Design, columns: usize, base: usize, options: &FitOptions, prior: &[f64]) -> Vec<f64> {
    let lambda = options.lambda;
    let mut w = vec![0.0; columns];
    if a.rows.is_empty() {
        return prior.to_vec();
    }
    let from_prior = a.predict_scaled(prior, base);
    let mut r: Vec<f64> = a
        .rows
        .iter()
        .zip(a.labels())
        .zip(&from_prior)
        .map(|((&(_, root), y), p)| y * root as f64 - p)
        .collect();
    let mut s = a.transpose_times(&r, columns, base);
    let mut p = s.clone();
    let mut gamma: f64 = s.iter().map(|x| x * x).sum();
    for _ in 0..options.iterations {
        if gamma <= 1e-12 {
            break;
        }
        let q = a.predict_scaled(&p, base);
        let qq: f64 =
            q.iter().map(|x| x * x).sum::<f64>() + lambda * p.iter().map(|x| x * x).sum::<f64>();
        if qq <= 0.0 {
            break;
        }
        let alpha = gamma / qq;
        for (wi, pi) in w.iter_mut().zip(&p) {
            *wi += alpha * pi;
        }
        for (ri, qi) in r.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        s = a.transpose_times(&r, columns, base);
        for (si, wi) in s.iter_mut().zip(&w) {
            *si -= lambda * wi;
        }
        let next: f64 = s.iter().map(|x| x * x).sum();
        let beta = next / gamma;
        gamma = next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
    }
    for (wi, pi) in w.iter_mut().zip(prior) {
        *wi += pi;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Size6;
    use crate::rules::{Othello, Position};

    /// Positions of a few random 6x6 games, labelled by a made-up rule (the disc difference).
    fn samples() -> Vec<Sample> {
        crate::eval::random_positions::<Othello<Size6>>(40)
            .into_iter()
            .map(|pos| {
                let (p, o) = (pos.player(), pos.opponent());
                Sample {
                    player: p,
                    opponent: o,
                    score: (p.count_ones() as i32 - o.count_ones() as i32) as i8,
                }
            })
            .collect()
    }

    fn options(lambda: f64, smooth: f64, prior: Option<Weights>) -> FitOptions {
        FitOptions {
            lambda,
            iterations: 50,
            smooth,
            prior,
            holdout: 0,
            min_samples: 1,
            phase_shift: crate::eval::weights::phase_shift(6),
        }
    }

    #[test]
    fn a_heavy_prior_keeps_the_prior_and_a_light_one_fits_the_data() {
        let data = samples();
        // A prior that is itself a fit (so that symmetric configurations share values).
        let prior = fit::<Othello<Size6>>(&data, &options(1.0, 0.0, None), |_| {}).unwrap();
        assert!(prior.values.iter().any(|&v| v != 0));
        // Labels that say the opposite, against a prior too heavy to move: the prior stays.
        let flipped: Vec<Sample> = data
            .iter()
            .map(|s| Sample {
                score: -s.score,
                ..*s
            })
            .collect();
        let kept =
            fit::<Othello<Size6>>(&flipped, &options(1e12, 0.0, Some(prior.clone())), |_| {})
                .unwrap();
        let moved = kept
            .values
            .iter()
            .zip(&prior.values)
            .filter(|(a, b)| (**a - **b).abs() > 1)
            .count();
        assert_eq!(moved, 0);
        // A light prior and neighbouring phases' rows fit the labels better than the prior does.
        let mut errors = Vec::new();
        for opts in [
            options(1e12, 0.0, Some(prior.clone())),
            options(0.1, 0.5, Some(prior)),
        ] {
            let mut worst = 0.0f64;
            fit::<Othello<Size6>>(&data, &opts, |r| worst = worst.max(r.train_rmse)).unwrap();
            errors.push(worst);
        }
        assert!(errors[1] < errors[0], "{errors:?}");
    }

    #[test]
    fn a_fit_of_finer_phases_lays_its_prior_over_them() {
        let data = samples();
        let prior = fit::<Othello<Size6>>(&data, &options(1.0, 0.0, None), |_| {}).unwrap();
        let fine = FitOptions {
            phase_shift: 1,
            ..options(1e12, 0.0, Some(prior.clone()))
        };
        let kept = fit::<Othello<Size6>>(&data, &fine, |_| {}).unwrap();
        assert_eq!((prior.phases, kept.phases), (9, 17));
        assert_eq!(kept.phase_shift(), 1);
        // Phases 2k and 2k+1 (empties 4k to 4k+3) keep the prior's phase k.
        let stride = prior.stride();
        for phase in 0..kept.phases {
            let old = &prior.values[(phase / 2) * stride..][..stride];
            let new = &kept.values[phase * stride..][..stride];
            let moved = old.iter().zip(new).filter(|(a, b)| (**a - **b).abs() > 1);
            assert_eq!(moved.count(), 0, "phase {phase}");
        }
    }

    #[test]
    fn the_parity_of_the_empty_squares_is_learned_within_a_phase() {
        // Labels that only the parity explains: +4 discs when the empty squares are odd, -4 when
        // even, the discs themselves saying nothing (a phase spans 4 empty counts of both kinds).
        let labelled = |games| -> Vec<Sample> {
            crate::eval::random_positions::<Othello<Size6>>(games)
                .into_iter()
                .map(|pos| Sample {
                    player: pos.player(),
                    opponent: pos.opponent(),
                    score: if pos.empty_count() % 2 == 1 { 4 } else { -4 },
                })
                .collect()
        };
        let fitted = labelled(400);
        let weights = fit::<Othello<Size6>>(&fitted, &options(10.0, 0.0, None), |_| {}).unwrap();
        let model = Model::<u64>::new(weights).unwrap();
        // On positions of other games: the patterns could learn the fitted positions by heart,
        // but only the parity carries over.
        let unseen = &labelled(440)[fitted.len()..];
        let mut error = 0;
        for s in unseen {
            let pos =
                Othello::<Size6>::from_discs(s.player, s.opponent, crate::rules::Color::Black)
                    .unwrap();
            let score = model.evaluate(&pos.pattern_inputs());
            error += (score - s.score as i32 * DISC).abs();
        }
        let mean = error / unseen.len() as i32;
        assert!(mean < DISC / 2, "off by {mean} centi-discs on average");
    }
}

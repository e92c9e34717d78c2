//! A share of a batch run: shard K of N does the indices i with i mod N = K, so that N shards
//! together do exactly what one unsharded run does, each on its own machine: self-play games
//! (`train gen`), the games of a match (`match`) and the subtrees of a book (`book build`).

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards share the run.
    pub count: u64,
}

/// Why a shard could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadShard(String);

impl fmt::Display for BadShard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadShard {}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether index `i` of the run is this shard's.
    pub fn owns(&self, i: u64) -> bool {
        i % self.count == self.index
    }

    /// The shard a scheduler gave this process: Slurm's job array (`SLURM_ARRAY_TASK_ID` of
    /// `SLURM_ARRAY_TASK_COUNT`, ids counted from `SLURM_ARRAY_TASK_MIN`), or a Kubernetes indexed
    /// Job (`JOB_COMPLETION_INDEX`, with the count in `OTHEL_SHARD_COUNT`).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard, BadShard> {
        let number = |name: &str| -> Result<Option<u64>, BadShard> {
            match var(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| BadShard(format!("{name}={v} is not a number"))),
            }
        };
        if let (Some(id), Some(count)) = (
            number("SLURM_ARRAY_TASK_ID")?,
            number("SLURM_ARRAY_TASK_COUNT")?,
        ) {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            return Shard::new(id.saturating_sub(min), count);
        }
        if let Some(id) = number("JOB_COMPLETION_INDEX")? {
            let count = number("OTHEL_SHARD_COUNT")?.ok_or_else(|| {
                BadShard("JOB_COMPLETION_INDEX is set but OTHEL_SHARD_COUNT is not".into())
            })?;
            return Shard::new(id, count);
        }
        Err(BadShard(
            "--shard auto: neither SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT nor JOB_COMPLETION_INDEX is set"
                .into(),
        ))
    }

    fn new(index: u64, count: u64) -> Result<Shard, BadShard> {
        if count == 0 || index >= count {
            return Err(BadShard(format!("shard {index}/{count}: needs 0 <= K < N")));
        }
        Ok(Shard { index, count })
    }
}

impl FromStr for Shard {
    type Err = BadShard;
    /// `K/N`, or `auto` for the scheduler's environment.
    fn from_str(s: &str) -> Result<Shard, BadShard> {
        if s.eq_ignore_ascii_case("auto") {
            return Shard::from_env(|name| std::env::var(name).ok());
        }
        let bad = || BadShard(format!("shard '{s}' is not K/N or auto"));
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_disjoint_and_complete() {
        for n in 1..6u64 {
            let shards: Vec<Shard> = (0..n)
                .map(|k| format!("{k}/{n}").parse().unwrap())
                .collect();
            for i in 0..100 {
                assert_eq!(shards.iter().filter(|s| s.owns(i)).count(), 1);
            }
        }
    }

    #[test]
    fn bad_shards_are_refused() {
        for bad in ["", "1", "3/3", "-1/3", "1/0", "a/b", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn schedulers_give_the_shard() {
        fn env(pairs: &[(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
            let pairs = pairs.to_vec();
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        }
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
        ];
        assert_eq!(
            Shard::from_env(env(&slurm)),
            Ok(Shard { index: 2, count: 4 })
        );
        let k8s = [("JOB_COMPLETION_INDEX", "1"), ("OTHEL_SHARD_COUNT", "3")];
        assert_eq!(Shard::from_env(env(&k8s)), Ok(Shard { index: 1, count: 3 }));
        assert!(Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "1")])).is_err());
        assert!(Shard::from_env(env(&[])).is_err());
    }
}

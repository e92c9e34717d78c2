//! The engine thinking in the background for `othel play`: one search at a time on a thread of
//! its own, so that the screen keeps answering; a key can stop it (a hint then shows what the
//! search had found) or cancel it (its answer is dropped). With pondering, it thinks on the
//! human's time about the reply it predicted.

use crate::protocol::session::Session;
use crate::rules::Move;
use crate::search::{Limits, PonderHit, Report, Searcher};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;

/// Why the engine thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To play its move.
    Move,
    /// To advise the human.
    Hint,
    /// To play its move after the reply it predicts, while the human thinks: its move once the
    /// human plays that reply.
    Ponder(Move),
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Thought {
    /// Why it was asked for.
    pub purpose: Purpose,
    /// The best move (none when the game is over).
    pub best: Option<Move>,
    /// Its score in centi-discs, side to move's view.
    pub score: i32,
    /// Whether the score is exact.
    pub exact: bool,
    /// The depth reached.
    pub depth: u32,
    /// Each move's score from the deepest iteration that scored it (with multipv), best first.
    pub scores: Vec<(Move, i32)>,
    /// The reply the search expects.
    pub ponder: Option<Move>,
}

struct Job {
    purpose: Purpose,
    /// What a pondering search waits for.
    hit: Option<Arc<PonderHit>>,
    stop: Arc<AtomicBool>,
    answer: Receiver<Thought>,
    handle: JoinHandle<()>,
}

/// One background search at a time.
pub struct Thinker {
    searcher: Arc<Searcher>,
    job: Option<Job>,
}

impl Thinker {
    /// A thinker searching with `searcher`.
    pub fn new(searcher: Searcher) -> Thinker {
        Thinker {
            searcher: Arc::new(searcher),
            job: None,
        }
    }

    /// Starts searching `session`'s position (a search under way is cancelled first).
    pub fn start(&mut self, session: Box<dyn Session>, limits: Limits, purpose: Purpose) {
        self.spawn(session, limits, purpose, None);
    }

    /// Starts pondering `session`'s position, the one after the human's `predicted` reply: its
    /// clock (`limits`) starts at [`Thinker::ponder_hit`].
    pub fn ponder(&mut self, session: Box<dyn Session>, limits: Limits, predicted: Move) {
        let hit = Arc::new(PonderHit::new());
        self.spawn(session, limits, Purpose::Ponder(predicted), Some(hit));
    }

    /// The reply the search under way ponders on, if it ponders.
    pub fn pondering(&self) -> Option<Move> {
        match self.busy() {
            Some(Purpose::Ponder(predicted)) => Some(predicted),
            _ => None,
        }
    }

    /// The predicted reply was played: the pondering search becomes the engine's move search,
    /// its clock running from now.
    pub fn ponder_hit(&mut self) {
        if let Some(job) = &mut self.job
            && let (Purpose::Ponder(_), Some(hit)) = (job.purpose, &job.hit)
        {
            hit.hit();
            job.purpose = Purpose::Move;
        }
    }

    fn spawn(
        &mut self,
        session: Box<dyn Session>,
        limits: Limits,
        purpose: Purpose,
        hit: Option<Arc<PonderHit>>,
    ) {
        self.cancel();
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, answer) = mpsc::channel();
        let searcher = Arc::clone(&self.searcher);
        let flag = Arc::clone(&stop);
        let waits_for = hit.clone();
        let handle = std::thread::spawn(move || {
            let mut lines: HashMap<Move, (u32, i32)> = HashMap::new();
            let mut on_report = |r: &Report| {
                if let Some(&mv) = r.pv.first() {
                    let deeper = lines.get(&mv).is_none_or(|&(d, _)| r.depth >= d);
                    if deeper {
                        lines.insert(mv, (r.depth, r.score));
                    }
                }
            };
            // The search's clock starts once the weights are decoded, as the protocol's does.
            crate::protocol::ready_before_clock(session.as_ref(), &searcher);
            let hit = waits_for.as_deref();
            let result = session.search_or_ponder(&searcher, &limits, &flag, hit, &mut on_report);
            let mut scores: Vec<(Move, i32)> =
                lines.into_iter().map(|(m, (_, s))| (m, s)).collect();
            scores.sort_by_key(|&(m, s)| (-s, m));
            let _ = tx.send(Thought {
                purpose,
                best: result.best,
                score: result.score,
                exact: matches!(result.precision, crate::search::Precision::Exact),
                depth: result.depth,
                scores,
                ponder: result.ponder,
            });
        });
        self.job = Some(Job {
            purpose,
            hit,
            stop,
            answer,
            handle,
        });
    }

    /// What the search under way is for, if one is.
    pub fn busy(&self) -> Option<Purpose> {
        self.job.as_ref().map(|j| j.purpose)
    }

    /// The answer, once the search has finished.
    pub fn poll(&mut self) -> Option<Thought> {
        let job = self.job.as_ref()?;
        match job.answer.try_recv() {
            Ok(thought) => {
                self.finish();
                Some(thought)
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                // The search thread ended without an answer (it panicked): nothing to show.
                self.finish();
                None
            }
        }
    }

    /// Waits for the answer.
    pub fn wait(&mut self) -> Option<Thought> {
        let job = self.job.as_ref()?;
        let thought = job.answer.recv().ok();
        self.finish();
        thought
    }

    /// Asks the search to stop now and answer with what it has.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the search and drops its answer.
    pub fn cancel(&mut self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
        }
        self.finish();
    }

    fn finish(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
            let _ = job.handle.join();
        }
    }
}

impl Drop for Thinker {
    fn drop(&mut self) {
        self.cancel();
    }
}

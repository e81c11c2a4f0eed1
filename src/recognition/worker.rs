//! InChI conversions in worker processes: the InChI library is not
//! thread-safe and can crash or loop on malformed input, so each conversion
//! runs in a `clefeval inchi-worker` child process.
//!
//! Protocol (one line each way, UTF-8): the parent writes a MOL text as a
//! JSON string literal, or a SMILES as `{"smiles":"…"}`, and a newline; the
//! worker answers one line, the JSON of a [`Conversion`]
//! (`{"Ok":{"inchi":..,"warning":..}}` or `{"Err":"reason"}`). The worker
//! exits at the end of its input.
//!
//! The [`Pool`] keeps up to `jobs` workers busy, each with up to two
//! requests in flight (answers come in request order). A worker that dies
//! or does not answer within the timeout is killed; only its structure gets
//! the reason, a request queued behind it is sent again, and the next
//! structure starts a fresh worker. Results come back in input order
//! whatever the number of workers.

use super::inchi::{self, Conversion};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The hidden subcommand that starts a worker.
pub const WORKER_SUBCOMMAND: &str = "inchi-worker";

/// How to start one worker process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

impl WorkerCommand {
    /// `<binary> inchi-worker`, for a given `clefeval` binary (tests and
    /// benches pass `env!("CARGO_BIN_EXE_clefeval")`).
    pub fn clefeval(binary: impl Into<PathBuf>) -> Self {
        WorkerCommand {
            program: binary.into(),
            args: vec![WORKER_SUBCOMMAND.into()],
        }
    }

    /// Workers started from the running executable (the `clefeval` binary).
    pub fn current_exe() -> io::Result<Self> {
        Ok(Self::clefeval(std::env::current_exe()?))
    }
}

/// The worker's main loop: answers every request line of `input` on
/// `output` until the input ends.
pub fn serve(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let conversion = match serde_json::from_str::<Input>(&line) {
            Ok(input) => convert(&input),
            Err(e) => Err(format!("bad request to the InChI worker: {e}")),
        };
        let reply = serde_json::to_string(&conversion).map_err(io::Error::other)?;
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
}

/// The conversion of one structure in this process (what a worker does;
/// the InChI library is not thread-safe: callers keep calls apart).
pub fn convert(input: &Input) -> Conversion {
    match input {
        Input::Mol(text) => inchi::convert(text),
        Input::Smiles { smiles } => super::smiles::convert(smiles),
    }
}

/// One structure to convert: a MOL text, or a SMILES.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Input {
    Mol(String),
    Smiles { smiles: String },
}

/// What the pool converts: a MOL text as a plain string, or an [`Input`].
pub trait Convertible: Sync {
    /// The request line, newline included.
    fn request(&self) -> String;
}

impl Convertible for String {
    fn request(&self) -> String {
        line(&self.as_str())
    }
}

impl Convertible for Input {
    fn request(&self) -> String {
        line(self)
    }
}

/// `value` as one JSON line (serializing a string or [`Input`] cannot fail).
fn line(value: &impl serde::Serialize) -> String {
    let mut line = serde_json::to_string(value).unwrap_or_default();
    line.push('\n');
    line
}

/// A pool of worker processes.
#[derive(Clone, Debug)]
pub struct Pool {
    pub command: WorkerCommand,
    /// Number of worker processes (at least 1).
    pub jobs: usize,
    /// Longest wait for the answer about one structure.
    pub timeout: Duration,
}

impl Pool {
    /// Converts every text, in input order. `progress` is called once per
    /// finished structure. `Err` only when no worker process can be started.
    pub fn convert_all<T: Convertible>(
        &self,
        texts: &[T],
        progress: &(dyn Fn() + Sync),
    ) -> io::Result<Vec<Conversion>> {
        let next = AtomicUsize::new(0);
        let managers = self.jobs.clamp(1, texts.len().max(1));
        let finished: Vec<io::Result<Vec<(usize, Conversion)>>> = thread::scope(|scope| {
            let handles: Vec<_> = (0..managers)
                .map(|_| scope.spawn(|| self.drain(texts, &next, progress)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(io::Error::other("a worker manager panicked")))
                })
                .collect()
        });
        let mut results: Vec<Option<Conversion>> = vec![None; texts.len()];
        for batch in finished {
            for (index, conversion) in batch? {
                if let Some(slot) = results.get_mut(index) {
                    *slot = Some(conversion);
                }
            }
        }
        Ok(results
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err("not converted".into())))
            .collect())
    }

    /// One manager thread: takes the next structure until none is left,
    /// keeping one worker alive and replacing it after a failure. Up to
    /// [`PIPELINE`] requests are in flight, so the worker never waits for
    /// the parent; a request behind a failed one is sent again to the next
    /// worker, since the failure was not its own.
    fn drain<T: Convertible>(
        &self,
        texts: &[T],
        next: &AtomicUsize,
        progress: &(dyn Fn() + Sync),
    ) -> io::Result<Vec<(usize, Conversion)>> {
        let mut worker: Option<Worker> = None;
        let mut done = Vec::new();
        let mut in_flight: VecDeque<usize> = VecDeque::new();
        let mut again: VecDeque<usize> = VecDeque::new();
        let mut pending: Option<(usize, String)> = None;
        // When the worker started on the oldest request in flight.
        let mut started = Instant::now();
        loop {
            while in_flight.len() < PIPELINE {
                if pending.is_none() {
                    let index = again
                        .pop_front()
                        .unwrap_or_else(|| next.fetch_add(1, Ordering::Relaxed));
                    let Some(text) = texts.get(index) else { break };
                    pending = Some((index, text.request()));
                }
                let Some((index, line)) = pending.take() else {
                    break;
                };
                // A long request could block while the worker is busy (and
                // perhaps hung), so it waits until the worker is idle.
                if !in_flight.is_empty() && line.len() > SMALL_REQUEST {
                    pending = Some((index, line));
                    break;
                }
                let current = match worker.as_mut() {
                    Some(w) => w,
                    None => worker.insert(Worker::spawn(&self.command)?),
                };
                if in_flight.is_empty() {
                    started = Instant::now();
                }
                in_flight.push_back(index);
                if current.send(&line).is_err() {
                    break; // the answer wait below reports the dead worker
                }
            }
            let (Some(&index), Some(current)) = (in_flight.front(), worker.as_mut()) else {
                break;
            };
            let conversion = match current.receive(started.checked_add(self.timeout)) {
                Ok(conversion) => conversion,
                Err(failure) => {
                    let status = worker.take().and_then(|mut w| w.stop());
                    again.extend(in_flight.drain(1..));
                    Err(failure.reason(self.timeout, status))
                }
            };
            in_flight.pop_front();
            started = Instant::now();
            done.push((index, conversion));
            progress();
        }
        Ok(done)
    }
}

/// Requests in flight per worker.
const PIPELINE: usize = 2;

/// Requests up to this size (well under a pipe buffer) are sent while the
/// worker is still busy with the previous one.
const SMALL_REQUEST: usize = 16 * 1024;

/// Why a worker gave no answer.
enum Failure {
    Died,
    TimedOut,
    Garbled(String),
}

impl Failure {
    fn reason(&self, timeout: Duration, status: Option<std::process::ExitStatus>) -> String {
        match self {
            Failure::Died => match status {
                Some(status) => format!("the InChI worker died on this structure ({status})"),
                None => "the InChI worker died on this structure".into(),
            },
            Failure::TimedOut => format!(
                "the InChI library took longer than the {} s timeout; its worker was stopped",
                timeout.as_secs_f64()
            ),
            Failure::Garbled(line) => format!(
                "the InChI worker answered something unreadable: {}",
                quoted_start(line, QUOTED_CHARS)
            ),
        }
    }
}

/// Characters of an unreadable reply quoted in its reason at most.
const QUOTED_CHARS: usize = 80;

/// `text` quoted (as Rust debug-formats a string); past `max` characters,
/// cut after the last whole word within them (within them anyway when a
/// word is longer), with "… (N characters)" saying that it was cut.
fn quoted_start(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(max).collect();
    let cut = match head.rfind(char::is_whitespace) {
        Some(i) if i > 0 => head[..i].trim_end(),
        _ => head.as_str(),
    };
    format!("{cut:?}… ({total} characters)")
}

/// One running worker process; stopped (killed and reaped) when dropped.
struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<String>,
}

impl Worker {
    fn spawn(command: &WorkerCommand) -> io::Result<Worker> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!(
                        "cannot start the InChI worker {}: {e}",
                        command.program.display()
                    ),
                )
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("the InChI worker has no pipes"));
        };
        let (sender, replies) = mpsc::channel();
        // The reader ends when the pipe closes; it is not joined, since a
        // grandchild of a killed worker may hold the pipe open a while.
        thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match stdout.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Worker {
            child,
            stdin: Some(stdin),
            replies,
        })
    }

    /// Writes one request line.
    fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::other("closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.flush()
    }

    /// The answer to the oldest request, if it comes before `deadline`
    /// (`None`: a deadline beyond what the clock can express).
    fn receive(&mut self, deadline: Option<Instant>) -> Result<Conversion, Failure> {
        let reply = match deadline {
            Some(d) => self
                .replies
                .recv_timeout(d.saturating_duration_since(Instant::now())),
            None => self
                .replies
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match reply {
            Ok(line) => serde_json::from_str(&line).map_err(|_| Failure::Garbled(line)),
            Err(RecvTimeoutError::Timeout) => Err(Failure::TimedOut),
            Err(RecvTimeoutError::Disconnected) => Err(Failure::Died),
        }
    }

    /// Kills the process (if still running) and reaps it; its exit status.
    fn stop(&mut self) -> Option<std::process::ExitStatus> {
        self.stdin = None;
        let _ = self.child.kill();
        self.child.wait().ok()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod quoting_tests {
    use super::quoted_start;

    #[test]
    fn a_long_reply_is_cut_between_words_and_says_so() {
        assert_eq!(quoted_start("short reply", 80), "\"short reply\"");
        assert_eq!(
            quoted_start("alpha beta gamma", 13),
            "\"alpha beta\"… (16 characters)"
        );
        // One word longer than the limit: cut inside it all the same.
        assert_eq!(quoted_start("abcdefghij", 4), "\"abcd\"… (10 characters)");
        // Characters, not bytes.
        assert_eq!(quoted_start("éé éé éé", 6), "\"éé éé\"… (8 characters)");
    }
}

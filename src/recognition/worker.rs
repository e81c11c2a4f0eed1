//! InChI conversions in worker processes: the InChI library is not
//! thread-safe and can crash or loop on malformed input, so each conversion
//! runs in a `clefeval inchi-worker` child process.
//!
//! Protocol (one line each way, UTF-8): the parent writes the MOL text as a
//! JSON string literal and a newline; the worker answers one line, the JSON
//! of a [`Conversion`] (`{"Ok":{"inchi":..,"warning":..}}` or
//! `{"Err":"reason"}`). The worker exits at the end of its input.
//!
//! The [`Pool`] keeps up to `jobs` workers busy. A worker that dies or does
//! not answer within the timeout is killed; only its structure gets the
//! reason, and the next structure starts a fresh worker. Results come back
//! in input order whatever the number of workers.

use super::inchi::{self, Conversion};
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

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
        let conversion = match serde_json::from_str::<String>(&line) {
            Ok(text) => inchi::convert(&text),
            Err(e) => Err(format!("bad request to the InChI worker: {e}")),
        };
        let reply = serde_json::to_string(&conversion).map_err(io::Error::other)?;
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
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
    pub fn convert_all(
        &self,
        texts: &[String],
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
    /// keeping one worker alive and replacing it after a failure.
    fn drain(
        &self,
        texts: &[String],
        next: &AtomicUsize,
        progress: &(dyn Fn() + Sync),
    ) -> io::Result<Vec<(usize, Conversion)>> {
        let mut worker: Option<Worker> = None;
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(text) = texts.get(index) else { break };
            let current = match worker.as_mut() {
                Some(w) => w,
                None => worker.insert(Worker::spawn(&self.command)?),
            };
            let conversion = match current.convert(text, self.timeout) {
                Ok(conversion) => conversion,
                Err(failure) => {
                    let status = worker.take().and_then(|mut w| w.stop());
                    Err(failure.reason(self.timeout, status))
                }
            };
            done.push((index, conversion));
            progress();
        }
        Ok(done)
    }
}

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
                "the InChI worker answered something unreadable: {:?}",
                line.chars().take(80).collect::<String>()
            ),
        }
    }
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

    fn convert(&mut self, text: &str, timeout: Duration) -> Result<Conversion, Failure> {
        let mut request =
            serde_json::to_string(text).map_err(|e| Failure::Garbled(e.to_string()))?;
        request.push('\n');
        let stdin = self.stdin.as_mut().ok_or(Failure::Died)?;
        if stdin
            .write_all(request.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return Err(Failure::Died);
        }
        match self.replies.recv_timeout(timeout) {
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

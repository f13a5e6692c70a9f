//! The headless scenario runner (scenario-format.md, "The runner"): `run` plays a scenario file
//! on the simulation core and prints the result document on stdout, with the event trace as JSON
//! Lines on stderr when asked; `sweep` plays it at every phase of a beat; `compare` plays two runs
//! (or one and a what-if change) and says where they part. [`USAGE`] is the whole interface.
//!
//! Exit status: 0 when the scenario ran, whatever its requests' outcomes (`apply`: when it printed
//! the changed scenario); 3 (`compare` only) when
//! some request was answered differently in the two runs; 2 when a file is not a valid scenario
//! (one line on stderr, nothing on stdout), cannot be read, or the command line is wrong; 1 when
//! writing the output failed.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use purgatory_playground::kafka::trace::TraceHash;
use purgatory_playground::scenario::budget;
use purgatory_playground::scenario::result::RunResult;
use purgatory_playground::scenario::{Change, Scenario, MAX_SCENARIO_BYTES};
use purgatory_playground::sim::action::BrokerId;
use purgatory_playground::sweep::Beat;

const USAGE: &str = "\
Usage: purgatory run SCENARIO.json [--trace] [--trace-hash]
       purgatory sweep SCENARIO.json [--phase isr_check|heartbeat] [--broker B] [--json]
       purgatory compare SCENARIO.json [OTHER.json | --change CHANGE] [--json]
       purgatory apply SCENARIO.json [--change CHANGE]
       purgatory --help

Plays a scenario file on the simulation core and prints the result as JSON on stdout.
  --trace       also write the event trace to stderr, one JSON object per line
  --trace-hash  then write `trace-hash HEX` to stderr: FNV-1a 64 of the trace's JSON Lines, the
                hash the page shows, to check two runs are the same

`sweep` runs the scenario at every phase of one beat (the ISR check by default; every broker's,
or broker B's alone) and prints, per produce request, each distinct outcome with the exact phases
where it happens, their share, and its answer times (scenario-format.md, \"Phases\").

`compare` runs two scenarios, or one and the same with one change (`--change acks=1`,
`min.insync.replicas=2`, `actions[2].at_ms=12000`, `actions[2]=removed`...; without either, the
scenario's own `compare` field), and prints the first instant where their traces part and what
every request got in each (docs/scenario-format.md, \"Compare\").

`apply` prints the scenario a what-if plays as its second run: the file with the change applied
(without --change, its own `compare` field), without its story, as a scenario file to run, sweep
or replay on its own.

Exit status: 0 the scenario ran (compare: every request got the same answer in both runs;
apply: the changed scenario was printed);
3 (compare only) some request was answered differently; 2 a file is not a valid scenario, cannot
be read, or the command line is wrong; 1 the output could not be written.";

const EXIT_INVALID: u8 = 2;
const EXIT_OUTPUT_FAILED: u8 = 1;
const EXIT_ANSWERS_DIFFER: u8 = 3;

#[derive(Debug, PartialEq, Eq)]
enum Command {
    Help,
    Run {
        file: PathBuf,
        trace: bool,
        trace_hash: bool,
    },
    Sweep {
        file: PathBuf,
        beat: Beat,
        broker: Option<u32>,
        json: bool,
    },
    Compare {
        file: PathBuf,
        other: Option<PathBuf>,
        change: Option<String>,
        json: bool,
    },
    Apply {
        file: PathBuf,
        change: Option<String>,
    },
}

fn main() -> ExitCode {
    match parse_args(std::env::args_os().skip(1)) {
        Ok(Command::Help) => {
            // Nothing useful is left to do if stdout is gone, so a failed write is not reported.
            let _ = writeln!(io::stdout().lock(), "{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Command::Run {
            file,
            trace,
            trace_hash,
        }) => run(&file, trace, trace_hash),
        Ok(Command::Sweep {
            file,
            beat,
            broker,
            json,
        }) => sweep(&file, beat, broker, json),
        Ok(Command::Compare {
            file,
            other,
            change,
            json,
        }) => compare(&file, other.as_deref(), change.as_deref(), json),
        Ok(Command::Apply { file, change }) => apply(&file, change.as_deref()),
        Err(problem) => {
            say(&format!("purgatory: {problem}\n\n{USAGE}"));
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// One line (or the usage text) on stderr. `eprintln!` would panic if stderr were closed.
fn say(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

fn parse_args(args: impl Iterator<Item = OsString>) -> Result<Command, String> {
    let args: Vec<OsString> = args.collect();
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        return Ok(Command::Help);
    }
    let Some((command, rest)) = args.split_first() else {
        return Err("missing command".to_string());
    };
    match command.to_string_lossy().as_ref() {
        "run" => parse_run_args(rest),
        "sweep" => parse_sweep_args(rest),
        "compare" => parse_compare_args(rest, "compare"),
        "apply" => match parse_compare_args(rest, "apply")? {
            Command::Compare { json: true, .. } => {
                Err("unknown option `--json`: apply prints a scenario file".to_string())
            }
            // One file at most: parse_compare_args refuses a second for apply.
            Command::Compare { file, change, .. } => Ok(Command::Apply { file, change }),
            _ => Err("apply takes one scenario file".to_string()),
        },
        "help" => Ok(Command::Help),
        other => Err(format!("unknown command `{other}`")),
    }
}

fn parse_run_args(args: &[OsString]) -> Result<Command, String> {
    let mut file: Option<PathBuf> = None;
    let mut trace = false;
    let mut trace_hash = false;
    let mut options_ended = false;
    for arg in args {
        let text = arg.to_string_lossy();
        if !options_ended && text == "--trace" {
            trace = true;
        } else if !options_ended && text == "--trace-hash" {
            trace_hash = true;
        } else if !options_ended && text == "--" {
            options_ended = true;
        } else if !options_ended && text.starts_with('-') && text.len() > 1 {
            return Err(format!("unknown option `{text}`"));
        } else if file.is_none() {
            file = Some(PathBuf::from(arg));
        } else {
            return Err(format!(
                "unexpected argument `{text}`: run takes one scenario file"
            ));
        }
    }
    match file {
        Some(file) => Ok(Command::Run {
            file,
            trace,
            trace_hash,
        }),
        None => Err("`run` needs a scenario file".to_string()),
    }
}

fn parse_sweep_args(args: &[OsString]) -> Result<Command, String> {
    let mut file: Option<PathBuf> = None;
    let mut beat = Beat::IsrCheck;
    let mut broker = None;
    let mut json = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        match text.as_ref() {
            "--json" => json = true,
            "--phase" => {
                let value = args.next().map(|v| v.to_string_lossy().into_owned());
                beat = match value.as_deref() {
                    Some("isr_check") => Beat::IsrCheck,
                    Some("heartbeat") => Beat::Heartbeat,
                    other => {
                        return Err(format!(
                            "--phase takes isr_check or heartbeat, not {}",
                            other.map_or("nothing".to_string(), |v| format!("`{v}`"))
                        ))
                    }
                };
            }
            "--broker" => {
                let value = args.next().map(|v| v.to_string_lossy().into_owned());
                broker = Some(
                    value
                        .as_deref()
                        .and_then(|v| v.parse::<u32>().ok())
                        .ok_or_else(|| "--broker takes a broker number".to_string())?,
                );
            }
            t if t.starts_with('-') && t.len() > 1 => return Err(format!("unknown option `{t}`")),
            _ if file.is_none() => file = Some(PathBuf::from(arg)),
            _ => {
                return Err(format!(
                    "unexpected argument `{text}`: sweep takes one scenario file"
                ))
            }
        }
    }
    let file = file.ok_or_else(|| "`sweep` needs a scenario file".to_string())?;
    Ok(Command::Sweep {
        file,
        beat,
        broker,
        json,
    })
}

fn sweep(file: &Path, beat: Beat, broker: Option<u32>, json: bool) -> ExitCode {
    let (scenario, _) = match load(file, false) {
        Ok(loaded) => loaded,
        Err(line) => {
            say(&line);
            return ExitCode::from(EXIT_INVALID);
        }
    };
    if let Some(b) = broker.filter(|&b| b >= scenario.config.brokers) {
        say(&format!(
            "purgatory: --broker {b}: the scenario has brokers 0 to {}",
            scenario.config.brokers - 1
        ));
        return ExitCode::from(EXIT_INVALID);
    }
    let result = purgatory_playground::sweep::sweep(&scenario, beat, broker.map(BrokerId));
    let text = if json {
        serde_json::to_string_pretty(&result)
            .map(|t| t + "\n")
            .unwrap_or_default()
    } else {
        result.to_text()
    };
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            say(&format!("purgatory: {}: {error}", file.display()));
            ExitCode::from(EXIT_OUTPUT_FAILED)
        }
    }
}

/// `compare`'s arguments, and `apply`'s (`command` names which in the errors).
fn parse_compare_args(args: &[OsString], command: &str) -> Result<Command, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut change = None;
    let mut json = false;
    // `apply` prints one scenario: the file's, changed.
    let most = if command == "apply" { 1 } else { 2 };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        match text.as_ref() {
            "--json" => json = true,
            "--change" => {
                let value = args.next().map(|v| v.to_string_lossy().into_owned());
                change = Some(value.ok_or("--change takes a change, such as acks=1")?);
            }
            t if t.starts_with('-') && t.len() > 1 => return Err(format!("unknown option `{t}`")),
            _ if files.len() < most => files.push(PathBuf::from(arg)),
            _ if most == 1 => return Err(format!("{command} takes one scenario file")),
            _ => {
                return Err(format!(
                    "unexpected argument `{text}`: {command} takes one or two scenario files"
                ))
            }
        }
    }
    let mut files = files.into_iter();
    let file = files
        .next()
        .ok_or(format!("`{command}` needs a scenario file"))?;
    let other = files.next();
    if other.is_some() && change.is_some() {
        return Err("compare takes a second file or --change, not both".to_string());
    }
    Ok(Command::Compare {
        file,
        other,
        change,
        json,
    })
}

fn compare(file: &Path, other: Option<&Path>, change: Option<&str>, json: bool) -> ExitCode {
    let loaded = load(file, true).and_then(|(a, _)| {
        let b = match other {
            Some(other) => Some(load(other, true)?.0),
            None => None,
        };
        Ok((a, b))
    });
    let (a, b) = match loaded {
        Ok(loaded) => loaded,
        Err(line) => {
            say(&line);
            return ExitCode::from(EXIT_INVALID);
        }
    };
    let compared = match (b, change) {
        (Some(b), _) => purgatory_playground::compare::compare(&a, &b, None)
            .map_err(|e| format!("purgatory: {e}")),
        (None, change) => what_if_change(file, &a, change).and_then(|change| {
            purgatory_playground::compare::what_if(&a, &change)
                .map(|(_, comparison)| comparison)
                .map_err(|e| format!("purgatory: {}: {e}", file.display()))
        }),
    };
    let comparison = match compared {
        Ok(comparison) => comparison,
        Err(line) => {
            say(&line);
            return ExitCode::from(EXIT_INVALID);
        }
    };
    let text = if json {
        serde_json::to_string_pretty(&comparison)
            .map(|t| t + "\n")
            .unwrap_or_default()
    } else {
        comparison.to_text()
    };
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) if comparison.outcomes_differ() => ExitCode::from(EXIT_ANSWERS_DIFFER),
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            say(&format!("purgatory: {}: {error}", file.display()));
            ExitCode::from(EXIT_OUTPUT_FAILED)
        }
    }
}

/// The change a what-if plays: `--change`'s, else the scenario's own `compare` field.
fn what_if_change(file: &Path, scenario: &Scenario, text: Option<&str>) -> Result<Change, String> {
    match text {
        Some(text) => Change::parse(text).map_err(|e| format!("purgatory: --change: {e}")),
        None => scenario.compare.clone().ok_or_else(|| {
            format!(
                "purgatory: {}: the scenario has no `compare` field: give --change (or, to \
                 compare, a second file)",
                file.display()
            )
        }),
    }
}

/// `apply`: the what-if's second run as a scenario file, on stdout.
fn apply(file: &Path, change: Option<&str>) -> ExitCode {
    let applied = read(file).and_then(|scenario| {
        let change = what_if_change(file, &scenario, change)?;
        change
            .apply(&scenario)
            .map_err(|e| format!("purgatory: {}: {e}", file.display()))
    });
    match applied {
        Ok(other) => match writeln!(io::stdout().lock(), "{}", other.to_json()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                say(&format!("purgatory: {}: {error}", file.display()));
                ExitCode::from(EXIT_OUTPUT_FAILED)
            }
        },
        Err(line) => {
            say(&line);
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// Where the trace goes: stderr when it is printed, and the hash when it is asked for.
struct TraceSink<W> {
    out: Option<W>,
    hash: TraceHash,
}

impl<W: Write> Write for TraceSink<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = match self.out.as_mut() {
            Some(out) => out.write(bytes)?,
            None => bytes.len(),
        };
        self.hash.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().map_or(Ok(()), |out| out.flush())
    }
}

fn run(file: &Path, trace: bool, trace_hash: bool) -> ExitCode {
    let traced = trace || trace_hash;
    let (scenario, admission) = match load(file, traced) {
        Ok(loaded) => loaded,
        Err(line) => {
            say(&line);
            return ExitCode::from(EXIT_INVALID);
        }
    };
    if admission == budget::Admission::IdleTail {
        return run_idle_tail(file, &scenario);
    }
    let outcome = if traced {
        let mut sink = TraceSink {
            out: trace.then(|| BufWriter::new(io::stderr().lock())),
            hash: TraceHash::default(),
        };
        let outcome = purgatory_playground::scenario::run_scenario(&scenario, Some(&mut sink));
        let flushed = sink.flush();
        let hash = sink.hash;
        drop(sink);
        if trace_hash && outcome.is_ok() {
            say(&format!("trace-hash {}", hash.hex()));
        }
        outcome.and_then(|result| flushed.map(|()| result))
    } else {
        purgatory_playground::scenario::run_scenario(&scenario, None)
    };
    let written = outcome.and_then(|result| print_result(&result));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            say(&format!("purgatory: {}: {error}", file.display()));
            ExitCode::from(EXIT_OUTPUT_FAILED)
        }
    }
}

/// An untraced run admitted only because its idle stretches are skipped: stopped, with one line,
/// if it costs more than the budget after all.
fn run_idle_tail(file: &Path, scenario: &Scenario) -> ExitCode {
    let limit = budget::WORK_BUDGET;
    let outcome = purgatory_playground::scenario::play_scenario_within(scenario, None, limit);
    let written = match outcome {
        Ok(Some(sim)) => print_result(&sim.result(&scenario.name, scenario.run_until_ms)),
        Ok(None) => {
            let longest = budget::estimate(scenario)
                .longest_run_ms(limit)
                .map_or(String::new(), |ms| {
                    format!(": run_until_ms may be at most {ms}")
                });
            say(&format!(
                "{}: run_until_ms: the cluster did not settle into idle fetching after the last \
                 action as expected, and the run went past the work budget of {limit} units \
                 (README, \"Work budget\"){longest}",
                file.display()
            ));
            return ExitCode::from(EXIT_INVALID);
        }
        Err(error) => Err(error),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            say(&format!("purgatory: {}: {error}", file.display()));
            ExitCode::from(EXIT_OUTPUT_FAILED)
        }
    }
}

/// Reads and validates the file, and admits it on the work budget (see [`budget`]); any failure
/// is the one line to print, naming the file.
fn load(file: &Path, traced: bool) -> Result<(Scenario, budget::Admission), String> {
    let scenario = read(file)?;
    let admission = if traced {
        budget::check(&scenario).map(|()| budget::Admission::Estimated)
    } else {
        budget::check_untraced(&scenario)
    };
    let admission = admission.map_err(|error| format!("{}: {error}", file.display()))?;
    Ok((scenario, admission))
}

/// Reads and validates the file (a scenario not to be played needs no admission).
fn read(file: &Path) -> Result<Scenario, String> {
    let shown = file.display();
    if let Ok(metadata) = std::fs::metadata(file) {
        if metadata.is_file() && metadata.len() > MAX_SCENARIO_BYTES as u64 {
            return Err(format!(
                "{shown}: the file is {} bytes long; a scenario may be at most {MAX_SCENARIO_BYTES}",
                metadata.len()
            ));
        }
    }
    let bytes = std::fs::read(file).map_err(|error| format!("{shown}: cannot read: {error}"))?;
    let text = String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        format!("{shown}: not UTF-8 text (invalid byte at offset {at})")
    })?;
    Scenario::from_json(&text).map_err(|error| format!("{shown}: {error}"))
}

fn print_result(result: &RunResult) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(result.to_json().as_bytes())?;
    stdout.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, String> {
        parse_args(args.iter().map(OsString::from))
    }

    #[test]
    fn run_takes_one_file_and_an_optional_trace_flag_in_any_order() {
        let expected = Command::Run {
            file: PathBuf::from("x.json"),
            trace: true,
            trace_hash: false,
        };
        assert_eq!(parse(&["run", "x.json", "--trace"]), Ok(expected));
        let expected = Command::Run {
            file: PathBuf::from("x.json"),
            trace: true,
            trace_hash: true,
        };
        assert_eq!(
            parse(&["run", "--trace-hash", "--trace", "x.json"]),
            Ok(expected)
        );
        let expected = Command::Run {
            file: PathBuf::from("-odd.json"),
            trace: false,
            trace_hash: false,
        };
        assert_eq!(parse(&["run", "--", "-odd.json"]), Ok(expected));
    }

    #[test]
    fn help_wins_and_mistakes_are_named() {
        assert_eq!(parse(&["--help"]), Ok(Command::Help));
        assert_eq!(parse(&["run", "x.json", "-h"]), Ok(Command::Help));
        assert_eq!(parse(&[]), Err("missing command".to_string()));
        assert_eq!(parse(&["play"]), Err("unknown command `play`".to_string()));
        assert_eq!(
            parse(&["run"]),
            Err("`run` needs a scenario file".to_string())
        );
        assert_eq!(
            parse(&["run", "x.json", "--verbose"]),
            Err("unknown option `--verbose`".to_string())
        );
        assert_eq!(
            parse(&["run", "x.json", "y.json"]),
            Err("unexpected argument `y.json`: run takes one scenario file".to_string())
        );
    }

    #[test]
    fn apply_takes_one_file_and_an_optional_change() {
        let expected = Command::Apply {
            file: PathBuf::from("w.json"),
            change: Some("acks=1".to_string()),
        };
        assert_eq!(
            parse(&["apply", "w.json", "--change", "acks=1"]),
            Ok(expected)
        );
        assert_eq!(
            parse(&["apply"]),
            Err("`apply` needs a scenario file".to_string())
        );
        assert_eq!(
            parse(&["apply", "w.json", "v.json"]),
            Err("apply takes one scenario file".to_string())
        );
        assert_eq!(
            parse(&["apply", "w.json", "v.json", "--change", "acks=1"]),
            Err("apply takes one scenario file".to_string())
        );
        assert_eq!(
            parse(&["apply", "w.json", "--json"]),
            Err("unknown option `--json`: apply prints a scenario file".to_string())
        );
    }
}

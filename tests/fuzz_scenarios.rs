//! A seeded mutation fuzzer over the curated scenarios: each case takes a curated file, mutates
//! it (a value swapped for a hostile one, a field dropped or added, an action duplicated, the
//! text cut or a byte changed) and checks what the runner promises for any input: the file is
//! refused with one line that names a JSON path (a syntax error names its line and column), or it
//! runs to its end without a panic, within the work budget's estimate and well within its time.
//!
//! `FUZZ_CASES=100000 FUZZ_SEED=7 cargo test --release --test fuzz_scenarios -- --nocapture` for a
//! longer run; a failure prints the seed and case, which replays it exactly.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::Command;
use std::time::{Duration, Instant};

use purgatory_playground::scenario::Scenario;
use purgatory_playground::scenario::{budget, play_scenario};
use serde_json::{json, Value};

mod common;
use common::{curated_files, random_scenario, SplitMix64};

/// The runner's promise is "within 10 s"; the fuzzer allows three times that per case, since the
/// test machines are shared and noisy. It is a tripwire for a run that escaped the budget (a
/// minute, an hour), not a benchmark.
const TIME_LIMIT: Duration = Duration::from_secs(30);
/// Accepted cases whose estimate is over this many units are heavy (a long run of a big
/// cluster, up to the budget's seconds); a run plays the first few of them, and the rest only
/// through the budget check, unless `FUZZ_HEAVY=all`.
const HEAVY_UNITS: u64 = 2_000_000;
const HEAVY_RUNS: usize = 3;
/// One case in this many also goes through the runner binary, to check its exit status and its
/// one stderr line.
const BINARY_EVERY: u64 = 25;

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text}: expected a whole number")),
        Err(_) => default,
    }
}

fn corpus() -> Vec<(String, Value)> {
    let files = curated_files();
    assert!(files.len() >= 20, "the curated scenarios are the corpus");
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (
                name,
                serde_json::from_str(&text).expect("curated files parse"),
            )
        })
        .collect()
}

/// Values a mutation puts in place of another: boundaries of the contract's ranges, just past
/// them, wrong types.
fn hostile_value(rng: &mut SplitMix64) -> Value {
    let pool = [
        json!(0),
        json!(1),
        json!(-1),
        json!(2),
        json!(3),
        json!(64),
        json!(65),
        json!(1024),
        json!(1025),
        json!(1_000_000),
        json!(1_000_001),
        json!(2_147_483_647i64),
        json!(2_147_483_648i64),
        json!(604_800_000),
        json!(604_800_001),
        json!(86_400_000),
        json!(9_007_199_254_740_993u64),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1.5),
        json!(1e3),
        json!(-0.0),
        json!("all"),
        json!(""),
        json!("p1"),
        json!("\u{0}\u{fffd}"),
        json!(null),
        json!(true),
        json!([]),
        json!({}),
        json!([{ "topic": "t", "partition": 0, "count": 1 }]),
    ];
    pool[rng.below(pool.len() as u64) as usize].clone()
}

/// Every value in the document, by a path of keys and indexes.
fn paths(value: &Value, at: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                at.push(PathStep::Key(key.clone()));
                paths(v, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(PathStep::Index(i));
                paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at_mut<'a>(value: &'a mut Value, path: &[PathStep]) -> &'a mut Value {
    path.iter().fold(value, |v, step| match step {
        PathStep::Key(k) => &mut v[k.as_str()],
        PathStep::Index(i) => &mut v[*i],
    })
}

/// One structural mutation of the document.
fn mutate(doc: &mut Value, rng: &mut SplitMix64) -> String {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let path = all[rng.below(all.len() as u64) as usize].clone();
    let shown = format!("{path:?}");
    let target = at_mut(doc, &path);
    match rng.below(8) {
        0 => {
            *target = hostile_value(rng);
            format!("set {shown}")
        }
        1 => match target {
            Value::Object(map) if !map.is_empty() => {
                let key = map
                    .keys()
                    .nth(rng.below(map.len() as u64) as usize)
                    .cloned();
                map.remove(key.as_deref().unwrap());
                format!("dropped {key:?} at {shown}")
            }
            Value::Array(items) if !items.is_empty() => {
                let i = rng.below(items.len() as u64) as usize;
                let copy = items[i].clone();
                items.insert(i, copy);
                format!("duplicated [{i}] at {shown}")
            }
            _ => {
                *target = hostile_value(rng);
                format!("set {shown}")
            }
        },
        2 => match target {
            Value::Object(map) => {
                let keys = [
                    "brokers",
                    "partitions",
                    "extra",
                    "at_ms",
                    "id",
                    "acks",
                    "count",
                ];
                let key = keys[rng.below(keys.len() as u64) as usize];
                map.insert(key.to_string(), hostile_value(rng));
                format!("inserted {key} at {shown}")
            }
            _ => {
                *target = hostile_value(rng);
                format!("set {shown}")
            }
        },
        // Whole-cluster boundaries: the contract's maxima, where a run gets expensive.
        3 | 4 => {
            let field = [
                ("/config/brokers", json!(64)),
                ("/config/network_delay_ms", json!(0)),
                ("/config/replica_fetch_wait_max_ms", json!(0)),
                ("/config/replica_lag_time_max_ms", json!(0)),
                ("/config/broker_session_timeout_ms", json!(0)),
                ("/run_until_ms", json!(604_800_000)),
                ("/topics/0/partitions", json!(1024)),
                ("/topics/0/replication_factor", json!(64)),
            ][rng.below(8) as usize]
                .clone();
            if let Some(v) = doc.pointer_mut(field.0) {
                *v = field.1;
            } else if let Some(config) = doc.get_mut("config").and_then(Value::as_object_mut) {
                let key = field.0.trim_start_matches("/config/");
                config.insert(key.to_string(), field.1);
            }
            format!("boundary {}", field.0)
        }
        _ => {
            *target = json!(rng.next_u64() % 5_000);
            format!("number {shown}")
        }
    }
}

/// The document as text, sometimes damaged: cut short, a byte changed, a byte inserted.
fn to_text(doc: &Value, rng: &mut SplitMix64) -> (String, String) {
    let mut text = serde_json::to_string_pretty(doc).unwrap();
    let how = match rng.below(20) {
        0 => {
            let cut = rng.below(text.len() as u64) as usize;
            text = String::from_utf8_lossy(&text.as_bytes()[..cut]).into_owned();
            format!("cut at {cut}")
        }
        1 => {
            let at = rng.below(text.len() as u64) as usize;
            let mut bytes = text.into_bytes();
            let replacements = b"{}[],:\"0-e.x\\ ";
            bytes[at] = replacements[rng.below(replacements.len() as u64) as usize];
            text = String::from_utf8_lossy(&bytes).into_owned();
            format!("byte {at} changed")
        }
        2 => {
            let at = rng.below(text.len() as u64) as usize;
            if text.is_char_boundary(at) {
                text.insert_str(at, "1e400");
            }
            format!("1e400 inserted at {at}")
        }
        _ => "text intact".to_string(),
    };
    (text, how)
}

/// What one case came to.
enum Outcome {
    Refused,
    Ran,
    HeavyNotRun,
}

fn check_case(text: &str, heavy_left: &mut usize, all_heavy: bool) -> Result<Outcome, String> {
    let scenario = match Scenario::from_json(text).and_then(|s| budget::check(&s).map(|()| s)) {
        Ok(s) => s,
        Err(e) => {
            let line = e.to_string();
            if line.contains('\n') || line.trim().is_empty() {
                return Err(format!("the error is not one line: {line:?}"));
            }
            // The root's path is empty; its errors say "the scenario", a syntax error its line.
            let named =
                !e.path.is_empty() || line.contains("the scenario") || line.contains("line ");
            if !named {
                return Err(format!("the error names no JSON path: {line}"));
            }
            return Ok(Outcome::Refused);
        }
    };
    let estimate = budget::estimate(&scenario).total(scenario.run_until_ms);
    if estimate > HEAVY_UNITS && !all_heavy {
        if *heavy_left == 0 {
            return Ok(Outcome::HeavyNotRun);
        }
        *heavy_left -= 1;
    }
    let started = Instant::now();
    let played = catch_unwind(AssertUnwindSafe(|| play_scenario(&scenario, None)))
        .map_err(|panic| format!("panicked: {panic:?}"))?
        .map_err(|e| format!("accepted, then failed: {e}"))?;
    let elapsed = started.elapsed();
    if elapsed > TIME_LIMIT {
        return Err(format!("took {elapsed:?} (estimate {estimate} units)"));
    }
    let work = played.work_done();
    if work > estimate {
        return Err(format!(
            "the work meter ({work}) went past the estimate ({estimate})"
        ));
    }
    Ok(Outcome::Ran)
}

/// The runner binary on one case: exit 0 with a JSON document on stdout, or exit 2 with nothing
/// on stdout and one line on stderr naming the file.
fn check_binary(text: &str, dir: &std::path::Path, case: u64) -> Result<(), String> {
    let file = dir.join(format!("case-{case}.json"));
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_purgatory"))
        .arg("run")
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let result = match out.status.code() {
        Some(0) => serde_json::from_slice::<Value>(&out.stdout)
            .map(|_| ())
            .map_err(|e| format!("exit 0, stdout is not JSON: {e}")),
        Some(2) if !out.stdout.is_empty() => Err("exit 2 with output on stdout".to_string()),
        Some(2) if stderr.lines().count() != 1 => Err(format!("exit 2, stderr: {stderr:?}")),
        Some(2) if !stderr.starts_with(&file.display().to_string()) => {
            Err(format!("the line does not name the file: {stderr}"))
        }
        Some(2) => Ok(()),
        other => Err(format!("exit {other:?}: {stderr}")),
    };
    std::fs::remove_file(&file).ok();
    result
}

#[test]
fn mutated_scenarios_are_refused_with_a_path_or_run_within_the_budget() {
    let cases = env_u64("FUZZ_CASES", 3_000);
    let seed = env_u64("FUZZ_SEED", 20_261_202);
    let all_heavy = std::env::var("FUZZ_HEAVY").is_ok_and(|v| v == "all");
    let corpus = corpus();
    let dir = std::env::temp_dir().join(format!("pp-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = SplitMix64(seed);
    let (mut refused, mut ran, mut heavy_not_run, mut through_binary) = (0, 0, 0, 0);
    let mut heavy_left = HEAVY_RUNS;
    for case in 0..cases {
        let (name, original) = &corpus[rng.below(corpus.len() as u64) as usize];
        let mut doc = original.clone();
        let mut what = Vec::new();
        for _ in 0..1 + rng.below(2) {
            what.push(mutate(&mut doc, &mut rng));
        }
        let (text, damage) = to_text(&doc, &mut rng);
        let replay = format!("FUZZ_SEED={seed}, case {case}: {name}, {what:?}, {damage}");
        match check_case(&text, &mut heavy_left, all_heavy) {
            Ok(Outcome::Refused) => refused += 1,
            Ok(Outcome::Ran) => ran += 1,
            Ok(Outcome::HeavyNotRun) => heavy_not_run += 1,
            Err(problem) => panic!("{replay}: {problem}\n{text}"),
        }
        if case % BINARY_EVERY == 0 {
            check_binary(&text, &dir, case).unwrap_or_else(|p| panic!("{replay}: {p}\n{text}"));
            through_binary += 1;
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "{cases} cases (seed {seed}): {refused} refused, {ran} ran, {heavy_not_run} heavy ones \
         checked by the budget only (FUZZ_HEAVY=all runs them), {through_binary} also through \
         the runner binary"
    );
    // A fuzzer whose mutations were all refused, or all harmless, would test nothing.
    assert!(refused * 10 > cases, "too few refusals: {refused}");
    assert!(ran * 10 > cases, "too few runs: {ran}");
}

/// The estimate bounds the work meter on the random clusters and action sequences of
/// `random_actions` too, and on the curated files as they are.
#[test]
fn the_estimate_bounds_the_work_of_random_and_curated_runs() {
    let mut checked = 0;
    let random = (0..300).map(random_scenario);
    let curated = corpus()
        .into_iter()
        .map(|(_, v)| Scenario::from_value(&v).expect("curated files are valid"));
    for scenario in random.chain(curated) {
        let estimate = budget::estimate(&scenario).total(scenario.run_until_ms);
        let work = play_scenario(&scenario, None).unwrap().work_done();
        assert!(
            work <= estimate,
            "{}: work {work} > estimate {estimate}\n{}",
            scenario.name,
            scenario.to_json()
        );
        checked += 1;
    }
    assert_eq!(checked, 300 + corpus().len());
}

/// The cases the issue measured: each is refused up front, with the line naming the field and
/// the limit, or runs within the budget.
#[test]
fn expensive_clusters_are_refused_naming_the_field_and_the_limit() {
    let base = |config: Value, partitions: u32, rf: u32, run_until_ms: u64| {
        let doc = json!({
            "name": "probe", "config": config,
            "topics": [{ "name": "t", "partitions": partitions, "replication_factor": rf }],
            "actions": [], "run_until_ms": run_until_ms
        });
        Scenario::from_value(&doc).expect("valid under the contract")
    };
    let zeros = json!({ "replica_lag_time_max_ms": 0, "broker_session_timeout_ms": 0,
                        "network_delay_ms": 0 });
    let zeros_again = zeros.clone();
    let day_of_zeros = budget::check(&base(zeros.clone(), 1, 3, 86_400_000)).unwrap_err();
    assert_eq!(day_of_zeros.path, "run_until_ms");
    let limit: u64 = day_of_zeros
        .message
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the message ends with the limit");
    assert!(day_of_zeros.message.contains("README"));
    // The limit it names is accepted, one more millisecond is not.
    assert!(budget::check(&base(zeros.clone(), 1, 3, limit)).is_ok());
    assert!(budget::check(&base(zeros, 1, 3, limit + 1)).is_err());

    let widest = json!({ "brokers": 64 });
    let err = budget::check(&base(widest.clone(), 1024, 64, 604_800_000)).unwrap_err();
    assert_eq!(err.path, "run_until_ms");
    // A week of the contract's defaults is fine, and so is a minute of 64 brokers.
    assert!(budget::check(&base(json!({}), 1, 3, 604_800_000)).is_ok());
    assert!(budget::check(&base(widest.clone(), 1, 3, 60_000)).is_ok());

    // Untraced, issue 12's week of 5 brokers x 12 partitions is admitted on its idle
    // fast-forward (traced, it is refused as before), with a fetch wait of 0 too; not the widest
    // cluster's week, whose settling alone is too much, nor the day of zeros (no fast-forward
    // with a fetch cycle of 0).
    for config in [
        json!({ "brokers": 5 }),
        json!({ "brokers": 5, "replica_fetch_wait_max_ms": 0 }),
    ] {
        let week = base(config, 12, 3, 604_800_000);
        assert!(budget::check(&week).is_err());
        assert_eq!(
            budget::check_untraced(&week),
            Ok(budget::Admission::IdleTail)
        );
    }
    let widest_week = base(widest, 1024, 64, 604_800_000);
    assert_eq!(
        budget::check_untraced(&widest_week).unwrap_err().path,
        "run_until_ms"
    );
    assert!(budget::check_untraced(&base(zeros_again, 1, 3, 86_400_000)).is_err());

    let topic = |name| json!({ "name": name, "partitions": 1024, "replication_factor": 64 });
    let two_big_topics = json!({
        "name": "probe", "config": { "brokers": 64 }, "topics": [topic("t"), topic("u")],
        "actions": [], "run_until_ms": 1000
    });
    let err = Scenario::from_value(&two_big_topics).unwrap_err();
    assert_eq!(err.path, "topics");
    assert!(err.message.contains("at most 4194304"), "{}", err.message);
}

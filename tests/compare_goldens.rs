//! The curated what-ifs (`scenarios/w*.json`, each with a `compare` field): the comparison
//! `purgatory compare FILE` prints is part of their golden (`scenarios/golden/compare/NAME.txt`),
//! and the answers each side gets are the ones scenarios/README.md derives by hand. Re-record the
//! goldens with `UPDATE_GOLDEN=1 cargo test --release --test compare_goldens`.

mod common;

use std::path::Path;

use purgatory_playground::compare::{what_if, Comparison};
use purgatory_playground::scenario::{budget, Change, Scenario};

fn compared(name: &str) -> Comparison {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenarios/{name}.json"));
    let scenario = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let change = scenario
        .compare
        .clone()
        .expect("a what-if has a `compare` field");
    what_if(&scenario, &change).unwrap().1
}

/// `(outcome, answered_ms, lost_ms)` of one request on one side.
fn answer(c: &Comparison, id: &str, side: char) -> (String, Option<u64>, Option<u64>) {
    let row = c.outcomes.iter().find(|r| r.id == id).unwrap();
    let a = if side == 'a' { &row.a } else { &row.b };
    let a = a.as_ref().unwrap();
    (a.outcome.clone(), a.answered_ms, a.lost_ms)
}

#[test]
fn every_curated_what_if_reproduces_its_golden() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/golden/compare");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut checked = 0;
    for path in common::curated_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let scenario = Scenario::from_json(&text).unwrap();
        let name = path.file_stem().unwrap().to_str().unwrap();
        let Some(change) = scenario.compare.clone() else {
            assert!(
                !name.starts_with('w'),
                "{name}: a what-if without `compare`"
            );
            continue;
        };
        // The file writes its change as the model does (the page matches the Kafka check's
        // record of the second run against the change it compares by this text).
        let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            raw["compare"].as_str(),
            Some(change.to_string().as_str()),
            "{name}: `compare` is not written as the model writes it"
        );
        let actual = what_if(&scenario, &change).unwrap().1.to_text();
        let golden_path = dir.join(format!("{name}.txt"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&golden_path, &actual).unwrap();
        } else {
            let golden = std::fs::read_to_string(&golden_path)
                .unwrap_or_else(|e| panic!("{}: {e}", golden_path.display()));
            assert_eq!(
                actual, golden,
                "{name}: the comparison differs from its golden"
            );
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} what-ifs found");
}

#[test]
fn acks_1_loses_what_acks_all_never_acknowledged() {
    let c = compared("w01-acks1-against-all-leader-crash");
    assert_eq!(
        answer(&c, "p1", 'a'),
        ("NONE".into(), Some(1000), Some(9003))
    );
    assert_eq!(
        answer(&c, "p1", 'b'),
        ("no answer, connection closed".into(), None, None)
    );
    assert_eq!(answer(&c, "p2", 'a'), ("NONE".into(), Some(25000), None));
    assert_eq!(answer(&c, "p2", 'b'), ("NONE".into(), Some(25002), None));
    assert_eq!(c.divergence.as_ref().unwrap().at_ms, 1000);
}

#[test]
fn min_isr_2_refuses_what_min_isr_1_stores_on_the_leader_alone() {
    let c = compared("w02-min-isr-1-against-2-with-a-follower-down");
    assert_eq!(answer(&c, "p1", 'a'), ("NONE".into(), Some(12000), None));
    assert_eq!(
        answer(&c, "p1", 'b'),
        ("NOT_ENOUGH_REPLICAS".into(), Some(12000), None)
    );
    let d = c.divergence.as_ref().unwrap();
    assert_eq!(d.at_ms, 12000);
    assert_eq!(d.b.as_ref().unwrap()["event"], "produce_partition_rejected");
}

#[test]
fn a_request_late_in_the_stall_outlives_it_and_an_early_one_does_not() {
    let c = compared("w03-request-early-against-late-in-a-stall");
    assert_eq!(answer(&c, "p1", 'a'), ("NONE".into(), Some(37310), None));
    assert_eq!(
        answer(&c, "p1", 'b'),
        ("REQUEST_TIMED_OUT".into(), Some(31000), None)
    );
    assert_eq!(c.divergence.as_ref().unwrap().at_ms, 1000);
}

/// A change that makes a run cost hundreds of times more is refused before either run is played,
/// as the runner refuses a file over the work budget: a day of idle fetching at the default fetch
/// wait is within it, a day at a wait of 0 is not.
#[test]
fn a_change_that_takes_a_run_past_the_work_budget_is_refused() {
    let scenario = Scenario::from_json(
        r#"{"name": "a-quiet-day", "seed": 1, "config": {"brokers": 3},
            "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
            "actions": [], "run_until_ms": 86400000}"#,
    )
    .unwrap();
    assert!(budget::check(&scenario).is_ok());
    let costly = Change::parse("replica.fetch.wait.max.ms=0").unwrap();
    let refused = what_if(&scenario, &costly).unwrap_err();
    assert!(
        refused.starts_with("with replica.fetch.wait.max.ms=0: ")
            && refused.contains("work budget"),
        "{refused}"
    );
}

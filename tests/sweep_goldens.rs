//! Each curated scenario's sweep over its ISR-check phase is part of its golden
//! (`scenarios/golden/sweeps/NAME.txt`, the text `purgatory sweep` prints): a change to the model
//! that moves a boundary by one millisecond shows here. Re-record with
//! `UPDATE_GOLDEN=1 cargo test --release --test sweep_goldens`, and say why in the commit.

mod common;

use std::path::Path;

use purgatory_playground::scenario::Scenario;
use purgatory_playground::sim::action::BrokerId;
use purgatory_playground::sweep::{sweep, Beat, Sweeper};

fn read(path: &Path) -> Scenario {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_curated_sweep_reproduces_its_golden() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/golden/sweeps");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut differ = Vec::new();
    let files = common::curated_files();
    for path in &files {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let actual = sweep(&read(path), Beat::IsrCheck, None).to_text();
        let golden_path = dir.join(format!("{name}.txt"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&golden_path, &actual).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&golden_path)
            .unwrap_or_else(|e| panic!("{}: {e}", golden_path.display()));
        if actual != golden {
            differ.push(format!("{name}:\n{actual}"));
        }
    }
    assert!(files.len() >= 28, "only {} scenarios found", files.len());
    assert!(
        differ.is_empty(),
        "sweeps differ from scenarios/golden/sweeps/:\n{}",
        differ.join("\n")
    );
}

/// The runner's sweep shares the phases out among threads and joins the blocks; the page's runs
/// them a few at a time on one thread. Both give the same sweep, boundaries inside a block or on
/// a block's edge alike.
#[test]
fn a_sweep_in_blocks_equals_one_run_phase_after_phase() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for (name, beat, broker) in [
        ("s02-stalled-follower-times-out", Beat::IsrCheck, None),
        ("s10-multi-partition-request", Beat::IsrCheck, None),
        (
            "x11-same-ms-fencing-in-broker-id-order",
            Beat::Heartbeat,
            Some(BrokerId(1)),
        ),
    ] {
        let scenario = read(&dir.join(format!("{name}.json")));
        let mut one = Sweeper::new(&scenario, beat, broker);
        // Uneven steps, as frames give them.
        let mut n = 1;
        while !one.step(n) {
            n = n * 3 % 997 + 1;
        }
        assert_eq!(sweep(&scenario, beat, broker), one.into_sweep(), "{name}");
    }
}

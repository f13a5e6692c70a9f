//! Native timing of Kafka's purgatory workload (`src/purgatory/workload.rs`), for `e2e/bench.mjs`,
//! which runs the same replay in wasm in headless Chromium (and, with `BENCH_ONLY=kafka`, in
//! Apache Kafka's own purgatory) and prints the ratios.
//!
//! `cargo run --release --example purgatory_workload -- [REQUESTS] [ROUNDS]` prints one line:
//! `native_ms <ms of each round, space separated> outcome <completed expired pending_sum
//! pending_max steady_ms> phases <ms of expire+purge, arrive, complete in the last round>` (the
//! same line as the wasm `PurgatoryWorkload.run` after the ms), then ` cpu_ms <CPU ms of the last
//! round> peak_rss_kb <the process's peak resident set>`.
//!
//! `... -- REQUESTS --serve [--no-purge]` draws the schedule, prints `ready`, then replays it once
//! for each line read from stdin, printing that same line for the one round each time, until
//! stdin ends: the bench interleaves native and wasm replays with it, so that the machine's drift
//! (it swings by half within a minute when shared) weighs on both sides of each pair alike.
//! `--no-purge` replays with the purge switched off (a diagnostic).
//!
//! `... -- REQUESTS --write-schedule FILE` writes the schedule for Kafka's side
//! (`Schedule::write_file`), and `... -- --memory-bound ENTRIES` prints the machine's latency of
//! one dependent random access over a table of ENTRIES cache lines: `memory_bound_ns <ns>
//! table_mb <MB>`.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use purgatory_playground::purgatory::workload::{
        replay_timed, CratePurgatory, Outcome, Schedule, REQUESTS,
    };
    use std::io::{BufRead, Write};
    use std::time::Instant;

    /// One replay: its ms, CPU ms, outcome and the ms of its phases (`workload::PHASES`).
    fn timed(schedule: &Schedule, purge: bool) -> (f64, f64, Outcome, [f64; 3]) {
        let mut store = if purge {
            CratePurgatory::new()
        } else {
            CratePurgatory::without_purge()
        };
        let cpu = process::cpu_ms();
        let start = Instant::now();
        let clock = || start.elapsed().as_secs_f64() * 1e3;
        let (outcome, phases) = replay_timed(schedule, &mut store, clock);
        (clock(), process::cpu_ms() - cpu, outcome, phases)
    }

    /// The times, then the line the wasm `PurgatoryWorkload.run` prints (the phases are the
    /// last round's), then the last round's CPU time and the peak memory so far.
    fn report(times: &[f64], cpu_ms: f64, outcome: Outcome, phases: [f64; 3]) {
        let times: Vec<String> = times.iter().map(|ms| format!("{ms:.1}")).collect();
        println!(
            "native_ms {} outcome {} cpu_ms {cpu_ms:.1} peak_rss_kb {}",
            times.join(" "),
            outcome.line(phases),
            process::peak_rss_kb()
        );
    }

    process::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    if let Some(at) = args.iter().position(|a| a == "--memory-bound") {
        let entries = args
            .get(at + 1)
            .map_or(1_000_000, |a| a.parse().expect("--memory-bound ENTRIES"));
        let ns = memory_bound::dependent_access_ns(entries);
        println!(
            "memory_bound_ns {ns:.1} table_mb {:.1}",
            (entries * memory_bound::LINE) as f64 / 1e6
        );
        return;
    }
    let requests = args
        .first()
        .map_or(REQUESTS, |a| a.parse().expect("REQUESTS"));
    let schedule = Schedule::new(requests);
    if let Some(at) = args.iter().position(|a| a == "--write-schedule") {
        let path = args.get(at + 1).expect("--write-schedule FILE");
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("schedule file"));
        schedule.write_file(&mut out).expect("writing the schedule");
        out.flush().expect("writing the schedule");
        return;
    }
    let purge = !flag("--no-purge");
    if flag("--serve") {
        println!("ready");
        std::io::stdout().flush().expect("stdout");
        for line in std::io::stdin().lock().lines() {
            line.expect("stdin");
            let (ms, cpu_ms, outcome, phases) = timed(&schedule, purge);
            report(&[ms], cpu_ms, outcome, phases);
            std::io::stdout().flush().expect("stdout");
        }
        return;
    }
    let rounds: usize = args.get(1).map_or(3, |a| a.parse().expect("ROUNDS"));
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..rounds {
        let (ms, cpu_ms, outcome, phases) = timed(&schedule, purge);
        times.push(ms);
        last = Some((cpu_ms, outcome, phases));
    }
    let (cpu_ms, outcome, phases) = last.expect("at least one round");
    report(&times, cpu_ms, outcome, phases);
}

/// What the process has used: CPU time and peak memory (Linux).
#[cfg(not(target_arch = "wasm32"))]
mod process {
    /// The CPU time of the whole process, in ms.
    pub fn cpu_ms() -> f64 {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the timespec it is given and nothing else.
        let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
        assert_eq!(status, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
        t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
    }

    /// Keeps the memory a replay frees in the process for the next replay, as Kafka's JVM keeps
    /// its heap (`-Xms1G`, the size `kafka-server-start.sh` sets) from replay to replay. glibc's
    /// malloc would otherwise hand each freed table of a replay back to the kernel (tables this
    /// large are mapped on their own, and the heap's top is trimmed), and the next replay would
    /// fault every page in again: about 49,000 faults and 130 ms of system time a replay here,
    /// 15-18% of the replay (2026-12-07, `perf stat -e page-faults` on 5 rounds). The peak
    /// resident set grows by the tables' freed earlier copies (254 -> 352 MB).
    pub fn keep_freed_memory() {
        #[cfg(target_env = "gnu")]
        // SAFETY: mallopt only sets allocator parameters; it is called before any thread starts.
        unsafe {
            libc::mallopt(libc::M_MMAP_MAX, 0);
            libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        }
    }

    /// The peak resident set (`VmHWM`), in KB; 0 where /proc is missing.
    pub fn peak_rss_kb() -> u64 {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|status| {
                let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
                line.split_whitespace().nth(1)?.parse().ok()
            })
            .unwrap_or(0)
    }
}

/// The machine's floor for this job: each request of the workload touches its operation, which
/// with a million pending lies anywhere in a table far larger than the caches, so a request costs
/// at least about one dependent random access to memory. Measured as a pointer chase over one
/// random cycle through the table (each step's address is the previous load's value, so no two
/// loads overlap), one entry per 64-byte cache line.
#[cfg(not(target_arch = "wasm32"))]
mod memory_bound {
    use std::time::Instant;

    pub const LINE: usize = 64;

    #[repr(align(64))]
    #[derive(Clone, Copy)]
    struct Line {
        next: u32,
    }

    pub fn dependent_access_ns(entries: usize) -> f64 {
        // Every entry in a random order (drawn by SplitMix64), each linked to the next: one cycle.
        let mut order: Vec<u32> = (0..entries as u32).collect();
        let mut seed = 0x5eed_u64;
        let mut next_random = move || {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for i in (1..entries).rev() {
            order.swap(i, (next_random() % (i as u64 + 1)) as usize);
        }
        let mut table = vec![Line { next: 0 }; entries];
        for w in 0..entries {
            table[order[w] as usize].next = order[(w + 1) % entries];
        }
        let steps = 20_000_000;
        let mut at = 0u32;
        for _ in 0..entries {
            at = table[at as usize].next; // warm the pages and the TLB's walk caches
        }
        let start = Instant::now();
        for _ in 0..steps {
            at = table[at as usize].next;
        }
        let ns = start.elapsed().as_secs_f64() * 1e9 / steps as f64;
        std::hint::black_box(at);
        ns
    }
}

/// `cargo test` for wasm32 (wasm-pack test) builds the examples too; the workload is native here.
#[cfg(target_arch = "wasm32")]
fn main() {}

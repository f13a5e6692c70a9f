//! The headless scenario runner.

fn main() {}

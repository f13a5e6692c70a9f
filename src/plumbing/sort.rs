//! Stable sorting whose code exists once in the .wasm.
//!
//! `slice::sort_by` and friends are compiled anew for every element type and comparator: in the
//! shipping .wasm each copy was about 3.5 KB, and fourteen of them (plus the sorts hidden in
//! `collect`ing into a `BTreeMap` or `BTreeSet`) were an eighth of its code. The model only sorts
//! short lists (ISR members, a request's partitions, the snapshot's rows, a scenario's actions),
//! so here one merge sort of positions does the work through a `dyn` comparator, and what is
//! compiled per element type is the few lines that compare two elements and move them into
//! place. Stable, like `sort_by`: equal elements keep their order, so every result is the one
//! `sort_by` gave. The purgatory's hot paths keep std's sorts.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably (as `slice::sort_by`).
pub(crate) fn sort_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = stable_order(v.len(), &mut |a, b| cmp(&v[a], &v[b]) == Ordering::Greater);
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(
        order
            .iter()
            .map(|&i| slots[i as usize].take().expect("a permutation")),
    );
}

/// Sorts `v` by the key `f` gives, stably (as `slice::sort_by_key`).
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, mut f: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| f(a).cmp(&f(b)));
}

/// Sorts `v` in ascending order (as `slice::sort`).
pub(crate) fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, T::cmp);
}

/// The positions `0..n` in stable sorted order, given `after(a, b)`: whether the element at `a`
/// belongs strictly after the one at `b`. A bottom-up merge sort; input already in order (the
/// usual case: actions in file order, an ISR plus one) costs one comparison per element.
fn stable_order(n: usize, after: &mut dyn FnMut(usize, usize) -> bool) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    if (1..n).all(|i| !after(i - 1, i)) {
        return order;
    }
    let mut merged = vec![0u32; n];
    let mut width = 1;
    while width < n {
        for lo in (0..n).step_by(2 * width) {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j) = (lo, mid);
            for slot in &mut merged[lo..hi] {
                // Take from the right run only when its head belongs strictly before the left's.
                let right = j < hi && (i >= mid || after(order[i] as usize, order[j] as usize));
                if right {
                    *slot = order[j];
                    j += 1;
                } else {
                    *slot = order[i];
                    i += 1;
                }
            }
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, to draw test inputs.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[test]
    fn agrees_with_std_stable_sort_on_random_lists_with_ties() {
        let mut state = 7;
        for len in 0..200 {
            for _ in 0..5 {
                let keys = 1 + next(&mut state) % 10;
                let list: Vec<(u64, usize)> =
                    (0..len).map(|i| (next(&mut state) % keys, i)).collect();
                let mut ours = list.clone();
                sort_by_key(&mut ours, |e| e.0);
                let mut std = list.clone();
                std.sort_by_key(|e| e.0);
                assert_eq!(ours, std, "len {len}");
            }
        }
    }

    #[test]
    fn sorted_input_stays_and_reversed_input_turns() {
        let mut v: Vec<u32> = (0..50).collect();
        sort(&mut v);
        assert_eq!(v, (0..50).collect::<Vec<_>>());
        v.reverse();
        sort(&mut v);
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}

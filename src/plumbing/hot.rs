//! Lookups for the purgatory's and the timer's hot path (and the purgatory workload's driver)
//! that the size-optimised .wasm compiles in place. At the size-optimising levels LLVM inlines
//! little (measured at "z", the level the .wasm was built at then; it is "s" now): `v[i]`,
//! `Option::expect` and `Vec::push` each stayed a call into a shared out-of-line copy (a bounds
//! check and a panic message in it), and a CPU profile of Kafka's purgatory workload in the .wasm
//! put about a quarter of the replay in such calls. These do the same
//! checks, with the same panics, but their fast path is a compare and a load at the call site and
//! the panic is out of line.
//!
//! Natively (opt-level 3) they compile to what `v[i]` and `expect` compile to.

/// `items[i]`, bounds-checked.
#[inline(always)]
pub(crate) fn at<T>(items: &[T], i: usize) -> &T {
    match get(items, i) {
        Some(item) => item,
        None => out_of_bounds(i, items.len()),
    }
}

/// `&mut items[i]`, bounds-checked.
#[inline(always)]
pub(crate) fn at_mut<T>(items: &mut [T], i: usize) -> &mut T {
    let len = items.len();
    match get_mut(items, i) {
        Some(item) => item,
        None => out_of_bounds(i, len),
    }
}

/// `items.get(i)`.
#[inline(always)]
pub(crate) fn get<T>(items: &[T], i: usize) -> Option<&T> {
    if i < items.len() {
        // SAFETY: `i` is within the slice, checked just above.
        Some(unsafe { &*items.as_ptr().add(i) })
    } else {
        None
    }
}

/// `items.get_mut(i)`.
#[inline(always)]
pub(crate) fn get_mut<T>(items: &mut [T], i: usize) -> Option<&mut T> {
    if i < items.len() {
        // SAFETY: `i` is within the slice, checked just above.
        Some(unsafe { &mut *items.as_mut_ptr().add(i) })
    } else {
        None
    }
}

/// `value.expect(what)`.
#[inline(always)]
pub(crate) fn expect<T>(value: Option<T>, what: &'static str) -> T {
    match value {
        Some(value) => value,
        None => missing(what),
    }
}

/// `items.push(item)`, with the write in place when there is room and the growth out of line.
#[inline(always)]
pub(crate) fn push<T>(items: &mut Vec<T>, item: T) {
    if items.len() < items.capacity() {
        let len = items.len();
        // SAFETY: `len < capacity`, so slot `len` is allocated and unused; it is initialised
        // before the length grows over it.
        unsafe {
            items.as_mut_ptr().add(len).write(item);
            items.set_len(len + 1);
        }
    } else {
        push_growing(items, item);
    }
}

#[inline(never)]
fn push_growing<T>(items: &mut Vec<T>, item: T) {
    items.push(item);
}

#[cold]
#[inline(never)]
fn out_of_bounds(i: usize, len: usize) -> ! {
    panic!("index out of bounds: the len is {len} but the index is {i}")
}

#[cold]
#[inline(never)]
fn missing(what: &'static str) -> ! {
    panic!("{what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_match_the_std_ones() {
        let mut v = vec![10, 20, 30];
        assert_eq!(*at(&v, 2), 30);
        *at_mut(&mut v, 0) += 1;
        assert_eq!(v, [11, 20, 30]);
        assert_eq!(get(&v, 1), Some(&20));
        assert_eq!(get(&v, 3), None);
        assert_eq!(get_mut(&mut v, 3), None);
        assert_eq!(expect(Some(4), "four"), 4);
    }

    #[test]
    fn push_writes_in_place_and_grows() {
        let mut v: Vec<String> = Vec::with_capacity(1);
        push(&mut v, "a".to_string());
        push(&mut v, "b".to_string()); // grows
        push(&mut v, "c".to_string());
        assert_eq!(v, ["a", "b", "c"]);
    }

    #[test]
    #[should_panic(expected = "the len is 3 but the index is 3")]
    fn out_of_bounds_panics() {
        at(&[1, 2, 3], 3);
    }

    #[test]
    #[should_panic(expected = "a live list")]
    fn expect_panics_with_its_message() {
        expect(None::<u8>, "a live list");
    }
}

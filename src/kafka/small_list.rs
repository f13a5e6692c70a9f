//! A list that keeps a single item inline. Nearly every produce request names one partition, and
//! a long run handles millions of requests, so their per-partition lists (the request's record
//! batches, a waiting request's statuses, a response's partitions in the result document) would
//! each be an allocation of their own for one item. Read as a slice, written to JSON as a list.

use std::ops::{Deref, DerefMut};

use serde::{Serialize, Serializer};

#[derive(Clone, Debug)]
pub struct SmallList<T>(Items<T>);

#[derive(Clone, Debug)]
enum Items<T> {
    One(T),
    /// None, or more than one.
    Many(Vec<T>),
}

impl<T> FromIterator<T> for SmallList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut iter = iter.into_iter();
        let Some(first) = iter.next() else {
            return SmallList(Items::Many(Vec::new()));
        };
        let Some(second) = iter.next() else {
            return SmallList(Items::One(first));
        };
        let mut list = vec![first, second];
        list.extend(iter);
        SmallList(Items::Many(list))
    }
}

impl<T> From<Vec<T>> for SmallList<T> {
    fn from(mut list: Vec<T>) -> Self {
        if list.len() == 1 {
            return SmallList(Items::One(list.pop().expect("one item")));
        }
        SmallList(Items::Many(list))
    }
}

impl<T> Deref for SmallList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.0 {
            Items::One(item) => std::slice::from_ref(item),
            Items::Many(list) => list,
        }
    }
}

impl<T> DerefMut for SmallList<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.0 {
            Items::One(item) => std::slice::from_mut(item),
            Items::Many(list) => list,
        }
    }
}

/// Equal when the items are, however they are stored.
impl<T: PartialEq> PartialEq for SmallList<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}
impl<T: Eq> Eq for SmallList<T> {}

/// The same JSON list a `Vec` writes.
impl<T: Serialize> Serialize for SmallList<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_like_a_list_whatever_its_length() {
        for n in 0..4u32 {
            let list: Vec<u32> = (0..n).collect();
            let mut small: SmallList<u32> = list.iter().copied().collect();
            assert_eq!(&*small, &list[..]);
            assert_eq!(SmallList::from(list.clone()), small);
            assert_eq!(
                serde_json::to_string(&small).unwrap(),
                serde_json::to_string(&list).unwrap()
            );
            small.iter_mut().for_each(|x| *x += 1);
            assert!(small.iter().copied().eq(1..=n));
        }
        assert_eq!(SmallList(Items::One(7)), SmallList(Items::Many(vec![7])));
    }
}

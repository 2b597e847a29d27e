//! `Map`: an object's members in a `Vec` kept sorted by key, found by binary search.
//!
//! In place of alloc's `BTreeMap` (whose node insertion, removal with rebalancing, subtree
//! cloning and iterators cost the wasm ~12 KB raw): the crate's objects have a handful of
//! members, where a sorted `Vec` is as fast and far smaller. Keys are ordered as `str`'s `Ord`
//! (bytewise), as `BTreeMap<String, _>` orders them, so objects are still iterated and written
//! with sorted keys, as serde_json's default map does.
//!
//! The key type stays a parameter only so that `Map<String, Value>` reads as before; the methods
//! are for `String` keys, looked up by `&str` (one instantiation, no `Borrow` generics).

use std::fmt;
use std::iter::FusedIterator;
use std::ops;
use std::slice;

/// An object's members, sorted by key.
#[derive(Clone, PartialEq, Eq)]
pub struct Map<K, V> {
    members: Vec<(K, V)>,
}

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map {
            members: Vec::new(),
        }
    }
}

impl<V> Map<String, V> {
    pub fn new() -> Self {
        Map::default()
    }

    /// `Ok(i)`: the member with `key` is at `i`; `Err(i)`: it would be inserted at `i`.
    fn position(&self, key: &str) -> Result<usize, usize> {
        self.members.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        match self.position(key) {
            Ok(i) => Some(&self.members[i].1),
            Err(_) => None,
        }
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        match self.position(key) {
            Ok(i) => Some(&mut self.members[i].1),
            Err(_) => None,
        }
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaces (the key itself is kept).
    pub fn insert(&mut self, key: String, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.members[i].1, value)),
            Err(i) => {
                self.members.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        match self.position(key) {
            Ok(i) => Some(self.members.remove(i).1),
            Err(_) => None,
        }
    }

    /// The value at `key`, inserting `default` first when absent (`entry(key).or_insert(…)`).
    pub fn get_or_insert(&mut self, key: &str, default: V) -> &mut V {
        let i = match self.position(key) {
            Ok(i) => i,
            Err(i) => {
                self.members.insert(i, (key.to_owned(), default));
                i
            }
        };
        &mut self.members[i].1
    }
}

impl<K, V> Map<K, V> {
    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Members in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.members.iter())
    }

    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut(self.members.iter_mut())
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.members.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.members.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.members.iter_mut().map(|(_, v)| v)
    }

    /// Keeps the members for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.members.retain_mut(|(k, v)| keep(k, v));
    }

    pub fn clear(&mut self) {
        self.members.clear();
    }
}

/// `map["key"]`: the value, panicking when absent (as `BTreeMap`).
impl<V> ops::Index<&str> for Map<String, V> {
    type Output = V;
    fn index(&self, key: &str) -> &V {
        match self.get(key) {
            Some(value) => value,
            None => panic!("key not in the JSON object"),
        }
    }
}

/// As `BTreeMap`'s: `{"a": 1, "b": 2}`.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Map<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Members in key order, as `(&key, &value)`.
#[derive(Clone)]
pub struct Iter<'a, K, V>(slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}
impl<K, V> FusedIterator for Iter<'_, K, V> {}

/// Members in key order, as `(&key, &mut value)`.
pub struct IterMut<'a, K, V>(slice::IterMut<'a, (K, V)>);

impl<'a, K, V> Iterator for IterMut<'a, K, V> {
    type Item = (&'a K, &'a mut V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for IterMut<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (&*k, v))
    }
}

impl<K, V> ExactSizeIterator for IterMut<'_, K, V> {}
impl<K, V> FusedIterator for IterMut<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut Map<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;
    fn into_iter(self) -> IterMut<'a, K, V> {
        self.iter_mut()
    }
}

/// Members in key order, by value.
impl<K, V> IntoIterator for Map<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter()
    }
}

impl<V> Map<String, V> {
    /// The map of `members` taken in order (a repeated key keeps its last value), in
    /// O(n log n): inserting member by member shifts the `Vec` on every out-of-order key, which
    /// is quadratic for a large object whose keys come in reverse order (a hostile body).
    pub fn from_members(mut members: Vec<(String, V)>) -> Self {
        // Stable: equal keys stay in input order, so the later one wins below.
        members.sort_by(|a, b| a.0.cmp(&b.0));
        let mut sorted: Vec<(String, V)> = Vec::with_capacity(members.len());
        for member in members {
            match sorted.last_mut() {
                Some(last) if last.0 == member.0 => *last = member,
                _ => sorted.push(member),
            }
        }
        Map { members: sorted }
    }
}

/// Member by member, as `insert`: a repeated key keeps its last value (as `BTreeMap`).
impl<V> Extend<(String, V)> for Map<String, V> {
    fn extend<I: IntoIterator<Item = (String, V)>>(&mut self, members: I) {
        for (key, value) in members {
            self.insert(key, value);
        }
    }
}

impl<V> FromIterator<(String, V)> for Map<String, V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(members: I) -> Self {
        let mut list = Vec::new();
        for member in members {
            list.push(member);
        }
        Map::from_members(list)
    }
}

#[cfg(test)]
mod tests {
    use super::Map;
    use std::collections::BTreeMap;

    fn map(members: &[(&str, i32)]) -> Map<String, i32> {
        members.iter().map(|&(k, v)| (k.to_owned(), v)).collect()
    }

    fn keys(map: &Map<String, i32>) -> Vec<&str> {
        map.keys().map(String::as_str).collect()
    }

    #[test]
    fn from_members_sorts_once_and_keeps_the_last_of_a_repeated_key() {
        let m = Map::from_members(
            [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5), ("b", 6)]
                .iter()
                .map(|&(k, v)| (k.to_owned(), v))
                .collect(),
        );
        assert_eq!(keys(&m), ["a", "b", "c"]);
        assert_eq!((m["a"], m["b"], m["c"]), (5, 6, 4));
        assert!(Map::<String, i32>::from_members(Vec::new()).is_empty());
    }

    /// 200,000 members in reverse key order: inserting them one by one would move ~2·10^10
    /// members (minutes); sorted once it is a fraction of a second even unoptimised.
    #[test]
    fn a_large_object_in_reverse_key_order_parses_in_n_log_n() {
        let n = 200_000;
        let mut text = String::from("{");
        for i in (0..n).rev() {
            text.push_str(&format!("\"k{i:06}\":{i},"));
        }
        text.pop();
        text.push('}');
        let value = crate::json::from_str(&text).unwrap();
        let object = value.as_object().unwrap();
        assert_eq!(object.len(), n);
        assert_eq!(object.keys().next().map(String::as_str), Some("k000000"));
        assert_eq!(object["k123456"].as_u64(), Some(123_456));
    }

    #[test]
    fn members_are_kept_in_bytewise_key_order() {
        let m = map(&[
            ("b", 1),
            ("a", 2),
            ("é", 3),
            ("Z", 4),
            ("", 5),
            ("ab", 6),
            ("a\u{0}", 7),
        ]);
        assert_eq!(keys(&m), ["", "Z", "a", "a\u{0}", "ab", "b", "é"]);
        let pairs: Vec<(&String, &i32)> = m.iter().collect();
        assert_eq!(pairs[0], (&String::new(), &5));
        assert_eq!(
            m.values().copied().collect::<Vec<_>>(),
            [5, 4, 2, 7, 6, 1, 3]
        );
        let owned: Vec<(String, i32)> = m.clone().into_iter().collect();
        assert_eq!(owned[6], ("é".to_owned(), 3));
        assert_eq!(m.iter().next_back(), Some((&"é".to_owned(), &3)));
        assert_eq!(m.len(), 7);
    }

    #[test]
    fn get_insert_remove() {
        let mut m: Map<String, i32> = Map::new();
        assert!(m.is_empty());
        assert_eq!(m.get("a"), None);
        assert_eq!(m.insert("a".to_owned(), 1), None);
        assert_eq!(m.insert("c".to_owned(), 3), None);
        assert_eq!(m.insert("a".to_owned(), 10), Some(1));
        assert_eq!(m.get("a"), Some(&10));
        assert_eq!(m["c"], 3);
        assert!(m.contains_key("c") && !m.contains_key("b"));
        if let Some(v) = m.get_mut("c") {
            *v += 1;
        }
        assert_eq!(*m.get_or_insert("b", 2), 2);
        assert_eq!(*m.get_or_insert("b", 99), 2);
        assert_eq!(keys(&m), ["a", "b", "c"]);
        assert_eq!(m.remove("b"), Some(2));
        assert_eq!(m.remove("b"), None);
        assert_eq!(m, map(&[("c", 4), ("a", 10)]));
        for (_, v) in &mut m {
            *v = -*v;
        }
        m.retain(|k, _| k != "a");
        assert_eq!(m, map(&[("c", -4)]));
        m.clear();
        assert!(m.is_empty());
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value() {
        let mut m = map(&[("a", 1), ("b", 2), ("a", 3)]);
        assert_eq!(m, map(&[("b", 2), ("a", 3)]));
        m.extend([("b".to_owned(), 4), ("c".to_owned(), 5)]);
        assert_eq!(m, map(&[("a", 3), ("b", 4), ("c", 5)]));
    }

    #[test]
    #[should_panic(expected = "key not in the JSON object")]
    fn indexing_an_absent_key_panics() {
        let _ = map(&[("a", 1)])["b"];
    }

    #[test]
    fn debug_reads_as_a_btree_map() {
        assert_eq!(
            format!("{:?}", map(&[("b", 2), ("a", 1)])),
            r#"{"a": 1, "b": 2}"#
        );
        assert_eq!(format!("{:?}", Map::<String, i32>::new()), "{}");
    }

    /// Pseudo-random inserts and removals against `BTreeMap`, which `Map` replaces.
    #[test]
    fn behaves_as_a_btree_map() {
        let mut seed: u32 = 0x1234_5678;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed >> 16
        };
        let mut ours: Map<String, u32> = Map::new();
        let mut theirs: BTreeMap<String, u32> = BTreeMap::new();
        for _ in 0..5000 {
            let key = format!("k{}", next() % 64);
            let value = next();
            match next() % 3 {
                0 => assert_eq!(ours.remove(&key), theirs.remove(&key)),
                _ => assert_eq!(ours.insert(key.clone(), value), theirs.insert(key, value)),
            }
            assert_eq!(ours.len(), theirs.len());
        }
        assert!(ours.iter().eq(theirs.iter()));
        assert!((0..64).all(|i| {
            let key = format!("k{i}");
            ours.get(&key) == theirs.get(&key)
        }));
    }
}

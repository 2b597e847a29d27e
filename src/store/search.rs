//! The index behind `/retrieve_entity_by_identifier`, so a lookup does not read every entity.
//!
//! - **Grams**: for every entity, each 1-, 2- and 3-byte substring of the lowercase texts a
//!   lookup matches (its canonical name and the values of the snapshot identifier fields, every
//!   value ever written) -> the entities that have it. A needle of length `k` can only be in an
//!   entity that has all its `min(k, 3)`-byte grams, so the shortest list of those grams, less
//!   what the others lack, gives the candidates, which the lookup then checks exactly. Entries
//!   are never removed (a name replaced by a later observation stays listed): candidates are a
//!   superset, never a miss. A gram of more than [`SATURATED`] entities is kept as a bit per
//!   entity instead of a list (smaller from there on).
//! - **Name order**: every entity ordered by canonical name (then creation), as answers are.
//!   When every gram of a needle is common (`chat-`, `conversation`, an e-mail domain), the
//!   lookup walks this order, skipping the entities the bits rule out, and stops at `limit`
//!   hits. It is a sorted list plus a short sorted list of the newest entities, merged in when
//!   it outgrows the square root of the first: an entity costs O(√n) moves, not O(n).

use std::cmp::Ordering;

use fnv::FnvHashMap;
use serde_json::Value;

use super::entities::Entity;
use super::schema::IDENTIFIER_FIELDS;

/// Entities a gram is listed for before its list becomes bits.
pub(crate) const SATURATED: usize = 4096;

/// What the grams say about a needle.
#[derive(Clone)]
pub(crate) enum Candidates {
    /// Only these entities (ascending) can contain it.
    Only(Vec<usize>),
    /// Only the entities whose bit is set can contain it.
    Bits(Vec<u64>),
    /// Any entity may.
    Any,
}

impl Candidates {
    /// Whether entity `index` may contain the needle (for `Only`, the caller reads the list).
    pub(crate) fn may_contain(&self, index: usize) -> bool {
        match self {
            Candidates::Bits(bits) => has_bit(bits, index),
            _ => true,
        }
    }

    /// These candidates and those of another needle (an entity may match either).
    pub(crate) fn or(self, other: Candidates) -> Candidates {
        match (self, other) {
            (Candidates::Only(mut a), Candidates::Only(b)) => {
                a.extend(b);
                a.sort_unstable();
                a.dedup();
                Candidates::Only(a)
            }
            (Candidates::Any, _) | (_, Candidates::Any) => Candidates::Any,
            (Candidates::Bits(mut bits), Candidates::Only(list))
            | (Candidates::Only(list), Candidates::Bits(mut bits)) => {
                for index in list {
                    set_bit(&mut bits, index);
                }
                Candidates::Bits(bits)
            }
            (Candidates::Bits(mut a), Candidates::Bits(b)) => {
                a.resize(a.len().max(b.len()), 0);
                for (word, other) in a.iter_mut().zip(b) {
                    *word |= other;
                }
                Candidates::Bits(a)
            }
        }
    }
}

fn has_bit(bits: &[u64], index: usize) -> bool {
    bits.get(index / 64)
        .is_some_and(|word| word & (1 << (index % 64)) != 0)
}

fn set_bit(bits: &mut Vec<u64>, index: usize) {
    if bits.len() <= index / 64 {
        bits.resize(index / 64 + 1, 0);
    }
    if let Some(word) = bits.get_mut(index / 64) {
        *word |= 1 << (index % 64);
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct SearchIndex {
    /// Gram ([`gram`]) -> its list in `postings`, or with [`BITS`] set, its bits in `bits`.
    grams: FnvHashMap<u32, u32>,
    /// Entity indexes, ascending, each once. `usize` like the store's other index lists (one
    /// copy of the code that sorts and searches them; 4 bytes in wasm).
    postings: Vec<Vec<usize>>,
    /// A bit per entity, for the grams of more than [`SATURATED`] entities.
    bits: Vec<Vec<u64>>,
    /// Entity indexes by [`answer_order`].
    by_name: Vec<usize>,
    /// The newest entities by [`answer_order`], not yet merged into `by_name`.
    recent: Vec<usize>,
}

/// The flag of a `grams` value that points into `bits`.
const BITS: u32 = 1 << 31;

/// A gram's key: its length in the top byte, its bytes below.
fn gram(bytes: &[u8]) -> u32 {
    let mut key = (bytes.len() as u32) << 24;
    for (shift, b) in bytes.iter().enumerate() {
        key |= u32::from(*b) << (8 * (2 - shift));
    }
    key
}

/// The order of answers: by canonical name, then creation.
pub(crate) fn answer_order(a: &&Entity, b: &&Entity) -> Ordering {
    a.canonical_name
        .cmp(&b.canonical_name)
        .then(a.seq.cmp(&b.seq))
}

/// [`answer_order`] of two entity indexes.
fn name_order(entities: &[Entity], a: usize, b: usize) -> Ordering {
    match (entities.get(a), entities.get(b)) {
        (Some(a), Some(b)) => answer_order(&a, &b),
        _ => a.cmp(&b),
    }
}

impl SearchIndex {
    /// Lists `entity` under every gram of `text` (lowercase).
    pub(crate) fn add_text(&mut self, entity: usize, text: &str) {
        let bytes = text.as_bytes();
        for start in 0..bytes.len() {
            for len in 1..=3 {
                if let Some(piece) = bytes.get(start..start + len) {
                    self.add_gram(gram(piece), entity);
                }
            }
        }
    }

    fn add_gram(&mut self, key: u32, entity: usize) {
        let slot = match self.grams.get(&key) {
            Some(slot) if slot & BITS != 0 => {
                if let Some(bits) = self.bits.get_mut((slot & !BITS) as usize) {
                    set_bit(bits, entity);
                }
                return;
            }
            Some(slot) => *slot as usize,
            None => {
                self.grams.insert(key, self.postings.len() as u32);
                self.postings.push(Vec::new());
                self.postings.len() - 1
            }
        };
        let Some(list) = self.postings.get_mut(slot) else {
            return;
        };
        match list.last() {
            Some(last) if *last == entity => return,
            Some(last) if *last > entity => {
                // An older entity's new value: kept in order.
                match list.binary_search(&entity) {
                    Ok(_) => return,
                    Err(at) => list.insert(at, entity),
                }
            }
            _ => list.push(entity),
        }
        if list.len() > SATURATED {
            let mut bits = Vec::new();
            for index in std::mem::take(list) {
                set_bit(&mut bits, index);
            }
            self.grams.insert(key, BITS | self.bits.len() as u32);
            self.bits.push(bits);
        }
    }

    /// The entities that may contain `needle` (lowercase).
    pub(crate) fn candidates(&self, needle: &str) -> Candidates {
        let bytes = needle.as_bytes();
        if bytes.is_empty() {
            return Candidates::Any;
        }
        let len = bytes.len().min(3);
        let mut lists: Vec<&[usize]> = Vec::new();
        let mut bits: Vec<&[u64]> = Vec::new();
        for start in 0..=bytes.len() - len {
            let Some(piece) = bytes.get(start..start + len) else {
                continue;
            };
            match self.grams.get(&gram(piece)) {
                // No entity has this gram.
                None => return Candidates::Only(Vec::new()),
                Some(slot) if slot & BITS != 0 => {
                    bits.extend(self.bits.get((slot & !BITS) as usize).map(Vec::as_slice));
                }
                Some(slot) => lists.extend(self.postings.get(*slot as usize).map(Vec::as_slice)),
            }
        }
        // The shortest list, less what each other gram lacks.
        let Some(shortest) = lists.iter().copied().min_by_key(|list| list.len()) else {
            // Only common grams: their bits, all set.
            let mut all = bits.first().map(|b| b.to_vec()).unwrap_or_default();
            for other in bits.iter().skip(1) {
                all.truncate(other.len());
                for (word, other) in all.iter_mut().zip(other.iter()) {
                    *word &= other;
                }
            }
            return Candidates::Bits(all);
        };
        let mut found = shortest.to_vec();
        found.retain(|entity| {
            lists
                .iter()
                .all(|list| std::ptr::eq(*list, shortest) || list.binary_search(entity).is_ok())
                && bits.iter().all(|bits| has_bit(bits, *entity))
        });
        Candidates::Only(found)
    }

    /// Lists `value` of snapshot field `field` for `entity` when lookups search that field.
    /// `canonical_lower` is the entity's, listed already: a value inside it (a message's turn key,
    /// a person's name) adds no gram.
    pub(crate) fn add_field(
        &mut self,
        entity: usize,
        canonical_lower: &str,
        field: &str,
        value: &Value,
    ) {
        if IDENTIFIER_FIELDS.contains(&field) {
            if let Some(text) = searchable_text(value) {
                if !canonical_lower.contains(text.as_str()) {
                    self.add_text(entity, &text);
                }
            }
        }
    }

    /// Indexes every entity at once (a store read back from its records).
    pub(crate) fn rebuild(&mut self, entities: &[Entity]) {
        *self = SearchIndex::default();
        for (index, entity) in entities.iter().enumerate() {
            self.add_text(index, &entity.canonical_lower);
            for (field, value) in &entity.snapshot {
                self.add_field(index, &entity.canonical_lower, field, value);
            }
        }
        let mut order: Vec<&Entity> = entities.iter().collect();
        order.sort_unstable_by(answer_order);
        self.by_name = order.iter().map(|e| e.seq).collect();
    }

    /// Puts a new entity (the last of `entities`) in name order.
    pub(crate) fn add_name(&mut self, entities: &[Entity], entity: usize) {
        let at = self
            .recent
            .partition_point(|other| name_order(entities, *other, entity).is_lt());
        self.recent.insert(at, entity);
        if self.recent.len() > 32 && self.recent.len().pow(2) > self.by_name.len() {
            self.merge_recent(entities);
        }
    }

    /// Moves `recent` into `by_name`: a binary search per recent entity, then one pass of copies.
    fn merge_recent(&mut self, entities: &[Entity]) {
        let recent = std::mem::take(&mut self.recent);
        let mut merged = Vec::with_capacity(self.by_name.len() + recent.len());
        let mut from = 0;
        for entity in recent {
            let rest = self.by_name.get(from..).unwrap_or_default();
            let at =
                from + rest.partition_point(|other| name_order(entities, *other, entity).is_lt());
            merged.extend_from_slice(self.by_name.get(from..at).unwrap_or_default());
            merged.push(entity);
            from = at;
        }
        merged.extend_from_slice(self.by_name.get(from..).unwrap_or_default());
        self.by_name = merged;
    }

    /// The first `limit` entities in name order that `candidates` allow and `keep` keeps. Where
    /// each recent entity goes is found by a binary search, so the walk compares no names.
    pub(crate) fn first_in_name_order<'a>(
        &self,
        entities: &'a [Entity],
        candidates: &Candidates,
        limit: usize,
        keep: &dyn Fn(&Entity) -> bool,
    ) -> Vec<&'a Entity> {
        let mut hits = Vec::new();
        let visit = |index: usize, hits: &mut Vec<&'a Entity>| {
            if candidates.may_contain(index) {
                if let Some(entity) = entities.get(index).filter(|e| keep(e)) {
                    hits.push(entity);
                }
            }
            hits.len() == limit
        };
        let mut from = 0;
        for recent in &self.recent {
            let rest = self.by_name.get(from..).unwrap_or_default();
            let at =
                from + rest.partition_point(|other| name_order(entities, *other, *recent).is_lt());
            for index in self.by_name.get(from..at).unwrap_or_default() {
                if visit(*index, &mut hits) {
                    return hits;
                }
            }
            if visit(*recent, &mut hits) {
                return hits;
            }
            from = at;
        }
        for index in self.by_name.get(from..).unwrap_or_default() {
            if visit(*index, &mut hits) {
                return hits;
            }
        }
        hits
    }
}

/// The text a lookup matches in a snapshot field's value: a string lowercased, a number as
/// serde_json prints it; nothing else ever matches.
pub(crate) fn searchable_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.to_lowercase()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Whether `text` lowercased contains `needle` (lowercase), without lowercasing an ASCII `text`.
pub(crate) fn contains_lowercase(text: &str, needle: &str) -> bool {
    if !text.is_ascii() {
        return text.to_lowercase().contains(needle);
    }
    // An ASCII text's lowercase is ASCII: a needle with anything else is not in it.
    let pin = needle.as_bytes();
    pin.is_empty()
        || text
            .as_bytes()
            .windows(pin.len())
            .any(|w| w.eq_ignore_ascii_case(pin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grams_pack_length_and_bytes() {
        assert_eq!(gram(b"a"), (1 << 24) | (u32::from(b'a') << 16));
        assert_ne!(gram(b"ab"), gram(b"a"));
        assert_ne!(gram(b"ab\0"), gram(b"ab"));
    }

    #[test]
    fn lists_stay_sorted_and_saturate() {
        let mut index = SearchIndex::default();
        index.add_text(5, "abc");
        index.add_text(2, "xabcx");
        index.add_text(5, "abc");
        let Candidates::Only(found) = index.candidates("abc") else {
            panic!("abc is rare")
        };
        assert_eq!(found, [2, 5]);
        let Candidates::Only(none) = index.candidates("abz") else {
            panic!("no entity has bz")
        };
        assert!(none.is_empty());
        for entity in 10..10 + SATURATED + 1 {
            index.add_text(entity, "qqq");
        }
        index.add_text(70_000, "qqq");
        let Candidates::Bits(bits) = index.candidates("qqq") else {
            panic!("qqq is common")
        };
        let set: Vec<usize> = (0..bits.len() * 64)
            .filter(|i| has_bit(&bits, *i))
            .collect();
        let mut expected: Vec<usize> = (10..10 + SATURATED + 1).collect();
        expected.push(70_000);
        assert_eq!(set, expected);
        // a rare gram with a common one: the list, less what the bits lack
        index.add_text(9, "aqq");
        index.add_text(11, "aqq");
        let Candidates::Only(found) = index.candidates("aqqq") else {
            panic!("aqq is rare")
        };
        assert_eq!(found, [11]);
    }

    #[test]
    fn candidates_of_either_needle() {
        let members = |c: &Candidates| -> Vec<usize> {
            match c {
                Candidates::Only(list) => list.clone(),
                Candidates::Bits(bits) => {
                    (0..bits.len() * 64).filter(|i| has_bit(bits, *i)).collect()
                }
                Candidates::Any => vec![usize::MAX],
            }
        };
        let bits = |set: &[usize]| {
            let mut bits = Vec::new();
            for i in set {
                set_bit(&mut bits, *i);
            }
            Candidates::Bits(bits)
        };
        let only = |set: &[usize]| Candidates::Only(set.to_vec());
        assert_eq!(members(&only(&[5, 1]).or(only(&[3, 5]))), [1, 3, 5]);
        assert_eq!(members(&bits(&[2, 130]).or(only(&[7]))), [2, 7, 130]);
        assert_eq!(members(&only(&[7]).or(bits(&[200]))), [7, 200]);
        assert_eq!(members(&bits(&[2, 300]).or(bits(&[3]))), [2, 3, 300]);
        assert_eq!(members(&bits(&[1]).or(Candidates::Any)), [usize::MAX]);
        assert!(bits(&[64]).may_contain(64) && !bits(&[64]).may_contain(65));
        assert!(Candidates::Any.may_contain(9));
    }

    #[test]
    fn lowercase_containment() {
        assert!(contains_lowercase("Acme Corp", "me c"));
        assert!(!contains_lowercase("Acme Corp", "é"));
        assert!(contains_lowercase("ÉCOLE", "éc"));
        // the Kelvin sign lowercases to an ASCII k
        assert!(contains_lowercase("\u{212A}ey", "key"));
        assert!(contains_lowercase("x", ""));
    }
}

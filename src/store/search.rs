//! The index behind `/retrieve_entity_by_identifier`, so a lookup does not read every entity.
//!
//! - **Grams**: for every entity, each 1-, 2- and 3-byte substring of the lowercase texts a
//!   lookup matches (its canonical name and the values of the snapshot identifier fields, every
//!   value ever written) -> the entities that have it, ascending. A needle of length `k` can only
//!   be in an entity that has all its `min(k, 3)`-byte grams, so the shortest lists of those
//!   grams give the candidates, which the lookup then checks exactly. Lists only grow (a name
//!   replaced by a later observation stays listed): candidates are a superset, never a miss.
//!   A gram in more than [`SATURATED`] entities says too little to be worth its memory: its list
//!   is dropped and it is never used for candidates again.
//! - **Name order**: every entity ordered by canonical name (then creation), as answers are.
//!   When every gram of a needle is saturated (a needle common to many entities, `chat-`,
//!   `conversation`), the lookup walks this order and stops at `limit` hits. It is a sorted list
//!   plus a short sorted list of the newest entities, merged in when it outgrows the square root
//!   of the first: an entity costs O(√n) moves, not O(n).

use std::cmp::Ordering;

use fnv::FnvHashMap;
use serde_json::Value;

use super::entities::Entity;
use super::schema::IDENTIFIER_FIELDS;

/// Entities a gram may be listed for before its list is dropped.
pub(crate) const SATURATED: usize = 4096;

/// What the grams say about a needle.
#[derive(Clone)]
pub(crate) enum Candidates {
    /// Only these entities (ascending) can contain it.
    Only(Vec<usize>),
    /// Every gram is saturated: any entity may.
    Any,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct SearchIndex {
    /// Gram ([`gram`]) -> its list in `postings`, or [`DROPPED`] once saturated (one probe for
    /// the grams most texts have).
    grams: FnvHashMap<u32, u32>,
    /// Entity indexes, ascending, each once. `usize` like the store's other index lists (one
    /// copy of the code that sorts and searches them; 4 bytes in wasm).
    postings: Vec<Vec<usize>>,
    /// Entity indexes by [`answer_order`].
    by_name: Vec<usize>,
    /// The newest entities by [`answer_order`], not yet merged into `by_name`.
    recent: Vec<usize>,
}

/// The `grams` value of a saturated gram.
const DROPPED: u32 = u32::MAX;

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
            Some(&DROPPED) => return,
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
            *list = Vec::new();
            self.grams.insert(key, DROPPED);
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
        for start in 0..=bytes.len() - len {
            let Some(piece) = bytes.get(start..start + len) else {
                continue;
            };
            match self.grams.get(&gram(piece)) {
                // No entity has this gram.
                None => return Candidates::Only(Vec::new()),
                Some(&DROPPED) => {}
                Some(slot) => lists.extend(self.postings.get(*slot as usize).map(Vec::as_slice)),
            }
        }
        // The shortest list, less what each other list lacks (a binary search each).
        let mut shortest: Option<&[usize]> = None;
        for list in &lists {
            if shortest.is_none_or(|s| list.len() < s.len()) {
                shortest = Some(list);
            }
        }
        let Some(shortest) = shortest else {
            return Candidates::Any;
        };
        let mut found = shortest.to_vec();
        for list in lists {
            if !std::ptr::eq(list, shortest) {
                found.retain(|entity| list.binary_search(entity).is_ok());
            }
        }
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

    /// The first `limit` entities in name order that `keep` keeps.
    pub(crate) fn first_in_name_order<'a>(
        &self,
        entities: &'a [Entity],
        limit: usize,
        keep: &dyn Fn(&Entity) -> bool,
    ) -> Vec<&'a Entity> {
        let mut hits = Vec::new();
        let (mut main, mut recent) = (0, 0);
        while hits.len() < limit {
            let next = match (self.by_name.get(main), self.recent.get(recent)) {
                (Some(a), Some(b)) if name_order(entities, *b, *a).is_lt() => {
                    recent += 1;
                    *b
                }
                (Some(a), _) => {
                    main += 1;
                    *a
                }
                (None, Some(b)) => {
                    recent += 1;
                    *b
                }
                (None, None) => break,
            };
            if let Some(entity) = entities.get(next).filter(|e| keep(e)) {
                hits.push(entity);
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
    let (hay, pin) = (text.as_bytes(), needle.as_bytes());
    if pin.len() > hay.len() {
        return false;
    }
    for start in 0..=hay.len() - pin.len() {
        if hay
            .get(start..start + pin.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(pin))
        {
            return true;
        }
    }
    false
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
            index.add_text(entity, "q");
        }
        assert!(matches!(index.candidates("q"), Candidates::Any));
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

//! `HashMap`/`HashSet` with FNV-1a hashing, for every map in the crate.
//!
//! std's default SipHash with `RandomState` adds its hasher, key setup and one `hash_one` per
//! key type to the wasm (about 1 KB gzipped). Nothing iterates these maps in hash order (only
//! get/insert/remove), so results are the same; and on wasm32-unknown-unknown std's keys are
//! not random anyway.

use std::hash::{BuildHasherDefault, Hasher};

// hashbrown is what std's maps are built on; used directly as alloc has no hash maps.
pub type HashMap<K, V> = hashbrown::HashMap<K, V, BuildHasherDefault<Fnv1a>>;
pub type HashSet<T> = hashbrown::HashSet<T, BuildHasherDefault<Fnv1a>>;

/// 64-bit FNV-1a.
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_known_values_and_maps() {
        let hash = |s: &str| {
            let mut h = Fnv1a::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
        let mut map: HashMap<String, usize> = HashMap::default();
        for i in 0..1000 {
            map.insert(format!("ent_{i}"), i);
        }
        assert!((0..1000).all(|i| map.get(&format!("ent_{i}")) == Some(&i)));
    }
}

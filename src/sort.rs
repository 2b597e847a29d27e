//! One stable sort for every list the crate orders (store listings, parsed JSON objects). `slice::sort_by` is instantiated per element
//! type and comparator (several KB of wasm each); this is one small merge sort behind a `dyn`
//! comparator, with the same result as any stable sort.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, keeping the order of equal items.
pub(crate) fn sort_by<T: Copy>(items: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|i, j| cmp(&items[i], &items[j]));
    let mut sorted = Vec::with_capacity(items.len());
    for i in order {
        sorted.push(items[i]);
    }
    items.copy_from_slice(&sorted);
}

/// The indexes `0..len` in sorted order (bottom-up merge sort; a tie keeps the left item first).
pub(crate) fn stable_order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut merged = vec![0; len];
    let mut width = 1;
    while width < len {
        let mut start = 0;
        while start < len {
            let mid = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let (mut left, mut right) = (start, mid);
            for slot in &mut merged[start..end] {
                let take_left = right >= end
                    || (left < mid && cmp(order[right], order[left]) != Ordering::Less);
                if take_left {
                    *slot = order[left];
                    left += 1;
                } else {
                    *slot = order[right];
                    right += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_matches_std_stable_sort() {
        // Pairs sorted by the first item only: ties must keep their input order.
        let mut seed = 7u32;
        for len in 0..70 {
            let input: Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((seed >> 16) % 5, i)
                })
                .collect();
            let mut ours = input.clone();
            sort_by(&mut ours, &|a, b| a.0.cmp(&b.0));
            let mut std_sorted = input.clone();
            std_sorted.sort_by_key(|a| a.0);
            assert_eq!(ours, std_sorted, "len {len}");
        }
    }
}

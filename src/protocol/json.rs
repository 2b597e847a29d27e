//! `json!` as serde_json writes it, except that a value expression becomes
//! `to_value(&x).unwrap_or_default()` instead of `.unwrap()`.
//!
//! `to_value` cannot fail for what this crate puts in its JSON (strings, numbers, maps with
//! string keys, serde-derived structs), so the result is the same; but each `.unwrap()` links
//! `serde_json::Error`'s `Debug`, which links `str`'s `Debug` and Unicode's printable tables
//! (2.6 KB of the gzipped wasm). The macros below are serde_json 1.0's (MIT OR Apache-2.0) with
//! that one line changed and the paths made absolute.

/// `json!({ "key": value, … })`: see `serde_json::json!`.
macro_rules! json {
    ($($json:tt)+) => {
        $crate::protocol::json::json_internal!($($json)+)
    };
}

macro_rules! json_internal {

    (@array [$($elems:expr,)*]) => {
        ::alloc::vec![$($elems,)*]
    };

    (@array [$($elems:expr),*]) => {
        ::alloc::vec![$($elems),*]
    };

    (@array [$($elems:expr,)*] null $($rest:tt)*) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)* $crate::protocol::json::json_internal!(null)] $($rest)*)
    };

    (@array [$($elems:expr,)*] true $($rest:tt)*) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)* $crate::protocol::json::json_internal!(true)] $($rest)*)
    };

    (@array [$($elems:expr,)*] false $($rest:tt)*) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)* $crate::protocol::json::json_internal!(false)] $($rest)*)
    };

    (@array [$($elems:expr,)*] [$($array:tt)*] $($rest:tt)*) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)* $crate::protocol::json::json_internal!([$($array)*])] $($rest)*)
    };

    (@array [$($elems:expr,)*] {$($map:tt)*} $($rest:tt)*) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)* $crate::protocol::json::json_internal!({$($map)*})] $($rest)*)
    };

    (@array [$($elems:expr,)*] $next:expr, $($rest:tt)*) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)* $crate::protocol::json::json_internal!($next),] $($rest)*)
    };

    (@array [$($elems:expr,)*] $last:expr) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)* $crate::protocol::json::json_internal!($last)])
    };

    (@array [$($elems:expr),*] , $($rest:tt)*) => {
        $crate::protocol::json::json_internal!(@array [$($elems,)*] $($rest)*)
    };

    (@array [$($elems:expr),*] $unexpected:tt $($rest:tt)*) => {
        $crate::protocol::json::json_unexpected!($unexpected)
    };

    (@object $object:ident () () ()) => {};

    (@object $object:ident [$($key:tt)+] ($value:expr) , $($rest:tt)*) => {
        let _ = $object.insert(($($key)+).into(), $value);
        $crate::protocol::json::json_internal!(@object $object () ($($rest)*) ($($rest)*));
    };

    (@object $object:ident [$($key:tt)+] ($value:expr) $unexpected:tt $($rest:tt)*) => {
        $crate::protocol::json::json_unexpected!($unexpected);
    };

    (@object $object:ident [$($key:tt)+] ($value:expr)) => {
        let _ = $object.insert(($($key)+).into(), $value);
    };

    (@object $object:ident ($($key:tt)+) (: null $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object [$($key)+] ($crate::protocol::json::json_internal!(null)) $($rest)*);
    };

    (@object $object:ident ($($key:tt)+) (: true $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object [$($key)+] ($crate::protocol::json::json_internal!(true)) $($rest)*);
    };

    (@object $object:ident ($($key:tt)+) (: false $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object [$($key)+] ($crate::protocol::json::json_internal!(false)) $($rest)*);
    };

    (@object $object:ident ($($key:tt)+) (: [$($array:tt)*] $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object [$($key)+] ($crate::protocol::json::json_internal!([$($array)*])) $($rest)*);
    };

    (@object $object:ident ($($key:tt)+) (: {$($map:tt)*} $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object [$($key)+] ($crate::protocol::json::json_internal!({$($map)*})) $($rest)*);
    };

    (@object $object:ident ($($key:tt)+) (: $value:expr , $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object [$($key)+] ($crate::protocol::json::json_internal!($value)) , $($rest)*);
    };

    (@object $object:ident ($($key:tt)+) (: $value:expr) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object [$($key)+] ($crate::protocol::json::json_internal!($value)));
    };

    (@object $object:ident ($($key:tt)+) (:) $copy:tt) => {
        $crate::protocol::json::json_internal!();
    };

    (@object $object:ident ($($key:tt)+) () $copy:tt) => {
        $crate::protocol::json::json_internal!();
    };

    (@object $object:ident () (: $($rest:tt)*) ($colon:tt $($copy:tt)*)) => {
        $crate::protocol::json::json_unexpected!($colon);
    };

    (@object $object:ident ($($key:tt)*) (, $($rest:tt)*) ($comma:tt $($copy:tt)*)) => {
        $crate::protocol::json::json_unexpected!($comma);
    };

    (@object $object:ident () (($key:expr) : $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object ($key) (: $($rest)*) (: $($rest)*));
    };

    (@object $object:ident ($($key:tt)*) (: $($unexpected:tt)+) $copy:tt) => {
        $crate::protocol::json::json_expect_expr_comma!($($unexpected)+);
    };

    (@object $object:ident ($($key:tt)*) ($tt:tt $($rest:tt)*) $copy:tt) => {
        $crate::protocol::json::json_internal!(@object $object ($($key)* $tt) ($($rest)*) ($($rest)*));
    };

    (null) => {
        ::serde_json::Value::Null
    };

    (true) => {
        ::serde_json::Value::Bool(true)
    };

    (false) => {
        ::serde_json::Value::Bool(false)
    };

    ([]) => {
        ::serde_json::Value::Array(::alloc::vec![])
    };

    ([ $($tt:tt)+ ]) => {
        ::serde_json::Value::Array($crate::protocol::json::json_internal!(@array [] $($tt)+))
    };

    ({}) => {
        ::serde_json::Value::Object(::serde_json::Map::new())
    };

    ({ $($tt:tt)+ }) => {
        ::serde_json::Value::Object({
            let mut object = ::serde_json::Map::new();
            $crate::protocol::json::json_internal!(@object object () ($($tt)+) ($($tt)+));
            object
        })
    };

    ($other:expr) => {
        ::serde_json::to_value(&$other).unwrap_or_default()
    };
}

// Only expanded for malformed input, to point the compile error at the offending token.
#[allow(unused_macros)]
macro_rules! json_unexpected {
    () => {};
}

#[allow(unused_macros)]
macro_rules! json_expect_expr_comma {
    ($e:expr , $($tt:tt)*) => {};
}

pub(crate) use json;
#[allow(unused_imports)]
pub(crate) use json_expect_expr_comma;
pub(crate) use json_internal;
#[allow(unused_imports)]
pub(crate) use json_unexpected;

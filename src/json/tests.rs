//! The JSON module on its own: what it reads, refuses and writes. tests/prop_json.rs checks it
//! against serde_json on generated values and text.

use super::{from_str, to_string, Map, Number, ToJson, Value, Writer};
use crate::json;

fn round_trip(text: &str) -> String {
    match from_str(text) {
        Ok(v) => to_string(&v),
        Err(e) => panic!("{text}: {e}"),
    }
}

#[test]
fn reads_every_kind_of_value() {
    let v = from_str(r#" { "a" : [1, -2.5e3, true, false, null, "x"], "b": {}, "c": [] } "#)
        .expect("valid JSON");
    assert_eq!(
        v,
        json!({"a": [1, Value::Number(Number::from_literal("-2.5e3").expect("number")), true, false, null, "x"], "b": {}, "c": []})
    );
    assert_eq!(v["a"][0].as_u64(), Some(1));
    assert_eq!(v["a"][5], "x");
    assert!(v["missing"].is_null());
    assert!(v["a"][99].is_null());
    assert_eq!(v.get("b").and_then(Value::as_object), Some(&Map::new()));
}

#[test]
fn writes_compact_text_with_sorted_keys() {
    assert_eq!(
        round_trip(r#"{"z": 1, "a": {"y": [1, 2], "b": null}}"#),
        r#"{"a":{"b":null,"y":[1,2]},"z":1}"#
    );
    assert_eq!(round_trip("[]"), "[]");
    assert_eq!(round_trip("{}"), "{}");
    assert_eq!(round_trip(" \t\r\n\"x\" "), "\"x\"");
}

#[test]
fn a_repeated_key_keeps_its_last_value() {
    assert_eq!(round_trip(r#"{"a":1,"a":2}"#), r#"{"a":2}"#);
}

#[test]
fn numbers_keep_their_text() {
    for text in [
        "0",
        "-0",
        "12345678901234567890123456789",
        "-9223372036854775809",
        "1.5",
        "1E+2",
        "1e-7",
        "-2.50e10",
        "0.000000000000000000000000001",
        "1.7976931348623157e308",
        "4.9e-324",
        "1e-999999",
    ] {
        assert_eq!(round_trip(text), text);
    }
}

#[test]
fn integer_accessors_read_the_digits() {
    let n = |t: &str| Number::from_literal(t).expect("number");
    assert_eq!(n("18446744073709551615").as_u64(), Some(u64::MAX));
    assert_eq!(n("18446744073709551616").as_u64(), None);
    assert_eq!(n("-9223372036854775808").as_i64(), Some(i64::MIN));
    assert_eq!(n("-9223372036854775809").as_i64(), None);
    assert_eq!(n("9223372036854775807").as_i64(), Some(i64::MAX));
    assert_eq!(n("9223372036854775808").as_i64(), None);
    assert_eq!(n("-1").as_u64(), None);
    assert_eq!(n("1.0").as_u64(), None);
    assert_eq!(n("1e2").as_i64(), None);
    assert_eq!(n("1e2").as_f64(), Some(100.0));
    assert_eq!(n("-0.25").as_f64(), Some(-0.25));
    assert_eq!(Value::from(7u32), 7);
    assert_eq!(Value::from(-7i64).as_i64(), Some(-7));
}

#[test]
fn number_literals_are_checked() {
    for bad in [
        "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x1", "1 ", "NaN", "Infinity",
    ] {
        assert_eq!(Number::from_literal(bad), None, "{bad}");
    }
}

#[test]
fn floats_are_written_as_the_shortest_text_that_reads_back() {
    let text = |f: f64| Number::from_f64(f).map(|n| n.as_str().to_owned());
    assert_eq!(text(0.1).as_deref(), Some("0.1"));
    assert_eq!(text(-2.5).as_deref(), Some("-2.5"));
    assert_eq!(text(3.0).as_deref(), Some("3"));
    assert_eq!(
        text(9_007_199_254_740_991.0).as_deref(),
        Some("9007199254740991")
    );
    // Beyond the exact JS integers: still a float, so JS takes it as it is.
    assert_eq!(
        text(9_007_199_254_740_992.0).as_deref(),
        Some("9007199254740992.0")
    );
    assert_eq!(text(f64::NAN), None);
    assert_eq!(text(f64::INFINITY), None);
    assert_eq!(Value::from(f64::NEG_INFINITY), Value::Null);
    for f in [f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e21, 1.0 / 3.0, -1e-7] {
        let n = Number::from_f64(f).expect("finite");
        assert_eq!(from_str(n.as_str()).ok(), Some(Value::Number(n.clone())));
        assert_eq!(n.as_f64(), Some(f));
    }
}

#[test]
fn numbers_beyond_the_float_range_are_refused() {
    for bad in [
        "1e309",
        "-1e400",
        "1.8e308",
        "17976931348623159e292",
        "1e99999999999999999999",
    ] {
        assert_eq!(
            from_str(bad).map_err(|e| e.reason()),
            Err("number out of range"),
            "{bad}"
        );
    }
    for good in [
        "1.7976931348623157e308",
        "0.00001e313",
        "1e308",
        "1e-400",
        "0e999999",
    ] {
        assert!(from_str(good).is_ok(), "{good}");
    }
}

#[test]
fn js_exactness_of_integers() {
    let exact = |t: &str| Number::from_literal(t).expect("number").is_js_exact();
    assert!(exact("9007199254740991"));
    assert!(exact("-9007199254740991"));
    assert!(!exact("9007199254740992"));
    assert!(!exact("-12345678901234567890"));
    assert!(exact("9007199254740993.0"));
    assert!(exact("1e300"));
    let mut w = Writer::new();
    json!({"a": [1, u64::MAX]}).write_json(&mut w);
    assert!(!w.is_js_exact());
}

#[test]
fn strings_escape_as_serde_json() {
    let all_controls: String = (0u8..0x20).map(char::from).collect();
    assert_eq!(
        to_string(&Value::from(all_controls.as_str())),
        "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\""
    );
    assert_eq!(
        to_string(&Value::from(
            "quote \" backslash \\ slash / del \u{7f} é € 😀 \u{2028}"
        )),
        "\"quote \\\" backslash \\\\ slash / del \u{7f} é € 😀 \u{2028}\""
    );
    let text = to_string(&Value::from(all_controls.as_str()));
    assert_eq!(from_str(&text).ok(), Some(Value::from(all_controls)));
}

#[test]
fn escapes_are_read() {
    assert_eq!(
        from_str(r#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#).ok(),
        Some(Value::from("\"\\/\u{8}\u{c}\n\r\t\u{41}é€😀"))
    );
}

#[test]
fn what_serde_json_refuses_is_refused() {
    for (bad, reason) in [
        ("", "EOF while parsing a value"),
        ("   ", "EOF while parsing a value"),
        ("[1,]", "trailing comma"),
        (r#"{"a":1,}"#, "trailing comma"),
        ("[1 2]", "expected `,` or `]`"),
        (r#"{"a" 1}"#, "expected `:`"),
        (r#"{"a":1 "b":2}"#, "expected `,` or `}`"),
        ("{1:2}", "key must be a string"),
        ("[1", "EOF while parsing a list"),
        (r#"{"a":1"#, "EOF while parsing an object"),
        ("\"abc", "EOF while parsing a string"),
        (
            "\"a\nb\"",
            "control character (\\u0000-\\u001F) found while parsing a string",
        ),
        (
            "\"a\u{0}b\"",
            "control character (\\u0000-\\u001F) found while parsing a string",
        ),
        (r#""\x""#, "invalid escape"),
        (r#""\u12G4""#, "invalid escape"),
        (r#""\ud800""#, "unexpected end of hex escape"),
        (r#""\ud800\n""#, "unexpected end of hex escape"),
        (r#""\ud800\u0041""#, "lone leading surrogate in hex escape"),
        (r#""\udc00""#, "lone leading surrogate in hex escape"),
        ("tru", "EOF while parsing a value"),
        ("trux", "expected ident"),
        ("nul", "EOF while parsing a value"),
        ("01", "invalid number"),
        ("-", "invalid number"),
        ("1.", "invalid number"),
        ("1.e5", "invalid number"),
        ("-a", "invalid number"),
        (".5", "expected value"),
        ("+1", "expected value"),
        ("NaN", "expected value"),
        ("'a'", "expected value"),
        ("1 2", "trailing characters"),
        ("{} x", "trailing characters"),
        ("\u{feff}{}", "expected value"),
    ] {
        assert_eq!(
            from_str(bad).map_err(|e| e.reason()),
            Err(reason),
            "{bad:?}"
        );
    }
}

#[test]
fn errors_say_where() {
    let e = from_str("{\n  \"a\": [1,\n  ]\n}").expect_err("trailing comma");
    assert_eq!(e.to_string(), "trailing comma at line 3 column 3");
    let e = from_str("[1, x]").expect_err("not a value");
    assert_eq!(e.to_string(), "expected value at line 1 column 5");
}

#[test]
fn nesting_is_limited() {
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(from_str(&nested(127)).is_ok());
    assert_eq!(
        from_str(&nested(128)).map_err(|e| e.reason()),
        Err("recursion limit exceeded")
    );
    // Deep enough to overflow the stack without the limit.
    assert!(from_str(&nested(1_000_000)).is_err());
    let objects = format!("{}null{}", "{\"a\":".repeat(128), "}".repeat(128));
    assert!(from_str(&objects).is_err());
}

#[test]
fn the_macro_and_to_json_build_values() {
    let name: Option<String> = None;
    let ids = vec!["a".to_owned(), "b".to_owned()];
    let v = json!({
        "name": name,
        "ids": ids,
        "n": 3u32,
        "f": 0.5,
        "nested": {"ok": true, "list": [1, "two", null]},
        "computed": format!("{}-{}", "x", 1),
    });
    assert_eq!(
        v.to_string(),
        r#"{"computed":"x-1","f":0.5,"ids":["a","b"],"n":3,"name":null,"nested":{"list":[1,"two",null],"ok":true}}"#
    );
    assert_eq!(ids.to_json(), json!(["a", "b"]));
}

#[test]
fn struct_writers_keep_field_order() {
    struct Pair {
        second: u32,
        first: Option<&'static str>,
    }
    impl ToJson for Pair {
        fn write_json(&self, w: &mut Writer) {
            w.object()
                .field("second", &self.second)
                .field_if_some("first", self.first.as_ref().map(|f| f as _))
                .end();
        }
    }
    let pair = Pair {
        second: 2,
        first: Some("one"),
    };
    assert_eq!(to_string(&pair), r#"{"second":2,"first":"one"}"#);
    assert_eq!(pair.to_json().to_string(), r#"{"first":"one","second":2}"#);
    let pair = Pair {
        second: 2,
        first: None,
    };
    assert_eq!(to_string(&pair), r#"{"second":2}"#);
}

#[test]
fn to_json_keeps_values_deeper_than_the_parsing_limit() {
    struct Wrapper(Value);
    impl ToJson for Wrapper {
        fn write_json(&self, w: &mut Writer) {
            w.object().field("inner", &self.0).end();
        }
    }
    let deep = from_str(&format!("{}{}", "[".repeat(127), "]".repeat(127))).expect("at the limit");
    let wrapped = Wrapper(deep.clone()).to_json();
    assert_eq!(wrapped["inner"], deep);
}

#[test]
fn indexing_for_writes() {
    let mut v = Value::Null;
    v["a"] = json!([1, 2]);
    v["a"][1] = json!("x");
    assert_eq!(v, json!({"a": [1, "x"]}));
    assert_eq!(v.get("a").and_then(|a| a.get(1)), Some(&json!("x")));
}

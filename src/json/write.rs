//! Compact JSON text, byte for byte what `serde_json::to_string` writes for the same value, and
//! [`ToJson`]: how Rust values become JSON (text, or a [`Value`] for `json!`).

use super::map::Map;
use super::number::{is_js_exact, Number};
use super::parse::from_own_text;
use super::value::Value;

/// Compact JSON text being written.
#[derive(Default)]
pub struct Writer {
    text: String,
    /// Set when a number was written that a JS number would not hold exactly.
    js_inexact: bool,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    /// The text written.
    pub fn into_text(self) -> String {
        self.text
    }

    /// Whether every integer written is exact as a JS number (|n| ≤ 2^53 − 1).
    pub fn is_js_exact(&self) -> bool {
        !self.js_inexact
    }

    pub fn null(&mut self) {
        self.text.push_str("null");
    }

    pub fn bool(&mut self, b: bool) {
        self.text.push_str(if b { "true" } else { "false" });
    }

    /// A number's JSON text as it is.
    pub fn number(&mut self, literal: &str) {
        self.js_inexact |= !is_js_exact(literal);
        self.text.push_str(literal);
    }

    /// A string, quoted: `"` and `\` escaped, control characters as `\n`-style escapes or
    /// `\u00XX`; everything else (non-ASCII included) as it is.
    pub fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.text.push('"');
        let mut start = 0;
        for (i, b) in s.bytes().enumerate() {
            let escape = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..0x20 => "",
                _ => continue,
            };
            self.text.push_str(s.get(start..i).unwrap_or_default());
            if escape.is_empty() {
                self.text.push_str("\\u00");
                self.text.push(char::from(HEX[usize::from(b >> 4)]));
                self.text.push(char::from(HEX[usize::from(b & 0xf)]));
            } else {
                self.text.push_str(escape);
            }
            start = i + 1;
        }
        self.text.push_str(s.get(start..).unwrap_or_default());
        self.text.push('"');
    }

    /// `[…]` of `items`.
    pub fn array<'a, T: ToJson + 'a>(&mut self, items: impl IntoIterator<Item = &'a T>) {
        self.text.push('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.text.push(',');
            }
            item.write_json(self);
        }
        self.text.push(']');
    }

    /// `{…}`, member by member: `w.object().field("a", &a).field("b", &b).end()`. Members are
    /// written in the order given (a struct's field order, as serde's derive writes them).
    pub fn object(&mut self) -> ObjectWriter<'_> {
        self.text.push('{');
        ObjectWriter {
            writer: self,
            empty: true,
        }
    }

    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => self.number(n.as_str()),
            Value::String(s) => self.string(s),
            Value::Array(items) => self.array(items),
            Value::Object(map) => self.map(map),
        }
    }

    fn map<T: ToJson>(&mut self, map: &Map<String, T>) {
        let mut object = self.object();
        for (key, value) in map {
            object = object.field(key, value);
        }
        object.end();
    }
}

/// An object being written (see [`Writer::object`]).
pub struct ObjectWriter<'w> {
    writer: &'w mut Writer,
    empty: bool,
}

impl ObjectWriter<'_> {
    pub fn field(mut self, key: &str, value: &dyn ToJson) -> Self {
        if !self.empty {
            self.writer.text.push(',');
        }
        self.empty = false;
        self.writer.string(key);
        self.writer.text.push(':');
        value.write_json(self.writer);
        self
    }

    /// A member written only when there is a value (serde's `skip_serializing_if = "Option::is_none"`).
    pub fn field_if_some(self, key: &str, value: Option<&dyn ToJson>) -> Self {
        match value {
            Some(value) => self.field(key, value),
            None => self,
        }
    }

    pub fn end(self) {
        self.writer.text.push('}');
    }
}

/// A Rust value as JSON: what serde's `Serialize` did for this crate.
pub trait ToJson {
    /// Writes the value as compact JSON text.
    fn write_json(&self, w: &mut Writer);

    /// The value as a [`Value`] (objects then have sorted keys, as serde_json's `to_value`).
    /// By default, read back from the text [`write_json`](Self::write_json) writes.
    fn to_json(&self) -> Value {
        from_own_text(&to_string(self)).unwrap_or_default()
    }
}

/// Compact JSON text of `value`, as `serde_json::to_string`.
pub fn to_string<T: ToJson + ?Sized>(value: &T) -> String {
    let mut w = Writer::new();
    value.write_json(&mut w);
    w.into_text()
}

impl ToJson for Value {
    fn write_json(&self, w: &mut Writer) {
        w.value(self);
    }
    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl ToJson for Number {
    fn write_json(&self, w: &mut Writer) {
        w.number(self.as_str());
    }
    fn to_json(&self) -> Value {
        Value::Number(self.clone())
    }
}

impl ToJson for str {
    fn write_json(&self, w: &mut Writer) {
        w.string(self);
    }
    fn to_json(&self) -> Value {
        Value::String(self.to_owned())
    }
}

impl ToJson for String {
    fn write_json(&self, w: &mut Writer) {
        w.string(self);
    }
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToJson for bool {
    fn write_json(&self, w: &mut Writer) {
        w.bool(*self);
    }
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

/// `null` for NaN and ±Infinity, as serde_json.
impl ToJson for f64 {
    fn write_json(&self, w: &mut Writer) {
        match Number::from_f64(*self) {
            Some(n) => w.number(n.as_str()),
            None => w.null(),
        }
    }
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

macro_rules! integer_to_json {
    ($($t:ty)*) => {$(
        impl ToJson for $t {
            fn write_json(&self, w: &mut Writer) {
                w.number(Number::from(*self).as_str());
            }
            fn to_json(&self) -> Value {
                Value::Number(Number::from(*self))
            }
        }
    )*};
}

integer_to_json!(u8 u16 u32 u64 usize i32 i64);

/// `null` for `None`.
impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, w: &mut Writer) {
        match self {
            Some(v) => v.write_json(w),
            None => w.null(),
        }
    }
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToJson::to_json)
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, w: &mut Writer) {
        w.array(self);
    }
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, w: &mut Writer) {
        w.array(self);
    }
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
}

impl<T: ToJson> ToJson for Map<String, T> {
    fn write_json(&self, w: &mut Writer) {
        w.map(self);
    }
    fn to_json(&self) -> Value {
        Value::Object(self.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, w: &mut Writer) {
        (**self).write_json(w);
    }
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

//! Error answers shaped like the real server's.
//!
//! Most errors are `{error_code, message, timestamp, details?}`; the idempotency mismatch is
//! `{error:{code, message, hint}}`; express's own pages (invalid JSON, unknown route, payload too
//! large) are HTML, carried as a `Value::String` body.

use super::time::iso_ms;
use super::Response;
use serde_json::json;
use serde_json::{Map, Value};

/// The message of every zod validation failure.
const INVALID_PAYLOAD: &str = "Invalid request payload.";

/// `{error_code, message, timestamp[, details]}` with `status`.
pub(crate) fn error(
    status: u16,
    code: &str,
    message: &str,
    now_ms: f64,
    details: Option<Value>,
) -> Response {
    let mut body = Map::new();
    body.insert("error_code".into(), Value::from(code));
    body.insert("message".into(), Value::from(message));
    if let Some(details) = details {
        body.insert("details".into(), details);
    }
    body.insert("timestamp".into(), Value::from(iso_ms(now_ms)));
    Response {
        status,
        body: Value::Object(body),
    }
}

/// `400 VALIDATION_INVALID_FORMAT` with zod-style `details.issues`.
pub(crate) fn invalid_payload(issues: Vec<Value>, now_ms: f64) -> Response {
    error(
        400,
        "VALIDATION_INVALID_FORMAT",
        INVALID_PAYLOAD,
        now_ms,
        Some(json!({ "issues": issues })),
    )
}

/// `400 VALIDATION_INVALID_FORMAT` with one issue.
pub(crate) fn invalid_issue(issue: Value, now_ms: f64) -> Response {
    invalid_payload(vec![issue], now_ms)
}

/// `404 RESOURCE_NOT_FOUND`.
pub(crate) fn not_found(message: &str, now_ms: f64) -> Response {
    error(404, "RESOURCE_NOT_FOUND", message, now_ms, None)
}

/// The JSON type name zod reports as `received` (`"undefined"` when absent).
pub(crate) fn type_name(value: Option<&Value>) -> &'static str {
    match value {
        None => "undefined",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Array(_)) => "array",
        Some(Value::Object(_)) => "object",
    }
}

/// A path segment: a field name or an array index.
#[derive(Debug, Clone)]
pub(crate) enum Seg {
    Key(&'static str),
    Index(usize),
}

fn path_value(path: &[Seg]) -> Value {
    let mut segments = Vec::with_capacity(path.len());
    for seg in path {
        segments.push(match seg {
            Seg::Key(k) => Value::from(*k),
            Seg::Index(i) => Value::from(*i),
        });
    }
    Value::Array(segments)
}

/// A zod `invalid_type` issue: `expected` at `path`, `received` the actual JSON type.
pub(crate) fn invalid_type(expected: &str, received: Option<&Value>, path: &[Seg]) -> Value {
    type_issue(expected, type_name(received), path)
}

fn type_issue(expected: &str, received: &str, path: &[Seg]) -> Value {
    let message = if received == "undefined" {
        "Required".to_string()
    } else {
        format!("Expected {expected}, received {received}")
    };
    json!({
        "code": "invalid_type",
        "expected": expected,
        "received": received,
        "path": path_value(path),
        "message": message,
    })
}

/// A zod `too_small` issue: a `kind` (string, array, number) below `minimum`.
fn too_small(minimum: i64, kind: &str, message: String, path: &[Seg]) -> Value {
    json!({
        "code": "too_small",
        "minimum": minimum,
        "type": kind,
        "inclusive": true,
        "exact": false,
        "message": message,
        "path": path_value(path),
    })
}

/// A zod `too_small` issue for a string that must not be empty.
pub(crate) fn empty_string(path: &[Seg]) -> Value {
    too_small(
        1,
        "string",
        "String must contain at least 1 character(s)".into(),
        path,
    )
}

/// A zod `too_small` issue for an array that must not be empty.
pub(crate) fn empty_array(path: &[Seg]) -> Value {
    too_small(
        1,
        "array",
        "Array must contain at least 1 element(s)".into(),
        path,
    )
}

/// A zod `too_small` issue for a number below `minimum`.
pub(crate) fn number_too_small(minimum: i64, path: &[Seg]) -> Value {
    too_small(
        minimum,
        "number",
        format!("Number must be greater than or equal to {minimum}"),
        path,
    )
}

/// A zod `invalid_type` issue for a number that must be an integer.
pub(crate) fn not_integer(path: &[Seg]) -> Value {
    type_issue("integer", "float", path)
}

/// A zod `invalid_enum_value` issue.
pub(crate) fn invalid_enum(options: &[&str], received: &str, path: &[Seg]) -> Value {
    let mut quoted = String::new();
    for option in options {
        if !quoted.is_empty() {
            quoted.push_str(" | ");
        }
        quoted.push('\'');
        quoted.push_str(option);
        quoted.push('\'');
    }
    json!({
        "received": received,
        "code": "invalid_enum_value",
        "options": options,
        "path": path_value(path),
        "message": format!("Invalid enum value. Expected {quoted}, received '{received}'"),
    })
}

/// A zod `invalid_union` issue over "`<prefix>_index` (number) or `<prefix>_entity_id` (string)"
/// for relationship endpoints, as in transcript 07g2.
pub(crate) fn endpoint_union(
    item: &Map<String, Value>,
    index_key: &'static str,
    id_key: &'static str,
    base: &[Seg],
) -> Value {
    let mut index_path = base.to_vec();
    index_path.push(Seg::Key(index_key));
    let mut id_path = base.to_vec();
    id_path.push(Seg::Key(id_key));
    json!({
        "code": "invalid_union",
        "unionErrors": [
            {
                "issues": [invalid_type("number", item.get(index_key), &index_path)],
                "name": "ZodError",
            },
            {
                "issues": [invalid_type("string", item.get(id_key), &id_path)],
                "name": "ZodError",
            },
        ],
        "path": path_value(base),
        "message": "Invalid input",
    })
}

/// `{"error":{"code":"ERR_IDEMPOTENCY_MISMATCH",…}}` (transcript 03).
pub(crate) fn idempotency_mismatch(key: &str) -> Response {
    let message = format!(
        "ERR_IDEMPOTENCY_MISMATCH: idempotency_key \"{key}\" was already used with different \
         content. Use a new idempotency_key for a different payload."
    );
    Response {
        status: 400,
        body: json!({
            "error": {
                "code": "ERR_IDEMPOTENCY_MISMATCH",
                "message": message,
                "hint": "Each unique payload must use a unique idempotency_key. To update an entity, omit the idempotency_key or use a new one.",
            }
        }),
    }
}

/// Escapes text for an HTML page the way express's `escape-html` does.
pub(crate) fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&#39;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            other => out.push(other),
        }
    }
    out
}

/// Express's default error page around already-escaped `pre` text.
pub(crate) fn html_page(pre: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>{pre}</pre>\n</body>\n</html>\n"
    )
}

/// `404` HTML page for an unknown route (transcript 07l).
pub(crate) fn unknown_route(method: &str, path: &str) -> Response {
    Response {
        status: 404,
        body: Value::String(html_page(&escape_html(&format!("Cannot {method} {path}")))),
    }
}

/// `400` HTML page for a body that is not valid JSON (transcripts 07c, 07c2).
pub(crate) fn invalid_json(detail: &str) -> Response {
    Response {
        status: 400,
        body: Value::String(html_page(&escape_html(&format!("SyntaxError: {detail}")))),
    }
}

/// `413` HTML page for a body over the JSON limit (transcript 07h3).
pub(crate) fn payload_too_large() -> Response {
    Response {
        status: 413,
        body: Value::String(html_page(&escape_html(
            "PayloadTooLargeError: request entity too large",
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_route_page_matches_express() {
        let r = unknown_route("POST", "/no_such_endpoint");
        assert_eq!(r.status, 404);
        assert_eq!(
            r.body,
            Value::String(
                "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /no_such_endpoint</pre>\n</body>\n</html>\n"
                    .into()
            )
        );
        let r = unknown_route("GET", "/<x>");
        assert!(r
            .body
            .as_str()
            .unwrap_or("")
            .contains("Cannot GET /&lt;x&gt;"));
    }

    #[test]
    fn invalid_type_messages() {
        let v = invalid_type("string", None, &[Seg::Key("identifier")]);
        assert_eq!(v["message"], "Required");
        assert_eq!(v["received"], "undefined");
        assert_eq!(v["path"], json!(["identifier"]));
        let v = invalid_type("string", Some(&json!(3)), &[Seg::Key("a"), Seg::Index(2)]);
        assert_eq!(v["message"], "Expected string, received number");
        assert_eq!(v["path"], json!(["a", 2]));
    }

    #[test]
    fn mismatch_message_quotes_the_key() {
        let r = idempotency_mismatch("conversation-c1-t1-user-turn");
        assert_eq!(
            r.body["error"]["message"],
            "ERR_IDEMPOTENCY_MISMATCH: idempotency_key \"conversation-c1-t1-user-turn\" was already used with different content. Use a new idempotency_key for a different payload."
        );
    }
}

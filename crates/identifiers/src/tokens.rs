//! Token shapes checked by hand (paths, hosts, colon and slash ids, codes, service names):
//! the shapes a regular expression checks are in `shapes.rs`.

use crate::chars::is_wordish;
use crate::lexicon::{lookup, F_FILE_EXT, F_NAME_PREFIX, F_TLD};
use crate::shapes;
use crate::words::is_english_inflected;

/// `C:\Users\maria\budget.xlsx`, `\\fileserver\shared`, `.\scripts\deploy.ps1`.
/// `scheme://rest`, the scheme a letter then letters, digits, `+`, `-` or `.` (RFC 3986).
pub(super) fn has_url_scheme(w: &str) -> bool {
    w.split_once("://").is_some_and(|(scheme, rest)| {
        !rest.is_empty()
            && scheme.len() <= 16
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    })
}

pub(super) fn is_windows_path(w: &str) -> bool {
    let b = w.as_bytes();
    let drive = b.len() > 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'\\';
    let unc = b.len() > 3 && b.starts_with(b"\\\\") && b[2].is_ascii_alphanumeric();
    // Relative to the working directory or its parent.
    let rel = || {
        let dots = b.iter().take_while(|&&c| c == b'.').count();
        (1..=2).contains(&dots)
            && b.get(dots) == Some(&b'\\')
            && b.get(dots + 1).is_some_and(u8::is_ascii_alphanumeric)
    };
    drive || unc || (b.first() == Some(&b'.') && rel())
}

/// `2024-05-01T12:03:44Z`: a timestamp in a log line.
pub(super) fn is_iso_datetime(w: &str) -> bool {
    let b = w.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    b.len() > 11
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
}

/// `signup.js:27:15` → `signup.js`, `redis-prod-01:6379` → `redis-prod-01`: a line, column or
/// port after a name with letters.
pub(super) fn strip_line_or_port(w: &str) -> Option<&str> {
    fn strip(t: &str) -> Option<&str> {
        let (head, n) = t.rsplit_once(':')?;
        (!n.is_empty() && n.len() <= 5 && n.bytes().all(|c| c.is_ascii_digit())).then_some(head)
    }
    let head = strip(w)?;
    let head = strip(head).unwrap_or(head);
    (!head.contains(':') && head.chars().any(char::is_alphabetic)).then_some(head)
}

/// Ids written with colons: an AWS ARN (`arn:aws:iam::4815:role/Audit`), a content digest
/// (`sha256:9f86d0…`), a container image on a registry (`ghcr.io/acme/worker:2.14.1`).
pub(super) fn is_colon_id(w: &str) -> bool {
    let arn = w.starts_with("arn:") && w.matches(':').count() >= 5;
    let digest = w.split_once(':').is_some_and(|(algo, hex)| {
        matches!(algo, "sha256" | "sha512" | "sha1" | "md5")
            && hex.len() >= 32
            && hex.bytes().all(|c| c.is_ascii_hexdigit())
    });
    let image = w.split_once('/').is_some_and(|(registry, path)| {
        let domain = registry
            .rsplit_once('.')
            .is_some_and(|(name, tld)| !name.is_empty() && lookup(tld) & F_TLD != 0);
        domain && path.contains(':') && !path.ends_with(':')
    });
    // "arXiv:2310.06825", "doi:10.1145/3442188", "PMID:31452104": a registry's id.
    let registry = w.split_once(':').is_some_and(|(scheme, id)| {
        [
            "arxiv", "doi", "pmid", "pmcid", "isbn", "issn", "orcid", "urn",
        ]
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s))
            && id.bytes().any(|c| c.is_ascii_digit())
    });
    arn || digest || image || registry
}

/// `deploy@10.0.3.17`: a login at an address.
pub(super) fn is_user_at_ipv4(w: &str) -> bool {
    w.split_once('@').is_some_and(|(user, host)| {
        !user.is_empty()
            && user
                .chars()
                .all(|c| is_wordish(c) || matches!(c, '.' | '_' | '-'))
            && shapes::is_ipv4(host)
    })
}

/// `git@github.com:acme/api.git`: a remote as git and scp write it, a login at a host (a dotted
/// name) and a path after the colon.
pub(super) fn is_scp_remote(w: &str) -> bool {
    let Some((login, path)) = w.split_once(':') else {
        return false;
    };
    let path_char = |c: char| is_wordish(c) || matches!(c, '.' | '_' | '-' | '/' | '~');
    login.split_once('@').is_some_and(|(user, host)| {
        !user.is_empty()
            && user
                .chars()
                .all(|c| is_wordish(c) || matches!(c, '.' | '_' | '-'))
            && host.contains('.')
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
    }) && path.contains('/')
        && path.chars().all(path_char)
}

/// `feature/JIRA-2231`, `pod/checkout-7d9f8b-x2k4q`: slash-joined names one of which is a
/// code (letters and digits); not `1/2/2024`, `24/7`, `and/or`. A git branch named by its
/// conventional kind (`feature/login-fix`, `release/2.3`) needs no code.
pub(super) fn is_slash_id(w: &str) -> bool {
    let mut segments = 0;
    let first = w.split('/').next().unwrap_or(w);
    let mut code = matches!(
        first,
        "feature" | "feat" | "fix" | "bugfix" | "hotfix" | "release" | "chore" | "refactor"
    );
    for seg in w.split('/') {
        if seg.is_empty()
            || !seg
                .chars()
                .all(|c| is_wordish(c) || matches!(c, '.' | '_' | '-'))
        {
            return false;
        }
        segments += 1;
        code |= seg.len() >= 4
            && seg.bytes().any(|c| c.is_ascii_digit())
            && seg.bytes().any(|c| c.is_ascii_alphabetic());
        // "acme/checkout-web", "kofi-dev/volcano-sim": a repository's owner and name.
        let marked = seg.bytes().any(|c| matches!(c, b'-' | b'_' | b'.'))
            && seg.bytes().any(|c| c.is_ascii_lowercase());
        code |= marked && !w.bytes().any(|c| c.is_ascii_uppercase());
    }
    // "FV/2024/0391", "PO/88/12": a document's letters, then its numbers (two groups or more:
    // "HTTP/2" is a protocol).
    let mut parts = w.split('/');
    let prefix = parts.next().unwrap_or("");
    let numbered = segments >= 3
        && (1..=5).contains(&prefix.len())
        && prefix.bytes().all(|c| c.is_ascii_uppercase())
        && parts.all(|p| p.bytes().all(|c| c.is_ascii_digit()));
    // "secret/data/prod/payments/stripe": a path of four segments or more.
    segments >= 2 && (code || numbered || segments >= 4)
}

pub(super) fn is_path(w: &str) -> bool {
    let segments = w.split('/').filter(|s| !s.is_empty()).count();
    if segments < 2
        || !w
            .chars()
            .all(|c| is_wordish(c) || matches!(c, '/' | '.' | '_' | '-' | '~'))
    {
        return false;
    }
    if w.starts_with('/') || w.starts_with("~/") || w.starts_with("./") {
        return true;
    }
    // "github.com/neotoma/agent": a domain and a path.
    let host_is_domain = w.split('/').next().is_some_and(|host| {
        host.rsplit_once('.')
            .is_some_and(|(name, tld)| !name.is_empty() && lookup(tld) & F_TLD != 0)
    });
    if host_is_domain {
        return true;
    }
    // "src/main.rs": the last segment has a file extension.
    let last_segment = w.rsplit('/').next().unwrap_or(w);
    last_segment
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && lookup(ext) & F_FILE_EXT != 0)
}

/// "/healthz", "/data": a root folder or an endpoint, one segment of four chars or more ("/s",
/// "/srs" are tone tags).
pub(super) fn is_root_segment(w: &str) -> bool {
    w.len() >= 5
        && w.strip_prefix('/').is_some_and(|name| {
            name.starts_with(|c: char| c.is_ascii_lowercase())
                && name
                    .bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
        })
}

/// Lowercase hyphenated names with a number: "prod-db-03", "web-01", "covid-19"; not
/// "3-day", "top-10" or "mid-2024".
pub(super) fn is_host_like(w: &str) -> bool {
    let first = w.split('-').next().unwrap_or(w);
    let last = w.rsplit('-').next().unwrap_or(w);
    if !first.bytes().all(|c| c.is_ascii_alphabetic()) || first.len() < 2 {
        return false;
    }
    if matches!(
        first,
        "top" | "mid" | "pre" | "post" | "late" | "early" | "non" | "over" | "under" | "net"
    ) {
        return false;
    }
    let last_digits = last.len() >= 2 && last.bytes().all(|c| c.is_ascii_digit());
    last_digits || (w.split('-').count() >= 3 && w.bytes().any(|c| c.is_ascii_digit()))
}

/// `payments-api`, `billing-worker`: a lowercase name ending in the kind of program it is.
pub(super) fn is_service_name(w: &str) -> bool {
    let kind = w.rsplit_once('-').is_some_and(|(name, kind)| {
        name.len() >= 3
            && name.bytes().all(|c| c.is_ascii_lowercase() || c == b'-')
            && matches!(kind, "api" | "worker" | "svc" | "db" | "daemon")
    });
    // "search-indexer", "kasse-service", "ingress-nginx": a word of its own among the parts,
    // where a compound of English has none ("follow-up", "well-known", "non-blocking").
    // "rappelle-moi", "rendez-vous": French joins a verb and its pronoun.
    let french = || {
        w.split('-')
            .any(|p| matches!(p, "moi" | "toi" | "vous" | "nous" | "lui" | "leur" | "tu"))
    };
    let coined = || {
        !french()
            && w.bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            && w.split('-').all(|p| !p.is_empty())
            && w.split('-').any(|p| {
                p.len() >= 3
                    && p.bytes().any(|c| c.is_ascii_lowercase())
                    && lookup(p) & !F_NAME_PREFIX == 0
                    && !is_english_inflected(p)
                    && !matches!(
                        p,
                        "non"
                            | "pre"
                            | "post"
                            | "anti"
                            | "multi"
                            | "semi"
                            | "sub"
                            | "self"
                            | "cross"
                            | "inter"
                            | "mid"
                            | "auto"
                            | "one"
                            | "two"
                    )
            })
    };
    kind || coined()
}

/// Digits followed by a capitalised word: "1Password", "7Eleven".
pub(super) fn is_digit_brand(w: &str) -> bool {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let rest = w.get(digits..).unwrap_or("");
    let mut cs = rest.chars();
    digits > 0
        && cs.next().is_some_and(char::is_uppercase)
        && rest.chars().count() >= 3
        && cs.all(char::is_alphabetic)
        && rest.chars().any(char::is_lowercase)
}

/// A mixed letter+digit token that reads like a code ("QX7P2M", "A320", "user4821"), not a
/// unit, ordinal, time or period ("3pm", "2nd", "16GB", "Q3", "FY2024", "v2", "mp3").
pub(super) fn is_code(w: &str) -> bool {
    let mut chars = 0;
    let mut transitions = 0;
    let mut prev_digit: Option<bool> = None;
    let (mut has_digit, mut has_letter, mut upper) = (false, false, false);
    let mut prefix = [0u8; 4];
    let mut prefix_len = 0;
    for c in w.chars() {
        if !is_wordish(c) {
            return false;
        }
        chars += 1;
        let d = c.is_ascii_digit();
        has_digit |= d;
        has_letter |= c.is_alphabetic();
        upper |= c.is_uppercase();
        if prev_digit.is_some_and(|p| p != d) {
            transitions += 1;
        }
        if !d && transitions == 0 {
            if prefix_len < prefix.len() && c.is_ascii() {
                prefix[prefix_len] = c.to_ascii_lowercase() as u8;
            }
            prefix_len += 1;
        }
        prev_digit = Some(d);
    }
    if !has_digit || !has_letter {
        return false;
    }
    let starts_digit = w.bytes().next().is_some_and(|c| c.is_ascii_digit());
    if starts_digit && transitions == 1 {
        // "3pm", "2nd", "16GB", "2FA", "100km"
        return false;
    }
    if !starts_digit && transitions == 1 && prefix_len <= prefix.len() {
        // Periods and versions ("Q3", "FY2024", "v12", "ch5", "mp3"); long numbers after
        // such a letter are still codes ("X1234567").
        let digits = chars - prefix_len;
        let p = &prefix[..prefix_len];
        let short = [
            &b"q"[..],
            b"h",
            b"v",
            b"ver",
            b"vol",
            b"ch",
            b"pt",
            b"no",
            b"ep",
            b"mp",
            b"x",
            b"s",
        ];
        if p == b"fy" || (digits <= 3 && short.contains(&p)) {
            return false;
        }
    }
    if upper {
        chars >= 4
    } else {
        chars >= 5
    }
}

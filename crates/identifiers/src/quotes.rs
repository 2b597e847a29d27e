//! Quoted strings: which quote characters open and close one, and where a quote cannot run on.

use super::*;

impl<'a> Scanner<'a> {
    /// If a quoted string opens at `i` (char index `ci`), returns the content's byte range
    /// and the position (and char index) just after the closing quote.
    pub(super) fn try_quote(
        &mut self,
        i: usize,
        ci: usize,
        open: char,
        len: usize,
    ) -> Option<(usize, usize, usize, usize)> {
        let kind = match open {
            '"' => 0,
            '“' | '„' => 1,
            '‘' => 2,
            '\'' => 3,
            '`' => 4,
            '«' => 5,
            // The brackets Chinese, Japanese and Korean quote titles and names with.
            '「' => 6,
            '『' => 7,
            '《' => 8,
            _ => return None,
        };
        let (next, _) = self.ch(i + len)?;
        if is_space(next) {
            return None;
        }
        match kind {
            // An apostrophe only opens a quote when it does not sit inside a word.
            2 | 3 if self.prev(i).is_some_and(is_wordish) || !next.is_alphanumeric() => {
                return None
            }
            // "``" / "```": code fences and doubled backticks are not quotes.
            4 if next == '`' => return None,
            _ => {}
        }
        let (start, start_ci) = (i + len, ci + 1);
        let (k, k_ci) = self.find_barrier(kind, start, start_ci, start_ci + MAX_QUOTE_CHARS + 1)?;
        let (close, close_len) = self.ch(k)?;
        if is_line_break(close) {
            return None;
        }
        Some((start, k, k + close_len, k_ci + 1))
    }

    pub(super) fn is_closer(&self, kind: usize, p: usize, c: char, len: usize) -> bool {
        match kind {
            0 => c == '"' || c == '”',
            1 => c == '”' || c == '“' || c == '"',
            2 | 3 => {
                (c == '\'' || c == '’')
                    && self.prev(p).is_some_and(|d| !is_space(d))
                    && !self.ch(p + len).is_some_and(|(d, _)| is_wordish(d))
            }
            4 => c == '`',
            5 => c == '»',
            6 => c == '」',
            7 => c == '』',
            _ => c == '》',
        }
    }

    /// First position from `start` (char index `start_ci`) up to char index `limit_ci`
    /// holding a closer of `kind` or a line break, with its char index. Calls come with
    /// increasing `start`; positions already known to be clean are not scanned again, so
    /// all searches together take linear time.
    pub(super) fn find_barrier(
        &mut self,
        kind: usize,
        start: usize,
        start_ci: usize,
        limit_ci: usize,
    ) -> Option<(usize, usize)> {
        let memo = self.memos[kind];
        let (mut p, mut p_ci) = (start, start_ci);
        if memo.valid && memo.from <= start && start <= memo.to {
            if memo.hit {
                return (memo.to_ci < limit_ci).then_some((memo.to, memo.to_ci));
            }
            (p, p_ci) = (memo.to, memo.to_ci);
        } else {
            self.memos[kind] = Memo {
                valid: true,
                from: start,
                to: start,
                to_ci: start_ci,
                hit: false,
            };
        }
        let mut hit = false;
        while p_ci < limit_ci {
            let Some((c, len)) = self.ch(p) else {
                break;
            };
            if is_line_break(c) || self.is_closer(kind, p, c, len) {
                hit = true;
                break;
            }
            p += len;
            p_ci += 1;
        }
        let m = &mut self.memos[kind];
        (m.to, m.to_ci, m.hit) = (p, p_ci, hit);
        hit.then_some((p, p_ci))
    }

    pub(super) fn push_quote(&mut self, content: &'a str) {
        if content.is_empty() {
            return;
        }
        let trimmed = content.trim().trim_end_matches([',', ';', ':']).trim_end();
        // A quoted sentence keeps its full stop (it is quoted exactly); a word or name
        // before an American-style stop ("we call it "Phoenix."") does not.
        let trimmed = match trimmed.strip_suffix('.') {
            Some(t) if !t.ends_with('.') && !t.contains(' ') => t,
            _ => trimmed,
        };
        // A one-character quote ("rock 'n' roll", grade 'A') names nothing.
        if trimmed.chars().any(char::is_alphanumeric) && trimmed.chars().nth(1).is_some() {
            self.push_out(trimmed);
        }
    }
}

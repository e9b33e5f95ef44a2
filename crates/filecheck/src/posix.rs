//! POSIX extended regular expressions as LLVM's `Regex` (Henry Spencer's
//! `regcomp` with `REG_EXTENDED`) reads them: the same errors, in the same
//! order, with the same messages, and a translation into `fancy_regex`
//! syntax that keeps the numbering of capture groups.
//!
//! Differences the translation bridges: a backslash makes any character
//! literal (`\d` is `d`), a lone `{` is literal, brackets hold no escapes,
//! and, as under `REG_NEWLINE`, a negated bracket never matches a newline.
//! Not bridged: POSIX picks the longest of the leftmost matches, we the
//! first alternative that matches.

/// `regerror` texts.
pub mod msg {
    /// `REG_EMPTY`
    pub const EMPTY: &str = "empty (sub)expression";
    /// `REG_EPAREN`
    pub const EPAREN: &str = "parentheses not balanced";
    /// `REG_EBRACK`
    pub const EBRACK: &str = "brackets ([ ]) not balanced";
    /// `REG_EBRACE`
    pub const EBRACE: &str = "braces not balanced";
    /// `REG_BADBR`
    pub const BADBR: &str = "invalid repetition count(s)";
    /// `REG_BADRPT`
    pub const BADRPT: &str = "repetition-operator operand invalid";
    /// `REG_ERANGE`
    pub const ERANGE: &str = "invalid character range";
    /// `REG_ECTYPE`
    pub const ECTYPE: &str = "invalid character class";
    /// `REG_ECOLLATE`
    pub const ECOLLATE: &str = "invalid collating element";
    /// `REG_EESCAPE`
    pub const EESCAPE: &str = "trailing backslash (\\)";
    /// `REG_ESUBREG`
    pub const ESUBREG: &str = "invalid backreference number";
}

const CLASSES: &[&str] = &[
    "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space",
    "upper", "xdigit",
];

/// A translated expression.
#[derive(Clone, Debug)]
pub struct Translated {
    /// `fancy_regex` syntax.
    pub regex: String,
    /// Number of parenthesised subexpressions.
    pub groups: usize,
}

struct P<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    out: String,
    groups: usize,
    /// Groups closed so far (backreferences may only name those).
    closed: Vec<bool>,
}

type R = Result<(), &'static str>;

fn push_literal(out: &mut String, c: u8) {
    if b"\\.+*?()|[]{}^$#&-~".contains(&c) {
        out.push('\\');
    }
    push_byte(out, c);
}

fn push_byte(out: &mut String, c: u8) {
    if c.is_ascii() {
        out.push(c as char);
    } else {
        // A lone byte of a UTF-8 sequence (inside a bracket): matched as
        // the character of that code point, an approximation.
        out.push_str(&format!("\\x{{{c:02X}}}"));
    }
}

fn push_class_char(out: &mut String, c: u8) {
    if b"\\[]^-&~".contains(&c) {
        out.push('\\');
    }
    push_byte(out, c);
}

impl P<'_> {
    fn more(&self) -> bool {
        self.i < self.b.len()
    }
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }
    fn peek2(&self) -> u8 {
        self.b.get(self.i + 1).copied().unwrap_or(0)
    }
    fn is_repeat(&self) -> bool {
        let c = self.peek();
        self.more()
            && (c == b'*'
                || c == b'+'
                || c == b'?'
                || (c == b'{' && self.i + 1 < self.b.len() && self.peek2().is_ascii_digit()))
    }

    fn ere(&mut self, stop: Option<u8>) -> R {
        loop {
            let start = self.i;
            while self.more() && self.peek() != b'|' && Some(self.peek()) != stop {
                self.exp()?;
            }
            if self.i == start {
                return Err(msg::EMPTY);
            }
            if self.more() && self.peek() == b'|' {
                self.i += 1;
                self.out.push('|');
                continue;
            }
            return Ok(());
        }
    }

    fn exp(&mut self) -> R {
        let c = self.peek();
        self.i += 1;
        let mut was_caret = false;
        match c {
            b'(' => {
                if !self.more() {
                    return Err(msg::EPAREN);
                }
                self.groups += 1;
                let g = self.groups;
                self.closed.push(false);
                self.out.push('(');
                if self.peek() != b')' {
                    self.ere(Some(b')'))?;
                }
                if self.peek() != b')' || !self.more() {
                    return Err(msg::EPAREN);
                }
                self.i += 1;
                self.out.push(')');
                self.closed[g - 1] = true;
            }
            b')' => return Err(msg::EPAREN),
            b'^' => {
                self.out.push('^');
                was_caret = true;
            }
            b'$' => self.out.push('$'),
            b'|' => return Err(msg::EMPTY),
            b'*' | b'+' | b'?' => return Err(msg::BADRPT),
            b'.' => self.out.push('.'),
            b'[' => self.bracket()?,
            b'\\' => {
                if !self.more() {
                    return Err(msg::EESCAPE);
                }
                let c = self.peek();
                self.i += 1;
                if (b'1'..=b'9').contains(&c) {
                    let n = (c - b'0') as usize;
                    if !self.closed.get(n - 1).copied().unwrap_or(false) {
                        return Err(msg::ESUBREG);
                    }
                    self.out.push('\\');
                    self.out.push(c as char);
                } else if c >= 0x80 {
                    self.whole_char();
                } else {
                    push_literal(&mut self.out, c);
                }
            }
            b'{' => {
                if self.more() && self.peek().is_ascii_digit() {
                    return Err(msg::BADRPT);
                }
                push_literal(&mut self.out, c);
            }
            _ if c >= 0x80 => self.whole_char(),
            _ => push_literal(&mut self.out, c),
        }
        if !self.is_repeat() {
            return Ok(());
        }
        let c = self.peek();
        self.i += 1;
        if was_caret {
            return Err(msg::BADRPT);
        }
        match c {
            b'*' | b'+' | b'?' => self.out.push(c as char),
            _ => {
                let lo = self.count()?;
                let hi = if self.more() && self.peek() == b',' {
                    self.i += 1;
                    if self.peek().is_ascii_digit() && self.more() {
                        let hi = self.count()?;
                        if lo > hi {
                            return Err(msg::BADBR);
                        }
                        Some(hi)
                    } else {
                        None
                    }
                } else {
                    Some(lo)
                };
                if !(self.more() && self.peek() == b'}') {
                    while self.more() && self.peek() != b'}' {
                        self.i += 1;
                    }
                    return Err(if self.more() { msg::BADBR } else { msg::EBRACE });
                }
                self.i += 1;
                match hi {
                    Some(h) if h == lo => self.out.push_str(&format!("{{{lo}}}")),
                    Some(h) => self.out.push_str(&format!("{{{lo},{h}}}")),
                    None => self.out.push_str(&format!("{{{lo},}}")),
                }
            }
        }
        if self.is_repeat() {
            return Err(msg::BADRPT);
        }
        Ok(())
    }

    /// Copies the UTF-8 character whose first byte was just consumed.
    fn whole_char(&mut self) {
        let start = self.i - 1;
        match self.s.get(start..).and_then(|t| t.chars().next()) {
            Some(ch) => {
                self.out.push(ch);
                self.i = start + ch.len_utf8();
            }
            None => push_byte(&mut self.out, self.b[start]),
        }
    }

    fn count(&mut self) -> Result<u32, &'static str> {
        let mut n = 0u32;
        let mut digits = 0;
        while self.more() && self.peek().is_ascii_digit() && n <= 255 {
            n = n * 10 + (self.peek() - b'0') as u32;
            self.i += 1;
            digits += 1;
        }
        if digits == 0 || n > 255 {
            return Err(msg::BADBR);
        }
        Ok(n)
    }

    fn bracket(&mut self) -> R {
        let rest = &self.b[self.i..];
        if rest.starts_with(b"[:<:]]") || rest.starts_with(b"[:>:]]") {
            self.i += 6;
            self.out.push_str("\\b");
            return Ok(());
        }
        let mut class = String::from("[");
        let invert = self.peek() == b'^' && self.more();
        if invert {
            self.i += 1;
            class.push('^');
            // Under REG_NEWLINE a negated bracket never matches a newline.
            class.push_str("\\n");
        }
        if self.more() && self.peek() == b']' {
            self.i += 1;
            push_class_char(&mut class, b']');
        } else if self.more() && self.peek() == b'-' {
            self.i += 1;
            push_class_char(&mut class, b'-');
        }
        while self.more() && self.peek() != b']' && !(self.peek() == b'-' && self.peek2() == b']') {
            self.term(&mut class)?;
        }
        if self.more() && self.peek() == b'-' {
            self.i += 1;
            push_class_char(&mut class, b'-');
        }
        if !(self.more() && self.peek() == b']') {
            return Err(msg::EBRACK);
        }
        self.i += 1;
        if class == "[" {
            // Cannot happen (a bracket holds at least one item), but an
            // empty class is not valid regex syntax.
            class.push_str("\\x00");
        }
        class.push(']');
        self.out.push_str(&class);
        Ok(())
    }

    fn term(&mut self, class: &mut String) -> R {
        let c = match self.peek() {
            b'[' => self.peek2(),
            b'-' => return Err(msg::ERANGE),
            _ => 0,
        };
        match c {
            b':' => {
                self.i += 2;
                if !self.more() {
                    return Err(msg::EBRACK);
                }
                if matches!(self.peek(), b'-' | b']') {
                    return Err(msg::ECTYPE);
                }
                let s = self.i;
                while self.more() && self.peek().is_ascii_alphabetic() {
                    self.i += 1;
                }
                let name = std::str::from_utf8(&self.b[s..self.i]).unwrap_or("");
                if !CLASSES.contains(&name) {
                    return Err(msg::ECTYPE);
                }
                if !self.more() {
                    return Err(msg::EBRACK);
                }
                if !(self.peek() == b':' && self.peek2() == b']') {
                    return Err(msg::ECTYPE);
                }
                self.i += 2;
                class.push_str(&format!("[:{name}:]"));
            }
            b'=' => {
                self.i += 2;
                if !self.more() {
                    return Err(msg::EBRACK);
                }
                if matches!(self.peek(), b'-' | b']') {
                    return Err(msg::ECOLLATE);
                }
                let c = self.collating(b'=')?;
                if !(self.more() && self.peek() == b'=' && self.peek2() == b']') {
                    return Err(msg::ECOLLATE);
                }
                self.i += 2;
                push_class_char(class, c);
            }
            _ => {
                let start = self.symbol()?;
                let finish =
                    if self.peek() == b'-' && self.i + 1 < self.b.len() && self.peek2() != b']' {
                        self.i += 1;
                        if self.peek() == b'-' && self.more() {
                            self.i += 1;
                            b'-'
                        } else {
                            self.symbol()?
                        }
                    } else {
                        start
                    };
                if start > finish {
                    return Err(msg::ERANGE);
                }
                push_class_char(class, start);
                if finish != start {
                    class.push('-');
                    push_class_char(class, finish);
                }
            }
        }
        Ok(())
    }

    fn symbol(&mut self) -> Result<u8, &'static str> {
        if !self.more() {
            return Err(msg::EBRACK);
        }
        if !(self.peek() == b'[' && self.peek2() == b'.') {
            let c = self.peek();
            self.i += 1;
            return Ok(c);
        }
        self.i += 2;
        let c = self.collating(b'.')?;
        if !(self.peek() == b'.' && self.peek2() == b']') {
            return Err(msg::ECOLLATE);
        }
        self.i += 2;
        Ok(c)
    }

    fn collating(&mut self, end: u8) -> Result<u8, &'static str> {
        let s = self.i;
        while self.more() && !(self.peek() == end && self.peek2() == b']') {
            self.i += 1;
        }
        if !self.more() {
            return Err(msg::EBRACK);
        }
        let name = &self.b[s..self.i];
        if name.len() == 1 {
            return Ok(name[0]);
        }
        let named: &[(&[u8], u8)] = &[
            (b"NUL", 0),
            (b"tab", b'\t'),
            (b"newline", b'\n'),
            (b"space", b' '),
            (b"hyphen", b'-'),
            (b"period", b'.'),
            (b"slash", b'/'),
            (b"backslash", b'\\'),
            (b"underscore", b'_'),
        ];
        named
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| *c)
            .ok_or(msg::ECOLLATE)
    }
}

/// Validates `re` as LLVM's `Regex::isValid` does and translates it.
pub fn translate(re: &str) -> Result<Translated, &'static str> {
    let mut p = P {
        s: re,
        b: re.as_bytes(),
        i: 0,
        out: String::new(),
        groups: 0,
        closed: Vec::new(),
    };
    p.ere(None)?;
    if p.more() {
        return Err(msg::EPAREN);
    }
    Ok(Translated {
        regex: p.out,
        groups: p.groups,
    })
}

/// The escape LLVM's `Regex::escape` applies to literal text.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "()^$|*+?.[]\\{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_match_regcomp() {
        for (re, want) in [
            ("(a", msg::EPAREN),
            ("a)", msg::EPAREN),
            ("[a", msg::EBRACK),
            ("a{1", msg::EBRACE),
            ("a{3,1}", msg::BADBR),
            ("a{256}", msg::BADBR),
            ("*a", msg::BADRPT),
            ("a**", msg::BADRPT),
            ("^*", msg::BADRPT),
            ("a||b", msg::EMPTY),
            ("", msg::EMPTY),
            ("[z-a]", msg::ERANGE),
            ("[[:foo:]]", msg::ECTYPE),
            ("[[.foo.]]", msg::ECOLLATE),
            ("a\\", msg::EESCAPE),
            ("\\1", msg::ESUBREG),
        ] {
            assert_eq!(translate(re).err(), Some(want), "{re}");
        }
    }

    #[test]
    fn translation_keeps_posix_meaning_and_groups() {
        let t = translate("(a)(b|c)\\2").unwrap();
        assert_eq!(t.groups, 2);
        assert_eq!(t.regex, "(a)(b|c)\\2");
        // A backslash makes letters literal; a lone brace is literal.
        assert_eq!(translate("\\d{").unwrap().regex, "d\\{");
        // A negated bracket never matches a newline (REG_NEWLINE).
        assert_eq!(translate("[^]x-]").unwrap().regex, "[^\\n\\]x\\-]");
        assert_eq!(translate("[[:digit:]]").unwrap().regex, "[[:digit:]]");
    }
}

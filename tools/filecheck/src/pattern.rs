//! Check patterns: literal text, `{{regex}}`, `[[VAR:regex]]`, `[[VAR]]`,
//! `[[@LINE±n]]` and numeric `[[#…]]` substitutions.

use std::collections::HashMap;

/// Output format of a numeric variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumFormat {
    /// `u`, `d`, `x` or `X`.
    pub kind: char,
    /// Minimum digits (`%.3u`), zero-padded.
    pub precision: usize,
    /// `%#x`: with a `0x` prefix.
    pub alt: bool,
}

impl Default for NumFormat {
    fn default() -> Self {
        NumFormat {
            kind: 'u',
            precision: 0,
            alt: false,
        }
    }
}

impl NumFormat {
    fn regex(self) -> String {
        self.llvm_wildcard()
    }

    /// The wildcard LLVM 14 uses for this format (shown in notes).
    pub fn llvm_wildcard(self) -> String {
        let alt = if self.alt { "0x" } else { "" };
        let (plain, prec) = match self.kind {
            'd' => ("-?[0-9]+", "-?([1-9][0-9]*)?[0-9]"),
            'X' => ("[0-9A-F]+", "([1-9A-F][0-9A-F]*)?[0-9A-F]"),
            'x' => ("[0-9a-f]+", "([1-9a-f][0-9a-f]*)?[0-9a-f]"),
            _ => ("[0-9]+", "([1-9][0-9]*)?[0-9]"),
        };
        if self.precision > 0 {
            format!("{alt}{prec}{{{}}}", self.precision)
        } else {
            format!("{alt}{plain}")
        }
    }

    fn render(self, v: i128) -> String {
        let p = self.precision;
        let prefix = if self.alt { "0x" } else { "" };
        match self.kind {
            'x' => format!("{prefix}{v:0p$x}"),
            'X' => format!("{prefix}{v:0p$X}"),
            _ if v < 0 => format!("-{:0p$}", -v),
            _ => format!("{v:0p$}"),
        }
    }
    fn parse(self, s: &str) -> Option<i128> {
        let s = s.strip_prefix("0x").unwrap_or(s);
        match self.kind {
            'x' | 'X' => i128::from_str_radix(s, 16).ok(),
            _ => s.parse().ok(),
        }
    }
    fn signed(self) -> bool {
        self.kind == 'd'
    }
}

/// An operand of a numeric expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A variable, with the offset of its name.
    Var(String, usize),
    /// A literal (or a resolved `@LINE`).
    Lit(i128),
}

/// A numeric expression: a sum of signed operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumExpr {
    /// `(negated, operand)` terms.
    pub terms: Vec<(bool, Operand)>,
    /// Offset of the expression in the check buffer.
    pub pos: usize,
    /// The expression as written (named in notes).
    pub text: String,
}

impl NumExpr {
    fn first_var(&self) -> Option<&str> {
        self.terms.iter().find_map(|(_, o)| match o {
            Operand::Var(n, _) => Some(n.as_str()),
            _ => None,
        })
    }
}

/// One piece of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text matched literally.
    Lit(String),
    /// A regular expression.
    Regex(String),
    /// `[[NAME:regex]]`: capture and define a string variable.
    DefStr { name: String, regex: String },
    /// `[[NAME]]`: the value of a string variable.
    UseStr { name: String, pos: usize },
    /// `[[#%fmt,NAME:]]` (capture) or `[[#%fmt,NAME:expr]]` (match the
    /// value of `expr`), defining a numeric variable.
    DefNum {
        name: String,
        format: NumFormat,
        constraint: Option<NumExpr>,
    },
    /// `[[#expr]]`: the value of a numeric expression.
    UseNum {
        expr: NumExpr,
        format: Option<NumFormat>,
        pos: usize,
    },
}

/// A parse error at a byte offset of the check buffer.
#[derive(Debug)]
pub struct PatternError {
    /// Byte offset in the check buffer.
    pub pos: usize,
    /// Message.
    pub msg: String,
}

fn valid_name(s: &str) -> bool {
    let s = s.strip_prefix('$').unwrap_or(s);
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// Parses the pattern `text`, which starts at byte `base` of the check
/// buffer, on check-file line `line`.
pub fn parse(
    text: &str,
    base: usize,
    line: usize,
    literal: bool,
) -> Result<Vec<Piece>, PatternError> {
    let mut pieces = Vec::new();
    if literal {
        pieces.push(Piece::Lit(text.to_string()));
        return Ok(pieces);
    }
    let mut lit = String::new();
    let mut i = 0;
    let b = text.as_bytes();
    let flush = |lit: &mut String, pieces: &mut Vec<Piece>| {
        if !lit.is_empty() {
            pieces.push(Piece::Lit(std::mem::take(lit)));
        }
    };
    while i < b.len() {
        if text[i..].starts_with("{{") {
            let Some(end) = text[i + 2..].find("}}") else {
                return Err(PatternError {
                    pos: base + i,
                    msg: "found start of regex string with no end '}}'".into(),
                });
            };
            flush(&mut lit, &mut pieces);
            // `{{a}}}` closes at the last of the braces.
            let mut end = i + 2 + end;
            while text[end + 2..].starts_with('}') {
                end += 1;
            }
            let re = &text[i + 2..end];
            if let Some(e) = posix_regex_error(re) {
                return Err(PatternError {
                    pos: base + i + 2,
                    msg: format!("invalid regex: {e}"),
                });
            }
            pieces.push(Piece::Regex(re.to_string()));
            i = end + 2;
            continue;
        }
        if text[i..].starts_with("[[") {
            let Some(end) = find_close(&text[i + 2..]) else {
                return Err(PatternError {
                    pos: base + i,
                    msg: "Invalid substitution block, no ]] found".into(),
                });
            };
            let inner = &text[i + 2..i + 2 + end];
            let inner_pos = base + i + 2;
            flush(&mut lit, &mut pieces);
            pieces.push(parse_block(inner, inner_pos, line)?);
            i += 2 + end + 2;
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        lit.push(ch);
        i += ch.len_utf8();
    }
    flush(&mut lit, &mut pieces);
    Ok(pieces)
}

/// The offset of the `]]` closing a substitution block: brackets of a
/// definition's regex nest, and a backslash escapes the next character.
fn find_close(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut k = 0;
    while k < b.len() {
        // Bytes, not str slices: an escape can skip into the middle of a
        // multi-byte character (a fuzzer found the panic).
        if depth == 0 && b[k..].starts_with(b"]]") {
            return Some(k);
        }
        match b[k] {
            b'\\' => {
                k += 2;
                continue;
            }
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        k += 1;
    }
    None
}

fn err<T>(pos: usize, msg: impl Into<String>) -> Result<T, PatternError> {
    Err(PatternError {
        pos,
        msg: msg.into(),
    })
}

fn parse_block(inner: &str, pos: usize, line: usize) -> Result<Piece, PatternError> {
    if let Some(num) = inner.strip_prefix('#') {
        return parse_numeric(num, pos + 1, line);
    }
    if inner.starts_with([' ', '\t']) {
        return err(pos, "unexpected whitespace");
    }
    if let Some((name, re)) = inner.split_once(':') {
        if name.starts_with('@') {
            return err(pos, "invalid name in string variable definition");
        }
        if !valid_name(name) {
            return err(pos, "invalid variable name");
        }
        if let Some(e) = posix_regex_error(re).filter(|_| !re.is_empty()) {
            return err(pos + name.len() + 1, format!("invalid regex: {e}"));
        }
        return Ok(Piece::DefStr {
            name: name.to_string(),
            regex: re.to_string(),
        });
    }
    if let Some(rest) = inner.strip_prefix("@LINE") {
        let t = rest.trim_start();
        if !t.is_empty() && !t.starts_with(['+', '-']) {
            let at = pos + 5 + (rest.len() - t.len());
            return err(
                at,
                format!(
                    "unsupported operation '{}'",
                    t.chars().next().unwrap_or(' ')
                ),
            );
        }
        let mut expr = if t.is_empty() {
            NumExpr {
                terms: Vec::new(),
                pos,
                text: String::new(),
            }
        } else {
            parse_expr(rest, pos + 5, line)?
        };
        if expr
            .terms
            .iter()
            .any(|(_, o)| matches!(o, Operand::Var(..)))
        {
            return err(pos, format!("invalid pseudo variable '{inner}'"));
        }
        expr.terms.insert(0, (false, Operand::Lit(line as i128)));
        expr.pos = pos;
        expr.text = inner.trim().to_string();
        return Ok(Piece::UseNum {
            pos,
            expr,
            format: None,
        });
    }
    if inner.starts_with('@') {
        let name: String = inner
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '+' && *c != '-')
            .collect();
        return err(pos, format!("invalid pseudo numeric variable '{name}'"));
    }
    let trimmed = inner.trim_end();
    if trimmed.len() != inner.len() || inner.contains([' ', '\t']) {
        return err(
            pos + inner.find([' ', '\t']).unwrap_or(0),
            "unexpected whitespace",
        );
    }
    if !valid_name(inner) {
        return err(pos, "invalid variable name");
    }
    Ok(Piece::UseStr {
        name: inner.to_string(),
        pos,
    })
}

/// The format of a `-D#%fmt,NAME=VALUE` definition (`x`, `.3u`, …).
pub fn format_from_spec(spec: &str) -> NumFormat {
    let mut f = NumFormat::default();
    let spec = match spec.strip_prefix('#') {
        Some(r) => {
            f.alt = true;
            r
        }
        None => spec,
    };
    let spec = match spec.strip_prefix('.') {
        Some(r) => {
            let d: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
            f.precision = d.parse().unwrap_or(0);
            &r[d.len()..]
        }
        None => spec,
    };
    if let Some(c) = spec.chars().next() {
        if matches!(c, 'u' | 'd' | 'x' | 'X') {
            f.kind = c;
        }
    }
    f
}

/// Parses `[%fmt,]` at the start of a numeric block.
fn parse_format(s: &str, pos: usize) -> Result<(Option<NumFormat>, &str, usize), PatternError> {
    let t = s.trim_start();
    let lead = s.len() - t.len();
    let Some(rest) = t.strip_prefix('%') else {
        return Ok((None, s, 0));
    };
    let Some(comma) = rest.find(',') else {
        return err(
            pos + lead,
            "invalid matching format specification in expression",
        );
    };
    let spec = &rest[..comma];
    let mut f = NumFormat::default();
    let mut k = 0;
    let b = spec.as_bytes();
    if k < b.len() && b[k] == b'#' {
        f.alt = true;
        k += 1;
    }
    if k < b.len() && b[k] == b'.' {
        k += 1;
        let d0 = k;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        f.precision = spec[d0..k].parse().unwrap_or(0);
    }
    if k < b.len() {
        match b[k] {
            b'u' | b'd' | b'x' | b'X' => f.kind = b[k] as char,
            _ => return err(pos + lead + 1 + k, "invalid format specifier in expression"),
        }
        k += 1;
    }
    if k != b.len() {
        return err(pos + lead + 1 + k, "invalid format specifier in expression");
    }
    let used = lead + 1 + comma + 1;
    Ok((Some(f), &s[used..], used))
}

fn parse_numeric(s: &str, pos: usize, line: usize) -> Result<Piece, PatternError> {
    let (format, body, used) = parse_format(s, pos)?;
    let pos = pos + used;
    // A definition has a `:` outside of any expression.
    if let Some(colon) = body.find(':') {
        let name = body[..colon].trim();
        let lead = body[..colon].len() - body[..colon].trim_start().len();
        if !valid_name(name) {
            return err(pos + lead, "invalid variable name");
        }
        let rest = &body[colon + 1..];
        let constraint = if rest.trim().is_empty() {
            None
        } else {
            Some(parse_expr(rest, pos + colon + 1, line)?)
        };
        return Ok(Piece::DefNum {
            name: name.to_string(),
            format: format.unwrap_or_default(),
            constraint,
        });
    }
    if body.trim().is_empty() {
        return err(
            pos,
            "empty numeric expression should be followed by a matching constraint",
        );
    }
    let expr = parse_expr(body, pos, line)?;
    Ok(Piece::UseNum {
        pos: expr.pos,
        expr,
        format,
    })
}

/// Parses `operand (('+'|'-') operand)*` starting at check offset `pos`.
fn parse_expr(s: &str, pos: usize, line: usize) -> Result<NumExpr, PatternError> {
    let b = s.as_bytes();
    let mut k = 0;
    let skip = |k: &mut usize| {
        while *k < b.len() && (b[*k] == b' ' || b[*k] == b'\t') {
            *k += 1;
        }
    };
    skip(&mut k);
    let start = pos + k;
    let mut terms = Vec::new();
    let mut neg = false;
    if k < b.len() && (b[k] == b'+' || b[k] == b'-') && terms.is_empty() {
        neg = b[k] == b'-';
        k += 1;
        skip(&mut k);
    }
    loop {
        if k >= b.len() {
            return err(pos + k, "missing operand in expression");
        }
        let o_start = k;
        let operand = if s[k..].starts_with("@LINE") {
            k += 5;
            Operand::Lit(line as i128)
        } else if b[k].is_ascii_digit() {
            let hex = s[k..].starts_with("0x");
            if hex {
                k += 2;
            }
            let d0 = k;
            while k < b.len() && (b[k].is_ascii_hexdigit() && (hex || b[k].is_ascii_digit())) {
                k += 1;
            }
            let v = i128::from_str_radix(&s[d0..k], if hex { 16 } else { 10 }).unwrap_or(0);
            Operand::Lit(v)
        } else if b[k].is_ascii_alphabetic() || b[k] == b'_' || b[k] == b'$' {
            k += 1;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                k += 1;
            }
            Operand::Var(s[o_start..k].to_string(), pos + o_start)
        } else {
            return err(pos + k, "invalid operand format");
        };
        terms.push((neg, operand));
        skip(&mut k);
        if k >= b.len() {
            break;
        }
        match b[k] {
            b'+' | b'-' => {
                neg = b[k] == b'-';
                k += 1;
                skip(&mut k);
            }
            c => return err(pos + k, format!("unsupported operation '{}'", c as char)),
        }
    }
    Ok(NumExpr {
        terms,
        pos: start,
        text: s.trim().to_string(),
    })
}

/// The message POSIX `regcomp` would give for `re`, if it is invalid.
pub fn posix_regex_error(re: &str) -> Option<&'static str> {
    if re.is_empty() {
        return Some("empty (sub)expression");
    }
    if re.ends_with('\\') && !re.ends_with("\\\\") {
        return Some("trailing backslash (\\)");
    }
    let b = re.as_bytes();
    let mut depth = 0i32;
    let mut k = 0;
    let mut prev_atom = false;
    while k < b.len() {
        match b[k] {
            b'\\' => {
                k += 2;
                prev_atom = true;
                continue;
            }
            b'[' => {
                // Find the closing bracket (a leading `]` or `^]` is literal).
                let mut j = k + 1;
                if j < b.len() && b[j] == b'^' {
                    j += 1;
                }
                if j < b.len() && b[j] == b']' {
                    j += 1;
                }
                while j < b.len() && b[j] != b']' {
                    if b[j] == b'[' && j + 1 < b.len() && b[j + 1] == b':' {
                        if let Some(e) = re[j + 2..].find(":]") {
                            j += 2 + e + 2;
                            continue;
                        }
                    }
                    if j + 2 < b.len() && b[j + 1] == b'-' && b[j + 2] != b']' && b[j + 2] < b[j] {
                        return Some("invalid character range");
                    }
                    j += 1;
                }
                if j >= b.len() {
                    return Some("brackets ([ ]) not balanced");
                }
                k = j + 1;
                prev_atom = true;
                continue;
            }
            b'(' => {
                depth += 1;
                if b.get(k + 1) == Some(&b')') {
                    return Some("empty (sub)expression");
                }
                prev_atom = false;
            }
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return Some("parentheses not balanced");
                }
                prev_atom = true;
            }
            b'|' => {
                if k + 1 >= b.len() || b[k + 1] == b'|' || b[k + 1] == b')' || k == 0 {
                    return Some("empty (sub)expression");
                }
                prev_atom = false;
            }
            b'*' | b'+' | b'?' => {
                if !prev_atom {
                    return Some("repetition-operator operand invalid");
                }
            }
            b'{' => {
                if let Some(e) = re[k..].find('}') {
                    let body = &re[k + 1..k + e];
                    let mut parts = body.split(',');
                    let lo = parts.next().and_then(|x| x.parse::<u32>().ok());
                    let hi = parts.next().map(|x| {
                        if x.is_empty() {
                            Some(u32::MAX)
                        } else {
                            x.parse::<u32>().ok()
                        }
                    });
                    let ok = match (lo, hi) {
                        (Some(_), None) => true,
                        (Some(l), Some(Some(h))) => l <= h,
                        _ => false,
                    };
                    if !ok {
                        return Some("invalid repetition count(s)");
                    }
                    k += e + 1;
                    continue;
                }
                prev_atom = true;
            }
            _ => prev_atom = true,
        }
        k += 1;
    }
    if depth != 0 {
        return Some("parentheses not balanced");
    }
    if fancy_regex::Regex::new(re).is_err() {
        return Some("invalid regular expression");
    }
    None
}

/// Variable values while matching.
#[derive(Default, Clone, Debug)]
pub struct Vars {
    /// String variables.
    pub strings: HashMap<String, String>,
    /// Numeric variables and their formats.
    pub numbers: HashMap<String, (i128, NumFormat)>,
}

/// Why a pattern cannot be built now.
pub enum Unresolved {
    /// Variables with no value (name, offset), in pattern order.
    Undefined(Vec<(String, usize)>),
    /// A numeric expression whose value does not fit its format.
    Overflow(usize),
}

fn eval(expr: &NumExpr, vars: &Vars, fmt: NumFormat) -> Result<i128, Unresolved> {
    let mut v: i128 = 0;
    for (neg, o) in &expr.terms {
        let x = match o {
            Operand::Lit(x) => *x,
            Operand::Var(n, p) => match vars.numbers.get(n) {
                Some((x, _)) => *x,
                None => return Err(Unresolved::Undefined(vec![(n.clone(), *p)])),
            },
        };
        v = if *neg { v - x } else { v + x };
    }
    if v < 0 && !fmt.signed() {
        return Err(Unresolved::Overflow(expr.pos));
    }
    Ok(v)
}

/// A compiled pattern with the names its capture groups define.
pub struct Compiled {
    /// The regular expression.
    pub regex: fancy_regex::Regex,
    /// Group name → (variable, numeric format if numeric).
    pub defs: Vec<(String, String, Option<NumFormat>)>,
    /// Variables used, with their values, for notes.
    pub uses: Vec<(String, String)>,
}

/// Builds the regex of `pieces` against the current variables.
pub fn compile(
    pieces: &[Piece],
    vars: &Vars,
    full_lines: bool,
    strict_ws: bool,
    ignore_case: bool,
) -> Result<Compiled, Unresolved> {
    let mut re = String::new();
    if ignore_case {
        re.push_str("(?i)");
    }
    re.push_str("(?m)");
    if full_lines {
        re.push('^');
        if !strict_ws {
            re.push_str(" *");
        }
    }
    let mut defs = Vec::new();
    let mut uses = Vec::new();
    let mut undefined = Vec::new();
    let mut local: HashMap<&str, String> = HashMap::new();
    for p in pieces {
        match p {
            Piece::Lit(s) => re.push_str(&fancy_regex::escape(s)),
            Piece::Regex(r) => {
                re.push_str("(?:");
                re.push_str(r);
                re.push(')');
            }
            Piece::DefStr { name, regex } => {
                let g = format!("fcv{}", defs.len());
                re.push_str(&format!("(?P<{g}>{regex})"));
                local.insert(name, g.clone());
                defs.push((g, name.clone(), None));
            }
            Piece::DefNum {
                name,
                format,
                constraint,
            } => {
                let g = format!("fcv{}", defs.len());
                let body = match constraint {
                    None => format.regex(),
                    Some(expr) => {
                        let v = eval(expr, vars, *format)?;
                        fancy_regex::escape(&format.render(v)).into_owned()
                    }
                };
                re.push_str(&format!("(?P<{g}>{body})"));
                local.insert(name, g.clone());
                defs.push((g, name.clone(), Some(*format)));
            }
            Piece::UseStr { name, pos } => {
                if let Some(g) = local.get(name.as_str()) {
                    re.push_str(&format!("\\k<{g}>"));
                } else if let Some(v) = vars.strings.get(name) {
                    re.push_str(&fancy_regex::escape(v));
                    uses.push((name.clone(), v.clone()));
                } else {
                    undefined.push((name.clone(), *pos));
                }
            }
            Piece::UseNum { expr, format, .. } => {
                // Without an explicit format, the first variable's format.
                let fmt = format.unwrap_or_else(|| {
                    expr.first_var()
                        .and_then(|n| vars.numbers.get(n))
                        .map_or(NumFormat::default(), |x| x.1)
                });
                let v = match eval(expr, vars, fmt) {
                    Ok(v) => v,
                    Err(Unresolved::Undefined(mut u)) => {
                        undefined.append(&mut u);
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                let text = fmt.render(v);
                uses.push((expr.text.clone(), text.clone()));
                re.push_str(&fancy_regex::escape(&text));
            }
        }
    }
    if !undefined.is_empty() {
        return Err(Unresolved::Undefined(undefined));
    }
    if full_lines {
        if !strict_ws {
            re.push_str(" *");
        }
        re.push('$');
    }
    let regex = fancy_regex::Regex::new(&re)
        .unwrap_or_else(|_| fancy_regex::Regex::new("(?!)").expect("valid"));
    Ok(Compiled { regex, defs, uses })
}

/// Records the variables a successful match defined.
pub fn define(c: &Compiled, caps: &fancy_regex::Captures, vars: &mut Vars) {
    for (g, name, num) in &c.defs {
        let Some(m) = caps.name(g) else { continue };
        match num {
            None => {
                vars.strings.insert(name.clone(), m.as_str().to_string());
            }
            Some(f) => {
                if let Some(v) = f.parse(m.as_str()) {
                    vars.numbers.insert(name.clone(), (v, *f));
                }
            }
        }
    }
}

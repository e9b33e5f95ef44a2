//! Numeric substitution blocks `[[#...]]`: values, formats, the expression
//! tree and its parser, with LLVM 14's rules and messages.
//!
//! Values live in the range LLVM 14's `ExpressionValue` can hold,
//! `[i64::MIN, u64::MAX]`; an operation whose exact result leaves it is an
//! overflow error (so is division by zero). Parsing works on slices of a
//! [`SourceMgr`] buffer, so every error is located where LLVM locates it.

use crate::source::{DiagError, SourceMgr};

/// The smallest and largest value an expression may take.
const MIN: i128 = i64::MIN as i128;
const MAX: i128 = u64::MAX as i128;

/// A numeric value, or the overflow error.
type Value = Result<i128, Overflow>;

/// A value out of range, or a division by zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

fn in_range(v: i128) -> Value {
    if (MIN..=MAX).contains(&v) {
        Ok(v)
    } else {
        Err(Overflow)
    }
}

/// The binary operations of expressions and calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `+`, `add`
    Add,
    /// `-`, `sub`
    Sub,
    /// `mul`
    Mul,
    /// `div`
    Div,
    /// `max`
    Max,
    /// `min`
    Min,
}

impl Op {
    fn eval(self, l: i128, r: i128) -> Value {
        match self {
            Op::Add => in_range(l + r),
            Op::Sub => in_range(l - r),
            Op::Mul => l.checked_mul(r).map_or(Err(Overflow), in_range),
            Op::Div if r == 0 => Err(Overflow),
            Op::Div => in_range(l / r),
            Op::Max => Ok(l.max(r)),
            Op::Min => Ok(l.min(r)),
        }
    }
}

/// The kind of a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatKind {
    /// No format (a literal's implicit format).
    None,
    /// `%u`
    Unsigned,
    /// `%d`
    Signed,
    /// `%X`
    HexUpper,
    /// `%x`
    HexLower,
}

/// How a value is matched and printed: `%[#][.N]{u,d,x,X}`.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// The conversion.
    pub kind: FormatKind,
    /// Minimum number of digits.
    pub precision: u32,
    /// `#`: a `0x` prefix (hex only).
    pub alt: bool,
}

impl PartialEq for Format {
    /// LLVM's rule: no format equals nothing, not even itself.
    fn eq(&self, o: &Format) -> bool {
        self.kind != FormatKind::None
            && self.kind == o.kind
            && self.precision == o.precision
            && self.alt == o.alt
    }
}

impl Format {
    /// No format.
    pub const NONE: Format = Format {
        kind: FormatKind::None,
        precision: 0,
        alt: false,
    };
    /// `%u`.
    pub const UNSIGNED: Format = Format {
        kind: FormatKind::Unsigned,
        precision: 0,
        alt: false,
    };

    fn new(kind: FormatKind, precision: u32, alt: bool) -> Format {
        Format {
            kind,
            precision,
            alt,
        }
    }

    /// Whether this is a format at all.
    pub fn is_some(&self) -> bool {
        self.kind != FormatKind::None
    }

    /// `%u`, `%d`, `%X`, `%x` or `<none>` (precision and `#` not shown).
    pub fn name(&self) -> &'static str {
        match self.kind {
            FormatKind::None => "<none>",
            FormatKind::Unsigned => "%u",
            FormatKind::Signed => "%d",
            FormatKind::HexUpper => "%X",
            FormatKind::HexLower => "%x",
        }
    }

    /// The regular expression matching any value of this format.
    pub fn wildcard(&self) -> String {
        let alt = if self.alt { "0x" } else { "" };
        let (plain, padded) = match self.kind {
            FormatKind::Signed => ("-?[0-9]+", "-?([1-9][0-9]*)?[0-9]"),
            FormatKind::HexUpper => ("[0-9A-F]+", "([1-9A-F][0-9A-F]*)?[0-9A-F]"),
            FormatKind::HexLower => ("[0-9a-f]+", "([1-9a-f][0-9a-f]*)?[0-9a-f]"),
            _ => ("[0-9]+", "([1-9][0-9]*)?[0-9]"),
        };
        if self.precision > 0 {
            format!("{alt}{padded}{{{}}}", self.precision)
        } else if matches!(self.kind, FormatKind::Signed | FormatKind::Unsigned) {
            plain.to_string()
        } else {
            format!("{alt}{plain}")
        }
    }

    /// The text of `v` in this format; an overflow when the format cannot
    /// show it (a negative value for `%u`/`%x`, above `i64::MAX` for `%d`).
    pub fn render(&self, v: i128) -> Result<String, Overflow> {
        let signed = self.kind == FormatKind::Signed;
        if (signed && v > i64::MAX as i128) || (!signed && v < 0) {
            return Err(Overflow);
        }
        let abs = v.unsigned_abs();
        let digits = match self.kind {
            FormatKind::HexUpper => format!("{abs:X}"),
            FormatKind::HexLower => format!("{abs:x}"),
            _ => abs.to_string(),
        };
        let sign = if v < 0 { "-" } else { "" };
        let alt = if self.alt { "0x" } else { "" };
        let pad = (self.precision as usize).saturating_sub(digits.len());
        Ok(format!("{sign}{alt}{}{digits}", "0".repeat(pad)))
    }

    /// The value of matched text `s` (which the wildcard matched), or the
    /// message LLVM gives when it does not fit.
    pub fn parse_value(&self, s: &str) -> Result<i128, &'static str> {
        const UNREPRESENTABLE: &str = "unable to represent numeric value";
        if self.kind == FormatKind::Signed {
            return parse_exact(s, 10, true).ok_or(UNREPRESENTABLE);
        }
        let hex = matches!(self.kind, FormatKind::HexUpper | FormatKind::HexLower);
        let (body, missing_prefix) = match s.strip_prefix("0x") {
            Some(b) if self.alt => (b, false),
            _ => (s, self.alt),
        };
        let v = parse_exact(body, if hex { 16 } else { 10 }, false).ok_or(UNREPRESENTABLE)?;
        if missing_prefix {
            return Err("missing alternate form prefix");
        }
        Ok(v)
    }
}

/// `StringRef::getAsInteger`: the whole of `s` in `radix` (with a leading
/// `-` when `signed`), within i64 (signed) or u64.
fn parse_exact(s: &str, radix: u32, signed: bool) -> Option<i128> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) if signed => (true, d),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mag = u128::from_str_radix(digits, radix).ok()?;
    let v = if neg { -(mag as i128) } else { mag as i128 };
    let ok = if signed {
        (i64::MIN as i128..=i64::MAX as i128).contains(&v)
    } else {
        v <= u64::MAX as i128
    };
    ok.then_some(v)
}

/// An expression tree node. Ranges are addresses in a [`SourceMgr`]
/// buffer; `text` is the expression string LLVM names in messages.
#[derive(Clone, Debug)]
pub enum Ast {
    /// A literal.
    Literal {
        /// Its text.
        text: (usize, usize),
        /// Its value.
        value: i128,
    },
    /// A variable use (`@LINE` included).
    Var {
        /// The name as written.
        name: (usize, usize),
        /// Index in [`Vars::numeric`].
        var: usize,
    },
    /// A binary operation or two-argument call.
    Binary {
        /// Its expression string.
        text: (usize, usize),
        /// The operation.
        op: Op,
        /// Operands.
        args: Box<(Ast, Ast)>,
    },
}

/// A numeric variable.
#[derive(Clone, Debug)]
pub struct NumVar {
    /// Its name.
    pub name: String,
    /// Its implicit format.
    pub format: Format,
    /// Its value, once defined.
    pub value: Option<i128>,
    /// The input text it was captured from (addresses), if captured.
    pub captured: Option<(usize, usize)>,
    /// The check-file line of its definition.
    pub def_line: Option<usize>,
}

/// Why evaluation failed: undefined variables (the names' ranges, in
/// order), or an overflow.
#[derive(Clone, Debug)]
pub enum EvalError {
    /// Variables with no value.
    Undefined(Vec<(usize, usize)>),
    /// Out of range.
    Overflow,
}

/// The variable tables of one FileCheck run.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    /// Every numeric variable ever made (definitions and dummy uses).
    pub numeric: Vec<NumVar>,
    /// Name → numeric variable, as LLVM's `GlobalNumericVariableTable`.
    pub numeric_table: std::collections::HashMap<String, usize>,
    /// String variables' values: text, and where in the input it was
    /// captured (none for `-D`).
    pub strings: std::collections::HashMap<String, (String, Option<(usize, usize)>)>,
    /// String variables defined anywhere (to catch name clashes).
    pub defined_strings: std::collections::HashSet<String>,
    /// `@LINE`.
    pub line_var: usize,
}

impl Vars {
    /// A new numeric variable.
    pub fn make(&mut self, name: &str, format: Format, def_line: Option<usize>) -> usize {
        self.numeric.push(NumVar {
            name: name.to_string(),
            format,
            value: None,
            captured: None,
            def_line,
        });
        self.numeric.len() - 1
    }
}

impl Ast {
    /// The expression string (addresses).
    pub fn text(&self) -> (usize, usize) {
        match self {
            Ast::Literal { text, .. } | Ast::Binary { text, .. } => *text,
            Ast::Var { name, .. } => *name,
        }
    }

    /// Evaluates; undefined variables are all collected (left first).
    pub fn eval(&self, vars: &Vars) -> Result<i128, EvalError> {
        match self {
            Ast::Literal { value, .. } => Ok(*value),
            Ast::Var { name, var } => vars.numeric[*var]
                .value
                .ok_or_else(|| EvalError::Undefined(vec![*name])),
            Ast::Binary { op, args, .. } => {
                let (l, r) = (args.0.eval(vars), args.1.eval(vars));
                match (l, r) {
                    (Ok(l), Ok(r)) => op.eval(l, r).map_err(|_| EvalError::Overflow),
                    (l, r) => {
                        let mut names = Vec::new();
                        let mut overflow = false;
                        for e in [l.err(), r.err()].into_iter().flatten() {
                            match e {
                                EvalError::Undefined(mut n) => names.append(&mut n),
                                EvalError::Overflow => overflow = true,
                            }
                        }
                        if names.is_empty() && overflow {
                            Err(EvalError::Overflow)
                        } else {
                            Err(EvalError::Undefined(names))
                        }
                    }
                }
            }
        }
    }

    /// The implicit format: a variable's own, an operation's operands'
    /// (which must agree), a literal none.
    pub fn implicit_format(&self, sm: &SourceMgr, vars: &Vars) -> Result<Format, Vec<DiagError>> {
        match self {
            Ast::Literal { .. } => Ok(Format::NONE),
            Ast::Var { var, .. } => Ok(vars.numeric[*var].format),
            Ast::Binary { text, args, .. } => {
                let l = args.0.implicit_format(sm, vars);
                let r = args.1.implicit_format(sm, vars);
                let (l, r) = match (l, r) {
                    (Ok(l), Ok(r)) => (l, r),
                    (l, r) => {
                        let mut errs = l.err().unwrap_or_default();
                        errs.extend(r.err().unwrap_or_default());
                        return Err(errs);
                    }
                };
                if l.is_some() && r.is_some() && l != r {
                    let msg = format!(
                        "implicit format conflict between '{}' ({}) and '{}' ({}), need an explicit format specifier",
                        sm.slice(args.0.text()),
                        l.name(),
                        sm.slice(args.1.text()),
                        r.name()
                    );
                    return Err(vec![DiagError::at_range(*text, msg)]);
                }
                Ok(if l.is_some() { l } else { r })
            }
        }
    }
}

/// A parsed numeric block: its expression (none for `[[#VAR:]]`) and
/// format.
#[derive(Clone, Debug)]
pub struct Expression {
    /// The expression tree.
    pub ast: Option<Ast>,
    /// The format of its value.
    pub format: Format,
}

/// What a numeric operand may be at a given point.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowed {
    /// The first operand of a legacy `[[@LINE+n]]`: `@LINE` only.
    LineVar,
    /// The second operand of a legacy `@LINE` expression: a decimal.
    LegacyLiteral,
    /// Anything.
    Any,
}

const SPACES: &[char] = &[' ', '\t'];

/// The numeric-block parser over one buffer.
pub struct Parser<'a> {
    /// Messages and locations.
    pub sm: &'a SourceMgr,
    /// Variables.
    pub vars: &'a mut Vars,
    /// The check-file line being parsed (none on the command line).
    pub line: Option<usize>,
}

type ParseResult<T> = Result<T, Vec<DiagError>>;

fn err<T>(at: &str, msg: impl Into<String>) -> ParseResult<T> {
    Err(vec![DiagError::at_str(at, msg)])
}

/// A variable name at the start of `s`: `(name, is_pseudo)`, advancing
/// `s` past it.
pub fn parse_variable<'s>(s: &mut &'s str) -> Result<(&'s str, bool), DiagError> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err(DiagError::at_str(s, "empty variable name"));
    }
    let pseudo = b[0] == b'@';
    let mut i = usize::from(b[0] == b'$' || pseudo);
    // LLVM 14 reads one character past a lone `$`/`@`; it is never a
    // valid start there, so "invalid variable name" results either way.
    let first = b.get(i).copied().unwrap_or(0);
    if !(first == b'_' || first.is_ascii_alphabetic()) {
        return Err(DiagError::at_str(s, "invalid variable name"));
    }
    i += 1;
    while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
        i += 1;
    }
    let name = &s[..i];
    *s = &s[i..];
    Ok((name, pseudo))
}

/// `StringRef::consumeInteger` for unsigned values with `radix` (0: sense
/// it from `0x`, `0b`, `0o`, a leading `0`).
fn consume_unsigned(s: &mut &str, radix: u32) -> Option<u64> {
    let mut t = *s;
    let radix = if radix == 0 {
        if let Some(r) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            t = r;
            16
        } else if let Some(r) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
            t = r;
            2
        } else if let Some(r) = t.strip_prefix("0o") {
            t = r;
            8
        } else if t.len() > 1 && t.starts_with('0') && t.as_bytes()[1].is_ascii_digit() {
            t = &t[1..];
            8
        } else {
            10
        }
    } else {
        radix
    };
    // As LLVM's, a failed parse still drops the radix prefix from `s`.
    *s = t;
    let n = t
        .bytes()
        .take_while(|c| (*c as char).to_digit(36).is_some_and(|d| d < radix))
        .count();
    if n == 0 {
        return None;
    }
    let v = u64::from_str_radix(&t[..n], radix).ok()?;
    *s = &t[n..];
    Some(v)
}

/// The signed counterpart: an optional `-`, then an unsigned magnitude.
fn consume_signed(s: &mut &str, radix: u32) -> Option<i64> {
    let Some(mut t) = s.strip_prefix('-') else {
        let v = consume_unsigned(s, radix)?;
        return i64::try_from(v).ok();
    };
    let mag = consume_unsigned(&mut t, radix)?;
    if mag > 1u64 << 63 {
        return None;
    }
    *s = t;
    Some((mag as i128).wrapping_neg() as i64)
}

impl Parser<'_> {
    fn variable_use(&mut self, name: &str, pseudo: bool) -> ParseResult<Ast> {
        if pseudo && name != "@LINE" {
            return err(name, format!("invalid pseudo numeric variable '{name}'"));
        }
        let var = match self.vars.numeric_table.get(name) {
            Some(&v) => v,
            None => {
                let v = self.vars.make(name, Format::UNSIGNED, None);
                self.vars.numeric_table.insert(name.to_string(), v);
                v
            }
        };
        if let (Some(d), Some(l)) = (self.vars.numeric[var].def_line, self.line) {
            if d == l {
                return err(
                    name,
                    format!(
                        "numeric variable '{name}' defined earlier in the same CHECK directive"
                    ),
                );
            }
        }
        Ok(Ast::Var {
            name: self.sm.range_of(name),
            var,
        })
    }

    fn operand(
        &mut self,
        s: &mut &str,
        allowed: Allowed,
        maybe_constraint: bool,
    ) -> ParseResult<Ast> {
        if s.starts_with('(') {
            if allowed != Allowed::Any {
                return err(s, "parenthesized expression not permitted here");
            }
            return self.paren(s);
        }
        if matches!(allowed, Allowed::LineVar | Allowed::Any) {
            let mut t = *s;
            match parse_variable(&mut t) {
                Ok((name, pseudo)) => {
                    *s = t;
                    if s.trim_start_matches(SPACES).starts_with('(') {
                        if allowed != Allowed::Any {
                            return err(name, "unexpected function call");
                        }
                        return self.call(s, name);
                    }
                    return self.variable_use(name, pseudo);
                }
                Err(e) if allowed == Allowed::LineVar => return Err(vec![e]),
                Err(_) => {}
            }
        }
        let saved = *s;
        let radix = if allowed == Allowed::LegacyLiteral {
            10
        } else {
            0
        };
        let mut t = *s;
        if let Some(v) = consume_unsigned(&mut t, radix) {
            *s = t;
            let text = &saved[..saved.len() - s.len()];
            return Ok(Ast::Literal {
                text: self.sm.range_of(text),
                value: v as i128,
            });
        }
        if allowed == Allowed::Any {
            if let Some(v) = consume_signed(s, 0) {
                let text = &saved[..saved.len() - s.len()];
                return Ok(Ast::Literal {
                    text: self.sm.range_of(text),
                    value: v as i128,
                });
            }
        }
        let what = if maybe_constraint {
            "invalid matching constraint or operand format"
        } else {
            "invalid operand format"
        };
        err(s, what)
    }

    fn paren(&mut self, s: &mut &str) -> ParseResult<Ast> {
        *s = s.trim_start_matches(SPACES);
        *s = &s[1..];
        *s = s.trim_start_matches(SPACES);
        if s.is_empty() {
            return err(s, "missing operand in expression");
        }
        let mut sub = self.operand(s, Allowed::Any, false);
        *s = s.trim_start_matches(SPACES);
        while let Ok(left) = sub {
            if s.is_empty() || s.starts_with(')') {
                sub = Ok(left);
                break;
            }
            let outer = *s;
            sub = self.binop(outer, s, left, false);
            *s = s.trim_start_matches(SPACES);
        }
        let sub = sub?;
        match s.strip_prefix(')') {
            Some(r) => {
                *s = r;
                Ok(sub)
            }
            None => err(s, "missing ')' at end of nested expression"),
        }
    }

    fn binop(&mut self, expr: &str, rest: &mut &str, left: Ast, legacy: bool) -> ParseResult<Ast> {
        *rest = rest.trim_start_matches(SPACES);
        if rest.is_empty() {
            return Ok(left);
        }
        let op_at = *rest;
        let c = rest.chars().next().unwrap_or(' ');
        *rest = &rest[c.len_utf8()..];
        let op = match c {
            '+' => Op::Add,
            '-' => Op::Sub,
            _ => return err(op_at, format!("unsupported operation '{c}'")),
        };
        *rest = rest.trim_start_matches(SPACES);
        if rest.is_empty() {
            return err(rest, "missing operand in expression");
        }
        let allowed = if legacy {
            Allowed::LegacyLiteral
        } else {
            Allowed::Any
        };
        let right = self.operand(rest, allowed, false)?;
        let text = &expr[..expr.len() - rest.len()];
        Ok(Ast::Binary {
            text: self.sm.range_of(text),
            op,
            args: Box::new((left, right)),
        })
    }

    fn call(&mut self, s: &mut &str, name: &str) -> ParseResult<Ast> {
        *s = s.trim_start_matches(SPACES);
        let op = match name {
            "add" => Op::Add,
            "div" => Op::Div,
            "max" => Op::Max,
            "min" => Op::Min,
            "mul" => Op::Mul,
            "sub" => Op::Sub,
            _ => return err(name, format!("call to undefined function '{name}'")),
        };
        *s = &s[1..];
        *s = s.trim_start_matches(SPACES);
        let mut args = Vec::new();
        while !s.is_empty() && !s.starts_with(')') {
            if s.starts_with(',') {
                return err(s, "missing argument");
            }
            let outer = *s;
            let mut arg = self.operand(s, Allowed::Any, false);
            while let Ok(a) = arg {
                if s.is_empty() {
                    arg = Ok(a);
                    break;
                }
                *s = s.trim_start_matches(SPACES);
                if s.starts_with(',') || s.starts_with(')') {
                    arg = Ok(a);
                    break;
                }
                arg = self.binop(outer, s, a, false);
            }
            args.push(arg?);
            *s = s.trim_start_matches(SPACES);
            match s.strip_prefix(',') {
                Some(r) => *s = r,
                None => break,
            }
            *s = s.trim_start_matches(SPACES);
            if s.starts_with(')') {
                return err(s, "missing argument");
            }
        }
        match s.strip_prefix(')') {
            Some(r) => *s = r,
            None => return err(s, "missing ')' at end of call expression"),
        }
        if args.len() == 2 {
            let r = args.pop().expect("two arguments");
            let l = args.pop().expect("two arguments");
            // LLVM names a call by the text after it.
            return Ok(Ast::Binary {
                text: self.sm.range_of(s),
                op,
                args: Box::new((l, r)),
            });
        }
        err(
            name,
            format!(
                "function '{name}' takes 2 arguments but {} given",
                args.len()
            ),
        )
    }

    /// Parses the inside of a numeric block (after `#`, or a legacy
    /// `@LINE` expression): the expression and the variable it defines.
    pub fn block(&mut self, expr: &str, legacy: bool) -> ParseResult<(Expression, Option<usize>)> {
        let mut expr = expr;
        let mut explicit = Format::NONE;
        let mut precision = 0u32;
        let comma = expr.find(',');
        let paren = expr.find('(');
        if let Some(c) = comma.filter(|&c| paren.is_none_or(|p| c < p)) {
            let mut spec = expr[..c].trim_matches(SPACES);
            expr = &expr[c + 1..];
            let Some(rest) = spec.strip_prefix('%') else {
                return err(spec, "invalid matching format specification in expression");
            };
            spec = rest;
            let alt_at = spec;
            let alt = match spec.strip_prefix('#') {
                Some(r) => {
                    spec = r;
                    true
                }
                None => false,
            };
            if let Some(r) = spec.strip_prefix('.') {
                spec = r;
                let mut t = spec;
                match consume_unsigned(&mut t, 10).and_then(|v| u32::try_from(v).ok()) {
                    Some(p) => {
                        precision = p;
                        spec = t;
                    }
                    None => return err(spec, "invalid precision in format specifier"),
                }
            }
            if !spec.is_empty() {
                let at = spec;
                let c = spec.chars().next().unwrap_or(' ');
                spec = &spec[c.len_utf8()..];
                explicit = match c {
                    'u' => Format::new(FormatKind::Unsigned, precision, false),
                    'd' => Format::new(FormatKind::Signed, precision, false),
                    'x' => Format::new(FormatKind::HexLower, precision, alt),
                    'X' => Format::new(FormatKind::HexUpper, precision, alt),
                    _ => return err(at, "invalid format specifier in expression"),
                };
            }
            if alt && !matches!(explicit.kind, FormatKind::HexLower | FormatKind::HexUpper) {
                return err(alt_at, "alternate form only supported for hex values");
            }
            let spec = spec.trim_start_matches(SPACES);
            if !spec.is_empty() {
                return err(spec, "invalid matching format specification in expression");
            }
        }
        let mut def_expr: Option<&str> = None;
        if let Some(d) = expr.find(':') {
            def_expr = Some(&expr[..d]);
            expr = &expr[d + 1..];
        }
        expr = expr.trim_start_matches(SPACES);
        let constraint = match expr.strip_prefix("==") {
            Some(r) => {
                expr = r;
                true
            }
            None => false,
        };
        expr = expr.trim_start_matches(SPACES);
        let mut ast = None;
        if expr.is_empty() {
            if constraint {
                return err(
                    expr,
                    "empty numeric expression should not have a constraint",
                );
            }
        } else {
            expr = expr.trim_end_matches(SPACES);
            let outer = expr;
            let allowed = if legacy {
                Allowed::LineVar
            } else {
                Allowed::Any
            };
            let mut result = self.operand(&mut expr, allowed, !constraint);
            while let Ok(left) = result {
                if expr.is_empty() {
                    result = Ok(left);
                    break;
                }
                result = self.binop(outer, &mut expr, left, legacy);
                if result.is_ok() && legacy && !expr.is_empty() {
                    return err(
                        expr,
                        format!("unexpected characters at end of expression '{expr}'"),
                    );
                }
            }
            ast = Some(result?);
        }
        let mut format = explicit;
        if !format.is_some() {
            if let Some(a) = &ast {
                format = a.implicit_format(self.sm, self.vars)?;
            }
        }
        if !format.is_some() {
            format = Format::new(FormatKind::Unsigned, precision, false);
        }
        let mut defined = None;
        if let Some(d) = def_expr {
            defined = Some(self.definition(d.trim_start_matches(SPACES), format)?);
        }
        Ok((Expression { ast, format }, defined))
    }

    fn definition(&mut self, s: &str, format: Format) -> ParseResult<usize> {
        let mut t = s;
        let (name, pseudo) = parse_variable(&mut t).map_err(|e| vec![e])?;
        if pseudo {
            return err(name, "definition of pseudo numeric variable unsupported");
        }
        if self.vars.defined_strings.contains(name) {
            return err(
                name,
                format!("string variable with name '{name}' already exists"),
            );
        }
        let t = t.trim_start_matches(SPACES);
        if !t.is_empty() {
            return err(t, "unexpected characters after numeric variable name");
        }
        match self.vars.numeric_table.get(name) {
            Some(&v) => {
                if self.vars.numeric[v].format != format {
                    return err(t, "format different from previous variable definition");
                }
                Ok(v)
            }
            None => Ok(self.vars.make(name, format, self.line)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_stay_within_i64_min_to_u64_max() {
        assert_eq!(Op::Add.eval(u64::MAX as i128, 0), Ok(u64::MAX as i128));
        assert_eq!(Op::Add.eval(u64::MAX as i128, 1), Err(Overflow));
        assert_eq!(Op::Sub.eval(i64::MIN as i128, 1), Err(Overflow));
        assert_eq!(
            Op::Mul.eval(u64::MAX as i128, u64::MAX as i128),
            Err(Overflow)
        );
        assert_eq!(Op::Div.eval(7, 0), Err(Overflow));
        assert_eq!(Op::Div.eval(-7, 2), Ok(-3));
        assert_eq!(Op::Min.eval(-1, 2), Ok(-1));
    }

    #[test]
    fn formats_render_and_read_back() {
        let hex = Format::new(FormatKind::HexLower, 4, true);
        assert_eq!(hex.render(0xac), Ok("0x00ac".to_string()));
        assert_eq!(hex.wildcard(), "0x([1-9a-f][0-9a-f]*)?[0-9a-f]{4}");
        assert_eq!(hex.parse_value("0x00ac"), Ok(0xac));
        assert_eq!(
            hex.parse_value("00ac"),
            Err("missing alternate form prefix")
        );
        assert_eq!(Format::UNSIGNED.render(-1), Err(Overflow));
        let signed = Format::new(FormatKind::Signed, 3, false);
        assert_eq!(signed.render(-5), Ok("-005".to_string()));
        assert_eq!(
            signed.parse_value("9223372036854775808"),
            Err("unable to represent numeric value")
        );
        // No format equals nothing, not even itself.
        assert_ne!(Format::NONE, Format::NONE);
    }

    #[test]
    fn integers_are_read_with_llvm_radix_sensing() {
        let mut s = "0x1fz";
        assert_eq!(consume_unsigned(&mut s, 0), Some(0x1f));
        assert_eq!(s, "z");
        let mut s = "017";
        assert_eq!(consume_unsigned(&mut s, 0), Some(0o17));
        let mut s = "0x";
        assert_eq!(consume_unsigned(&mut s, 0), None);
        assert_eq!(s, "", "a failed parse still drops the radix prefix");
        let mut s = "-9223372036854775808";
        assert_eq!(consume_signed(&mut s, 0), Some(i64::MIN));
    }
}

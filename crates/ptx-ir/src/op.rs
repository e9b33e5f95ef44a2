//! Opcodes, modifiers and the per-function table of interned instruction
//! forms (`add.s32`, `setp.lt.and.f32`, …).
//!
//! An instruction stores one [`OpId`]. Everything after the mnemonic is kept
//! as an ordered list of [`Mod`]s, so printing is lossless and a typed view
//! is a lookup in [`OpInfo`]. A modifier we do not know is kept as
//! [`Mod::Word`] with its text.

use crate::types::Type;
use rustc_hash::FxHashMap;
use std::fmt::Write;
use std::sync::{Arc, OnceLock};

/// The instruction families the IR gives semantics to. Anything else is
/// [`Opcode::Other`] and keeps its mnemonic verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Opcode {
    Mov,
    Add,
    Sub,
    Mul,
    Mad,
    Neg,
    Abs,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
    Lop3,
    Set,
    Setp,
    Selp,
    Slct,
    Vadd2,
    Vsub2,
    Vavrg2,
    Vabsdiff2,
    Vmin2,
    Vmax2,
    Vote,
    Activemask,
    Prmt,
    Bfe,
    Bfi,
    Shf,
    Cvt,
    Cvta,
    Ld,
    St,
    Bra,
    /// `brx.idx`: indirect branch through a `.branchtargets` list.
    Brx,
    Ret,
    Exit,
    Call,
    /// IR-only unconditional jump that prints as nothing when its target is
    /// the next block (PTX fall-through), and as `bra` otherwise.
    Jump,
    /// Any other mnemonic, kept verbatim.
    Other,
}

impl Opcode {
    /// Maps a PTX mnemonic to a known family.
    pub fn from_mnemonic(s: &str) -> Opcode {
        use Opcode::*;
        match s {
            "mov" => Mov,
            "add" => Add,
            "sub" => Sub,
            "mul" => Mul,
            "mad" => Mad,
            "neg" => Neg,
            "abs" => Abs,
            "min" => Min,
            "max" => Max,
            "and" => And,
            "or" => Or,
            "xor" => Xor,
            "not" => Not,
            "cnot" => Cnot,
            "shl" => Shl,
            "shr" => Shr,
            "lop3" => Lop3,
            "set" => Set,
            "setp" => Setp,
            "selp" => Selp,
            "slct" => Slct,
            "vadd2" => Vadd2,
            "vsub2" => Vsub2,
            "vavrg2" => Vavrg2,
            "vabsdiff2" => Vabsdiff2,
            "vmin2" => Vmin2,
            "vmax2" => Vmax2,
            "vote" => Vote,
            "activemask" => Activemask,
            "prmt" => Prmt,
            "bfe" => Bfe,
            "bfi" => Bfi,
            "shf" => Shf,
            "cvt" => Cvt,
            "cvta" => Cvta,
            "ld" => Ld,
            "st" => St,
            "bra" => Bra,
            "brx" => Brx,
            "ret" => Ret,
            "exit" => Exit,
            "call" => Call,
            "jump" => Jump,
            _ => Other,
        }
    }

    /// The mnemonic of a known family (`None` for [`Opcode::Other`]).
    pub fn mnemonic(self) -> Option<&'static str> {
        use Opcode::*;
        Some(match self {
            Mov => "mov",
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Mad => "mad",
            Neg => "neg",
            Abs => "abs",
            Min => "min",
            Max => "max",
            And => "and",
            Or => "or",
            Xor => "xor",
            Not => "not",
            Cnot => "cnot",
            Shl => "shl",
            Shr => "shr",
            Lop3 => "lop3",
            Set => "set",
            Setp => "setp",
            Selp => "selp",
            Slct => "slct",
            Vadd2 => "vadd2",
            Vsub2 => "vsub2",
            Vavrg2 => "vavrg2",
            Vabsdiff2 => "vabsdiff2",
            Vmin2 => "vmin2",
            Vmax2 => "vmax2",
            Vote => "vote",
            Activemask => "activemask",
            Prmt => "prmt",
            Bfe => "bfe",
            Bfi => "bfi",
            Shf => "shf",
            Cvt => "cvt",
            Cvta => "cvta",
            Ld => "ld",
            St => "st",
            Bra => "bra",
            Brx => "brx",
            Jump => "jump",
            Ret => "ret",
            Exit => "exit",
            Call => "call",
            Other => return None,
        })
    }

    /// Whether the family is one of the vop2 SIMD video instructions.
    pub fn is_vop2(self) -> bool {
        use Opcode::*;
        matches!(self, Vadd2 | Vsub2 | Vavrg2 | Vabsdiff2 | Vmin2 | Vmax2)
    }

    /// Whether an instruction of this family ends a block.
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Bra | Opcode::Brx | Opcode::Ret | Opcode::Exit | Opcode::Jump
        )
    }
}

/// Comparison operators of `set`/`setp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl CmpOp {
    const NAMES: [(&'static str, CmpOp); 18] = [
        ("eq", CmpOp::Eq),
        ("ne", CmpOp::Ne),
        ("lt", CmpOp::Lt),
        ("le", CmpOp::Le),
        ("gt", CmpOp::Gt),
        ("ge", CmpOp::Ge),
        ("lo", CmpOp::Lo),
        ("ls", CmpOp::Ls),
        ("hi", CmpOp::Hi),
        ("hs", CmpOp::Hs),
        ("equ", CmpOp::Equ),
        ("neu", CmpOp::Neu),
        ("ltu", CmpOp::Ltu),
        ("leu", CmpOp::Leu),
        ("gtu", CmpOp::Gtu),
        ("geu", CmpOp::Geu),
        ("num", CmpOp::Num),
        ("nan", CmpOp::Nan),
    ];

    /// The operator's name without the dot.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, c)| *c == self)
            .map(|(n, _)| *n)
            .unwrap_or("eq")
    }

    fn from_name(s: &str) -> Option<CmpOp> {
        Self::NAMES.iter().find(|(n, _)| *n == s).map(|(_, c)| *c)
    }
}

/// The `.and`/`.or`/`.xor` combining operator of `set`, `setp` and `lop3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// State spaces, as instruction modifiers and in declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Space {
    Global,
    Shared,
    Local,
    Const,
    Param,
    Generic,
}

impl Space {
    /// The space's name without the dot.
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
            Space::Generic => "generic",
        }
    }

    /// Parses a space name without the dot.
    pub fn from_name(s: &str) -> Option<Space> {
        Some(match s {
            "global" => Space::Global,
            "shared" => Space::Shared,
            "local" => Space::Local,
            "const" => Space::Const,
            "param" => Space::Param,
            "generic" => Space::Generic,
            _ => return None,
        })
    }
}

/// One instruction modifier: the text between two dots after the mnemonic.
///
/// `.and`, `.or` and `.xor` are read as [`BoolOp`]s, `.min`/`.max`/`.add` as
/// plain words: which role a word plays depends on the family, and typed
/// views in [`OpInfo`] resolve that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mod {
    /// A type such as `.s32`.
    Type(Type),
    /// A comparison operator such as `.lt`.
    Cmp(CmpOp),
    /// `.and`, `.or`, `.xor`.
    Bool(BoolOp),
    /// A state space such as `.global`.
    Space(Space),
    /// Any other word, interned in the [`OpTable`]'s symbols.
    Word(Sym),
}

/// Def/use shape of an instruction form: which operands it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The first `n` operands are written; the rest are read.
    Defs(u8),
    /// A `call`: registers in the first parenthesised list (when it comes
    /// before the callee) are written.
    Call,
    /// Unknown form: every register operand may be read and written.
    Unknown,
}

/// Decoded form of one interned instruction spelling.
#[derive(Clone, Debug)]
pub struct OpInfo {
    /// The family.
    pub opcode: Opcode,
    /// The mnemonic as written (`"add"`, `"tex"`).
    pub mnemonic: Arc<str>,
    /// Modifiers in source order (shared by the tables a form is copied
    /// into, unless it names words of its own table).
    pub mods: Arc<[Mod]>,
    /// The full spelling, `mnemonic.mod.mod`.
    pub text: Arc<str>,
    /// Which operands the form writes.
    pub shape: Shape,
    /// Whether the form must never be deleted, moved or merged.
    pub side_effects: bool,
    /// What the operand checks read of the form, decoded once.
    pub checks: FormChecks,
}

/// The facts about a form that operand checking reads, decoded with it
/// (the parser and the verifier check every instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormChecks {
    /// The form takes its optional extra operand: a `.BoolOp` (`set`,
    /// `setp`, `lop3`) or `.sync` (`vote`).
    pub bool_form: bool,
    /// A `.wide` or `.hi` modifier (`mul`/`mad` operands then differ in
    /// size).
    pub wide: bool,
    /// The last type modifier.
    pub last_type: Option<Type>,
    /// The first type modifier, when the form has two (`add.f32.f16`, the
    /// mixed-precision `add`/`sub` of PTX 8.6: `d` and `c` have the first
    /// type, `a` the second).
    pub first_of_two: Option<Type>,
}

impl OpInfo {
    /// The last type modifier (`add.s32` → `s32`; `cvt.f32.s32` → `s32`).
    pub fn last_type(&self) -> Option<Type> {
        self.mods.iter().rev().find_map(|m| match m {
            Mod::Type(t) => Some(*t),
            _ => None,
        })
    }

    /// All type modifiers in order (`cvt.rn.f32.s32` → `[f32, s32]`).
    pub fn types(&self) -> impl Iterator<Item = Type> + '_ {
        self.mods.iter().filter_map(|m| match m {
            Mod::Type(t) => Some(*t),
            _ => None,
        })
    }

    /// The comparison operator, if any.
    pub fn cmp(&self) -> Option<CmpOp> {
        self.mods.iter().find_map(|m| match m {
            Mod::Cmp(c) => Some(*c),
            _ => None,
        })
    }

    /// The combining `.BoolOp`, if any.
    pub fn bool_op(&self) -> Option<BoolOp> {
        self.mods.iter().find_map(|m| match m {
            Mod::Bool(b) => Some(*b),
            _ => None,
        })
    }

    /// The state space modifier, if any.
    pub fn space(&self) -> Option<Space> {
        self.mods.iter().find_map(|m| match m {
            Mod::Space(s) => Some(*s),
            _ => None,
        })
    }
}

/// Identifies one interned instruction form within a function's [`OpTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpId(u32);

impl OpId {
    /// The form's position in its table (forms are numbered from 0 in the
    /// order they were added).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An interned string (modifier word, symbol name, special register, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(u32);

impl Sym {
    /// The raw index.
    pub fn as_u32(self) -> u32 {
        self.0
    }
}

/// A string interner. Each string is stored once; the table holds symbol
/// numbers, hashed and compared through the strings they name.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    strings: Vec<Box<str>>,
    ids: hashbrown::HashTable<Sym>,
}

/// The hash of an interned string.
#[inline]
fn str_hash(s: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(s)
}

impl Interner {
    /// Interns `s`.
    #[inline]
    pub fn intern(&mut self, s: &str) -> Sym {
        let h = str_hash(s);
        let strings = &self.strings;
        if let Some(&i) = self.ids.find(h, |&i| &*strings[i.0 as usize] == s) {
            return i;
        }
        let i = Sym(self.strings.len() as u32);
        self.strings.push(s.into());
        let strings = &self.strings;
        self.ids
            .insert_unique(h, i, |&j| str_hash(&strings[j.0 as usize]));
        i
    }
    /// The symbol of `s` if it was interned.
    pub fn lookup(&self, s: &str) -> Option<Sym> {
        let strings = &self.strings;
        self.ids
            .find(str_hash(s), |&i| &*strings[i.0 as usize] == s)
            .copied()
    }
    /// The text of `sym`.
    #[inline]
    pub fn get(&self, sym: Sym) -> &str {
        &self.strings[sym.0 as usize]
    }
}

/// Interns instruction spellings, and the strings instructions refer to.
#[derive(Clone, Debug, Default)]
pub struct OpTable {
    infos: Vec<OpInfo>,
    /// Spelling → form, built on the first search by text and kept up to
    /// date from then on: a function's table is filled by copying forms
    /// in ([`OpTable::import_new`]), and most are never searched.
    by_text: OnceLock<FxHashMap<Arc<str>, OpId>>,
    /// Strings used by modifiers and operands of this function.
    pub syms: Interner,
}

/// Mnemonics outside the known families whose first operand is a plain
/// destination and which have no effect besides writing it.
const PURE_DEST_FIRST: &[&str] = &[
    "mul24", "mad24", "sad", "div", "rem", "popc", "clz", "bfind", "fns", "brev", "bmsk", "szext",
    "dp4a", "dp2a", "copysign", "fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh",
    "testp", "isspacep", "max3", "min3",
];

/// Mnemonics outside the known families that write no register but touch
/// memory, barriers or other threads.
const EFFECT_NO_DEFS: &[&str] = &[
    "red",
    "bar",
    "barrier",
    "membar",
    "fence",
    "cp",
    "prefetch",
    "prefetchu",
    "trap",
    "brkpt",
    "nanosleep",
    "pmevent",
    "sust",
    "sured",
    "stmatrix",
    "griddepcontrol",
    "discard",
    "applypriority",
];

/// Mnemonics outside the known families that write their first operand but
/// also touch memory or other threads, so they are never deleted or moved.
const EFFECT_DEST_FIRST: &[&str] = &[
    "atom",
    "shfl",
    "match",
    "redux",
    "tex",
    "tld4",
    "suld",
    "txq",
    "suq",
    "ldu",
    "mapa",
    "getctarank",
    "elect",
];

fn mod_from_word(w: &str) -> Option<Mod> {
    if let Some(t) = Type::from_name(w) {
        return Some(Mod::Type(t));
    }
    if let Some(c) = CmpOp::from_name(w) {
        return Some(Mod::Cmp(c));
    }
    if let Some(s) = Space::from_name(w) {
        return Some(Mod::Space(s));
    }
    Some(Mod::Bool(match w {
        "and" => BoolOp::And,
        "or" => BoolOp::Or,
        "xor" => BoolOp::Xor,
        _ => return None,
    }))
}

impl OpTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes room for `forms` more forms and `strings` more strings.
    pub fn reserve(&mut self, forms: usize, strings: usize) {
        self.infos.reserve(forms);
        if let Some(index) = self.by_text.get_mut() {
            index.reserve(forms);
        }
        self.syms.strings.reserve(strings);
        let syms = &mut self.syms;
        let texts = &syms.strings;
        syms.ids
            .reserve(strings, |&j| str_hash(&texts[j.0 as usize]));
    }

    /// The decoded form of `id`.
    #[inline]
    pub fn info(&self, id: OpId) -> &OpInfo {
        &self.infos[id.0 as usize]
    }

    /// Number of distinct forms.
    pub fn len(&self) -> usize {
        self.infos.len()
    }

    /// Whether no form was interned.
    pub fn is_empty(&self) -> bool {
        self.infos.is_empty()
    }

    /// The text of an interned string.
    #[inline]
    pub fn word(&self, w: Sym) -> &str {
        self.syms.get(w)
    }

    /// Interns a string.
    #[inline]
    pub fn sym(&mut self, s: &str) -> Sym {
        self.syms.intern(s)
    }

    /// The [`Mod`] for a modifier word, interning unknown words.
    pub fn mod_for(&mut self, w: &str) -> Mod {
        match mod_from_word(w) {
            Some(m) => m,
            None => Mod::Word(self.syms.intern(w)),
        }
    }

    /// Whether modifier `m` is the word `w`.
    pub fn is_word(&self, m: Mod, w: &str) -> bool {
        matches!(m, Mod::Word(i) if self.word(i) == w)
    }

    /// The form spelled `text`, if already interned.
    #[inline]
    pub fn lookup_text(&self, text: &str) -> Option<OpId> {
        self.index().get(text).copied()
    }

    /// Copies form `id` of another table into this one (re-interning its
    /// words), without decoding the spelling again.
    pub fn import(&mut self, from: &OpTable, id: OpId) -> OpId {
        match self.lookup_text(&from.info(id).text) {
            Some(own) => own,
            None => self.import_new(from, id),
        }
    }

    /// [`OpTable::import`] of a form whose spelling this table does not
    /// have yet (the caller has looked it up with
    /// [`OpTable::lookup_text`]).
    pub fn import_new(&mut self, from: &OpTable, id: OpId) -> OpId {
        let src = from.info(id);
        debug_assert!(self.lookup_text(&src.text).is_none());
        let mut info = src.clone();
        if info.mods.iter().any(|m| matches!(m, Mod::Word(_))) {
            let mods: Vec<Mod> = info
                .mods
                .iter()
                .map(|m| match *m {
                    Mod::Word(w) => Mod::Word(self.syms.intern(from.word(w))),
                    m => m,
                })
                .collect();
            info.mods = mods.into();
        }
        let own = OpId(self.infos.len() as u32);
        if let Some(index) = self.by_text.get_mut() {
            index.insert(info.text.clone(), own);
        }
        self.infos.push(info);
        own
    }

    /// Interns the spelling `text` (`"setp.lt.s32"`), decoding it once.
    pub fn intern_text(&mut self, text: &str) -> OpId {
        if let Some(id) = self.lookup_text(text) {
            return id;
        }
        let mut parts = text.split('.');
        let mnemonic = parts.next().unwrap_or("");
        let mods: Vec<Mod> = parts.map(|w| self.mod_for(w)).collect();
        self.insert(text.into(), mnemonic, mods)
    }

    /// Interns the form `opcode` with `mods` (the canonical spelling is
    /// built from them). `opcode` must be a known family.
    pub fn intern(&mut self, opcode: Opcode, mods: &[Mod]) -> OpId {
        let mut text = String::from(opcode.mnemonic().unwrap_or("nop"));
        for m in mods {
            text.push('.');
            self.write_mod(&mut text, *m);
        }
        self.intern_text(&text)
    }

    fn write_mod(&self, out: &mut String, m: Mod) {
        let _ = match m {
            Mod::Type(t) => write!(out, "{}", t.name()),
            Mod::Cmp(c) => write!(out, "{}", c.name()),
            Mod::Bool(BoolOp::And) => write!(out, "and"),
            Mod::Bool(BoolOp::Or) => write!(out, "or"),
            Mod::Bool(BoolOp::Xor) => write!(out, "xor"),
            Mod::Space(s) => write!(out, "{}", s.name()),
            Mod::Word(i) => write!(out, "{}", self.word(i)),
        };
    }

    fn insert(&mut self, text: Arc<str>, mnemonic: &str, mods: Vec<Mod>) -> OpId {
        let opcode = Opcode::from_mnemonic(mnemonic);
        let has_word = |t: &OpTable, w: &str| mods.iter().any(|m| t.is_word(*m, w));
        let (shape, side_effects) = match opcode {
            Opcode::St => (Shape::Defs(0), true),
            Opcode::Bra | Opcode::Brx | Opcode::Ret | Opcode::Exit | Opcode::Jump => {
                (Shape::Defs(0), true)
            }
            Opcode::Call => (Shape::Call, true),
            // Warp collectives must not move across control flow.
            Opcode::Vote | Opcode::Activemask => (Shape::Defs(1), true),
            // Ordered and volatile loads must stay where they are.
            Opcode::Ld => {
                let ordered = ["volatile", "acquire", "relaxed", "mmio"]
                    .iter()
                    .any(|w| has_word(self, w));
                (Shape::Defs(1), ordered)
            }
            // Carry-flag forms communicate through hidden state.
            Opcode::Add | Opcode::Sub | Opcode::Mad => (Shape::Defs(1), has_word(self, "cc")),
            Opcode::Other => {
                if PURE_DEST_FIRST.contains(&mnemonic) {
                    (Shape::Defs(1), false)
                } else if EFFECT_DEST_FIRST.contains(&mnemonic) {
                    (Shape::Defs(1), true)
                } else if EFFECT_NO_DEFS.contains(&mnemonic) {
                    (Shape::Defs(0), true)
                } else {
                    (Shape::Unknown, true)
                }
            }
            _ => (Shape::Defs(1), false),
        };
        let checks = FormChecks {
            bool_form: match opcode {
                Opcode::Vote => has_word(self, "sync"),
                _ => mods.iter().any(|m| matches!(m, Mod::Bool(_))),
            },
            wide: has_word(self, "wide") || mods.contains(&Mod::Cmp(CmpOp::Hi)),
            last_type: mods.iter().rev().find_map(|m| match m {
                Mod::Type(t) => Some(*t),
                _ => None,
            }),
            first_of_two: {
                let mut types = mods.iter().filter_map(|m| match m {
                    Mod::Type(t) => Some(*t),
                    _ => None,
                });
                match (types.next(), types.next(), types.next()) {
                    (Some(a), Some(_), None) => Some(a),
                    _ => None,
                }
            },
        };
        let id = OpId(self.infos.len() as u32);
        self.infos.push(OpInfo {
            opcode,
            mnemonic: mnemonic.into(),
            mods: mods.into(),
            text: text.clone(),
            shape,
            side_effects,
            checks,
        });
        if let Some(index) = self.by_text.get_mut() {
            index.insert(text, id);
        }
        id
    }

    /// The spelling index, built on first use from the forms so far.
    fn index(&self) -> &FxHashMap<Arc<str>, OpId> {
        self.by_text.get_or_init(|| {
            self.infos
                .iter()
                .enumerate()
                .map(|(k, info)| (info.text.clone(), OpId(k as u32)))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forms copied in before any search, forms added after the index was
    /// built, and a clone taken in between are all found by their text.
    #[test]
    fn spelling_index_is_built_on_first_search_and_kept_current() {
        let mut module = OpTable::new();
        let texts = [
            "mov.u32",
            "ld.param.u64",
            "mul.lo.s32",
            "cvta.to.global.u64",
        ];
        let ids: Vec<OpId> = texts.iter().map(|t| module.intern_text(t)).collect();
        let mut f = OpTable::new();
        let own: Vec<OpId> = ids.iter().map(|&id| f.import_new(&module, id)).collect();
        let copy = f.clone();
        for (t, &o) in texts.iter().zip(&own) {
            assert_eq!(f.lookup_text(t), Some(o));
            assert_eq!(copy.lookup_text(t), Some(o));
            assert_eq!(f.info(o).text.as_ref(), *t);
        }
        // Built now: later forms, interned or copied, go into it.
        let a = f.intern_text("add.s32");
        let late = module.intern_text("setp.lt.s32");
        let b = f.import_new(&module, late);
        assert_eq!(f.lookup_text("add.s32"), Some(a));
        assert_eq!(f.lookup_text("setp.lt.s32"), Some(b));
        assert_eq!(f.intern_text("mov.u32"), own[0]);
        assert_eq!(f.len(), texts.len() + 2);
        // A word modifier is re-interned in the table it is copied into.
        assert!(f.is_word(f.info(own[3]).mods[0], "to"));
    }

    #[test]
    fn decodes_forms() {
        let mut t = OpTable::new();
        let a = t.intern_text("setp.lt.and.f32");
        let info = t.info(a);
        assert_eq!(info.opcode, Opcode::Setp);
        assert_eq!(info.cmp(), Some(CmpOp::Lt));
        assert_eq!(info.bool_op(), Some(BoolOp::And));
        assert_eq!(info.last_type(), Some(Type::F32));
        assert_eq!(t.intern_text("setp.lt.and.f32"), a);
        let b = t.intern(Opcode::Lop3, &[Mod::Type(Type::B32)]);
        assert_eq!(&*t.info(b).text, "lop3.b32");
        let c = t.intern_text("tex.2d.v4.f32.f32");
        assert_eq!(t.info(c).opcode, Opcode::Other);
        assert_eq!(t.info(c).shape, Shape::Defs(1));
        let d = t.intern_text("frobnicate.x");
        assert_eq!(t.info(d).shape, Shape::Unknown);
        assert!(t.info(d).side_effects);
    }
}

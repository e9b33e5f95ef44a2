//! Pipeline text, as LLVM's new pass manager writes it:
//!
//! ```text
//! pipeline := element (',' element)*
//! element  := name ['<' param (';' param)* '>'] ['(' pipeline ')']
//! ```
//!
//! `module(...)` and `function(...)` nest (every pass here works on one
//! function, so both simply group); `default<O0>`…`default<O3>` expand to
//! the `-O` pipelines below.

use crate::registry;

/// One element of pipeline text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A pass (or `default<On>`) with its parameters.
    Pass {
        /// Name.
        name: String,
        /// Parameters between `<` and `>`.
        params: Vec<String>,
    },
    /// `module(...)` or `function(...)`.
    Nest {
        /// The adaptor name.
        adaptor: String,
        /// The nested pipeline.
        inner: Vec<Element>,
    },
}

/// The `-O1` pipeline.
pub const O1: &[&str] = &[
    // Fold register copies first so later passes see the real values.
    "copy-prop",
    // Then drop what the copies and the front end left unused.
    "dce",
    // Dead code gone, some blocks are now empty forwarding blocks.
    "simplify-cfg",
];

/// The `-O2` pipeline.
pub const O2: &[&str] = &[
    // Start from a tidy CFG: unreachable code and jump chains removed.
    "simplify-cfg",
    // Copies hide equal values from value numbering.
    "copy-prop",
    // Fold constants and identities, which can expose more copies' worth
    // of equal operands.
    "const-fold",
    // With constants folded into immediates, set and constant selp
    // results fold into their users (and setp + selp pairs into set).
    "set-fold",
    // With shift amounts folded, masks made from one bit become bfe.
    "instcombine",
    // Merge recomputations now that operands are canonical.
    "cse",
    // Everything that only fed the deleted copies and duplicates is dead.
    "dce",
    // Map the remaining bitwise logic onto lop3 (sm_50+): after cse and
    // dce, shared logic is merged and dead logic no longer counts as
    // fanout. Pieces that only match what ptxas fuses itself are left to
    // it, as are rewrites that raise register pressure and debug targets.
    "lop3-fuse<skip-small>",
    // Blocks emptied by dce become forwarding blocks to bypass.
    "simplify-cfg",
];

/// The `-O3` pipeline: for now the same as `-O2` (no pass beyond it is a
/// win in SASS on the real corpus yet; plain `lop3-fuse`, which also
/// rewrites one-instruction pieces, is not).
pub const O3: &[&str] = O2;

/// The pass list of `-O<level>`.
pub fn level(n: u8) -> &'static [&'static str] {
    match n {
        0 => &[],
        1 => O1,
        2 => O2,
        _ => O3,
    }
}

/// Parses pipeline text.
pub fn parse(text: &str) -> Result<Vec<Element>, String> {
    let b = text.as_bytes();
    let mut k = 0;
    let out = parse_list(text, b, &mut k, 0)?;
    if k != b.len() {
        return Err(format!(
            "invalid pipeline '{text}': unexpected '{}' at offset {k}",
            b[k] as char
        ));
    }
    Ok(out)
}

/// Deepest `adaptor(...)` nesting accepted: the parser recurses per level.
const MAX_NESTING: usize = 64;

fn parse_list(text: &str, b: &[u8], k: &mut usize, depth: usize) -> Result<Vec<Element>, String> {
    if depth > MAX_NESTING {
        return Err(format!(
            "invalid pipeline '{text}': nested deeper than {MAX_NESTING} at offset {k}"
        ));
    }
    let mut out = Vec::new();
    loop {
        let start = *k;
        while *k < b.len() && (b[*k].is_ascii_alphanumeric() || b[*k] == b'-' || b[*k] == b'_') {
            *k += 1;
        }
        let name = text[start..*k].to_string();
        if name.is_empty() {
            return Err(format!(
                "invalid pipeline '{text}': expected a pass name at offset {start}"
            ));
        }
        let mut params = Vec::new();
        if *k < b.len() && b[*k] == b'<' {
            let close = text[*k..]
                .find('>')
                .ok_or_else(|| format!("invalid pipeline '{text}': unterminated '<'"))?;
            params = text[*k + 1..*k + close]
                .split(';')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            *k += close + 1;
        }
        if *k < b.len() && b[*k] == b'(' {
            *k += 1;
            let inner = parse_list(text, b, k, depth + 1)?;
            if *k >= b.len() || b[*k] != b')' {
                return Err(format!("invalid pipeline '{text}': missing ')'"));
            }
            *k += 1;
            out.push(Element::Nest {
                adaptor: name,
                inner,
            });
        } else {
            out.push(Element::Pass { name, params });
        }
        if *k < b.len() && b[*k] == b',' {
            *k += 1;
            continue;
        }
        return Ok(out);
    }
}

/// Resolves elements into registered passes and their parameters,
/// expanding `default<On>` and nesting. Unknown names are errors that list
/// the valid ones.
pub fn resolve(
    elems: &[Element],
) -> Result<Vec<(&'static registry::PassInfo, Vec<String>)>, String> {
    let mut out = Vec::new();
    for e in elems {
        match e {
            Element::Nest { adaptor, inner } => {
                if adaptor != "module" && adaptor != "function" {
                    return Err(unknown(adaptor));
                }
                out.extend(resolve(inner)?);
            }
            Element::Pass { name, params } if name == "default" => {
                let lvl = match params.as_slice() {
                    [p] if p.len() == 2 && p.starts_with('O') => {
                        p[1..].parse::<u8>().ok().filter(|&l| l <= 3)
                    }
                    _ => None,
                };
                let Some(lvl) = lvl else {
                    return Err(format!(
                        "invalid optimization level for default pipeline: '{}'",
                        params.join(";")
                    ));
                };
                for n in level(lvl) {
                    // An entry may carry one parameter: `name<param>`.
                    let (name, params) = match n.split_once('<') {
                        Some((name, p)) => (name, vec![p.trim_end_matches('>').to_string()]),
                        None => (*n, Vec::new()),
                    };
                    out.push((
                        registry::lookup(name).expect("levels name registered passes"),
                        params,
                    ));
                }
            }
            Element::Pass { name, params } => {
                let info = registry::lookup(name).ok_or_else(|| unknown(name))?;
                for p in params {
                    if !info.params.contains(&p.as_str()) {
                        return Err(format!("invalid {} pass parameter '{p}'", info.name));
                    }
                }
                out.push((info, params.clone()));
            }
        }
    }
    Ok(out)
}

/// Expands nesting and `default<On>` into `(name, params)` in order,
/// without checking the names (a [`crate::Registry`] does).
pub fn flatten(elems: &[Element], out: &mut Vec<(String, Vec<String>)>) -> Result<(), String> {
    for e in elems {
        match e {
            Element::Nest { adaptor, inner } => {
                if adaptor != "module" && adaptor != "function" {
                    return Err(unknown(adaptor));
                }
                flatten(inner, out)?;
            }
            Element::Pass { name, .. } if name == "default" => {
                for (info, p) in resolve(std::slice::from_ref(e))? {
                    out.push((info.name.to_string(), p));
                }
            }
            Element::Pass { name, params } => out.push((name.clone(), params.clone())),
        }
    }
    Ok(())
}

fn unknown(name: &str) -> String {
    format!(
        "unknown pass name '{name}'; valid names are: {}",
        registry::all_names().join(", ")
    )
}

/// The canonical text of a resolved pipeline (`--print-pipeline-passes`).
pub fn canonical(passes: &[(&'static registry::PassInfo, Vec<String>)]) -> String {
    let names: Vec<String> = passes
        .iter()
        .map(|(p, params)| {
            if params.is_empty() {
                p.name.to_string()
            } else {
                format!("{}<{}>", p.name, params.join(";"))
            }
        })
        .collect();
    format!("function({})", names.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_llvm_grammar() {
        let e = parse("module(function(dce,copy-prop)),dce").unwrap();
        assert_eq!(e.len(), 2);
        let r = resolve(&e).unwrap();
        assert_eq!(canonical(&r), "function(dce,copy-prop,dce)");
        assert_eq!(
            canonical(&resolve(&parse("default<O2>").unwrap()).unwrap()),
            "function(simplify-cfg,copy-prop,const-fold,set-fold,instcombine,cse,dce,lop3-fuse<skip-small>,simplify-cfg)"
        );
        assert_eq!(
            canonical(&resolve(&parse("default<O3>").unwrap()).unwrap()),
            canonical(&resolve(&parse("default<O2>").unwrap()).unwrap())
        );
        assert_eq!(resolve(&parse("default<O0>").unwrap()).unwrap().len(), 0);
    }

    #[test]
    fn rejects_with_the_valid_names() {
        let err = resolve(&parse("dce,frob").unwrap()).unwrap_err();
        assert!(
            err.starts_with(
                "unknown pass name 'frob'; valid names are: const-fold, copy-prop, cse, dce, instcombine, legalize, lop3-expand, lop3-fuse, lower-vote, lower-vsub2, set-fold, simplify-cfg"
            ),
            "{err}"
        );
        assert!(parse("dce,").is_err());
        assert!(parse("function(dce").is_err());
        assert!(resolve(&parse("dce<fast>").unwrap()).is_err());
        assert!(resolve(&parse("default<O7>").unwrap()).is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let ok = format!("{}dce{}", "function(".repeat(64), ")".repeat(64));
        assert_eq!(resolve(&parse(&ok).unwrap()).unwrap().len(), 1);
        let deep = format!("{}dce{}", "module(".repeat(100_000), ")".repeat(100_000));
        assert!(parse(&deep).unwrap_err().contains("nested deeper than 64"));
    }
}

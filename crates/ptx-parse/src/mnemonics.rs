//! Every PTX instruction mnemonic (PTX ISA up to 9.x), for telling a typo
//! from an instruction the IR keeps verbatim.

/// Sorted list of mnemonics.
const MNEMONICS: &[&str] = &[
    "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar",
    "barrier", "bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call",
    "clusterlaunchcontrol", "clz", "cnot", "copysign", "cos", "cp", "createpolicy", "cvt", "cvta",
    "discard", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence", "fma", "fns", "getctarank",
    "griddepcontrol", "isspacep", "istypep", "ld", "ldmatrix", "ldu", "lg2", "lop3", "mad",
    "mad24", "madc", "mapa", "match", "max", "mbarrier", "membar", "min", "mma", "mov",
    "movmatrix", "mul", "mul24", "multimem", "nanosleep", "neg", "not", "or", "pmevent", "popc",
    "prefetch", "prefetchu", "prmt", "rcp", "red", "redux", "rem", "ret", "rsqrt", "sad", "selp",
    "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin", "slct", "sqrt", "st",
    "stackrestore", "stacksave", "stmatrix", "sub", "subc", "suld", "suq", "sured", "sust",
    "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4", "trap", "txq", "vabsdiff",
    "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax",
    "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl", "vshr",
    "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor",
];

/// Whether `m` is a PTX instruction mnemonic.
pub fn is_mnemonic(m: &str) -> bool {
    MNEMONICS.binary_search(&m).is_ok()
}

/// Whether `name` is a PTX special register (without component).
pub fn is_special_register(name: &str) -> bool {
    const FIXED: &[&str] = &[
        "%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid", "%nctaid", "%smid", "%nsmid",
        "%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
        "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
        "%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size", "%is_explicit_cluster",
        "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank",
        "%cluster_nctarank", "%current_graph_exec", "%pm0_64", "%pm1_64", "%pm2_64", "%pm3_64",
        "%pm4_64", "%pm5_64", "%pm6_64", "%pm7_64", "%reserved_smem_offset_begin",
        "%reserved_smem_offset_end", "%reserved_smem_offset_cap", "%reserved_smem_offset_0",
        "%reserved_smem_offset_1",
    ];
    if FIXED.contains(&name) {
        return true;
    }
    let numbered = |prefix: &str, max: u32| {
        name.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok()).is_some_and(|n| n <= max)
    };
    numbered("%pm", 7) || numbered("%envreg", 31)
}

#[cfg(test)]
mod tests {
    #[test]
    fn list_is_sorted() {
        let mut v = super::MNEMONICS.to_vec();
        v.sort_unstable();
        assert_eq!(v, super::MNEMONICS);
        assert!(super::is_mnemonic("vsub2"));
        assert!(!super::is_mnemonic("addd"));
        assert!(super::is_special_register("%envreg3"));
        assert!(!super::is_special_register("%r1"));
    }
}

//! SSA construction on small hand-written functions.

use ptx_ir::{Function, Module, Opcode, Operand, ValueDef};

fn parse(body: &str) -> Module {
    let src = format!(
        ".version 8.2\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u32 n)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .f32 %f<4>;\n{body}\n}}\n"
    );
    ptx_parse::parse_module(&src)
        .unwrap_or_else(|d| panic!("{}", d.render("t.ptx", src.as_bytes())))
}

fn func(m: &Module) -> &Function {
    m.functions().next().unwrap()
}

fn verify(f: &Function) {
    let e = ptx_ir::verify::verify_function(f);
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn loop_header_gets_parameters_for_carried_registers() {
    let m = parse(
        "ld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\nmov.u32 %r3, 0;\n\
         L1:\nadd.s32 %r3, %r3, %r2;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;\n@%p1 bra L1;\nret;",
    );
    let f = func(&m);
    verify(f);
    let header = f
        .layout
        .blocks()
        .find(|&b| f.dfg.blocks[b].label.is_some())
        .unwrap();
    // %r2 and %r3 are carried around the loop; %r1 is not.
    assert_eq!(f.dfg.blocks[header].params.len(), 2);
    let entry = f.layout.entry_block().unwrap();
    assert!(f.dfg.blocks[entry].params.is_empty());
}

#[test]
fn header_that_redefines_a_register_still_merges_it() {
    // %r2 is defined both before the loop and in the header itself.
    let m = parse(
        "mov.u32 %r2, 0;\nL1:\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 10;\n@%p1 bra L1;\nret;",
    );
    let f = func(&m);
    verify(f);
    let header = f
        .layout
        .blocks()
        .find(|&b| f.dfg.blocks[b].label.is_some())
        .unwrap();
    assert_eq!(f.dfg.blocks[header].params.len(), 1);
    let first = f.layout.first_inst(header).unwrap();
    let p = f.dfg.blocks[header].params[0];
    assert_eq!(f.inst(first).operands[1], Operand::Value(p));
}

#[test]
fn guarded_definition_is_tied_to_the_old_value() {
    let m = parse("mov.u32 %r1, 1;\nsetp.eq.u32 %p1, %r1, 1;\n@%p1 mov.u32 %r1, 2;\nadd.s32 %r2, %r1, 1;\nret;");
    let f = func(&m);
    verify(f);
    let b = f.layout.entry_block().unwrap();
    let insts: Vec<_> = f.layout.block_insts(b).collect();
    let first = f.inst(insts[0]).results[0];
    let guarded = f.inst(insts[2]);
    assert!(guarded.guard.is_some());
    assert_eq!(guarded.ties.as_slice(), &[first]);
    // The add reads the guarded result, not the first definition.
    assert_eq!(
        f.inst(insts[3]).operands[1],
        Operand::Value(guarded.results[0])
    );
}

#[test]
fn verbatim_instruction_is_tied_and_kept() {
    // `istypep` is not modelled: every register operand it names is
    // read-and-written.
    let m = parse(".reg .b64 %rd<3>;\nmov.u32 %r1, 1;\nistypep.texref %p1, %rd1;\nret;");
    let f = func(&m);
    verify(f);
    let b = f.layout.entry_block().unwrap();
    let i = f.layout.block_insts(b).nth(1).unwrap();
    assert_eq!(f.op(i).opcode, Opcode::Other);
    assert_eq!(f.inst(i).results.len(), 2);
    assert_eq!(f.inst(i).ties.len(), 2);
}

#[test]
fn register_read_before_write_is_undef() {
    let m = parse("add.s32 %r2, %r1, 1;\nret;");
    let f = func(&m);
    verify(f);
    let b = f.layout.entry_block().unwrap();
    let i = f.layout.first_inst(b).unwrap();
    let Operand::Value(v) = f.inst(i).operands[1] else {
        panic!()
    };
    assert_eq!(f.dfg.values[v].def, ValueDef::Undef);
}

#[test]
fn dual_destination_defines_both_registers() {
    let m = parse(
        "setp.lt.s32 %p1|%p2, %r1, %r2;\nlop3.or.b32 %r3|%p3, %r1, %r2, %r4, 0x3f, %p1;\nret;",
    );
    let f = func(&m);
    verify(f);
    let b = f.layout.entry_block().unwrap();
    for i in f.layout.block_insts(b).take(2) {
        assert_eq!(f.inst(i).results.len(), 2, "{}", f.op(i).text);
        assert!(matches!(
            f.inst(i).operands[0],
            Operand::Pair(Some(_), Some(_))
        ));
    }
}

#[test]
fn scopes_shadow_and_are_flattened() {
    let m = parse(
        "mov.u32 %r1, 1;\n{\n.reg .b32 %r1;\nmov.u32 %r1, 2;\n.param .b32 p;\nst.param.b32 [p], %r1;\n}\n\
         {\n.param .b32 p;\nst.param.b32 [p], %r1;\n}\nret;",
    );
    let f = func(&m);
    verify(f);
    // Two distinct `p`s become two function-level declarations.
    assert_eq!(f.decls.len(), 2);
    assert_ne!(f.decls[0], f.decls[1]);
    let out = ptx_ir::write::module_to_string(&m);
    // The second store reads the outer %r1 (value 1), not the shadowing one.
    assert!(out.contains("st.param.b32 \t[p_1], %r1;"), "{out}");
    assert!(out.contains("st.param.b32 \t[p], %r2;"), "{out}");
}

fn print(src: &str) -> String {
    let m = ptx_parse::parse_module(src)
        .unwrap_or_else(|d| panic!("{}", d.render("t.ptx", src.as_bytes())));
    for f in m.functions() {
        verify(f);
    }
    let out = ptx_ir::write::module_to_string(&m);
    // The printed text parses back to the same text.
    let again = ptx_ir::write::module_to_string(&ptx_parse::parse_module(&out).unwrap());
    assert_eq!(out, again);
    out
}

#[test]
fn branch_tables_follow_renamed_labels() {
    let out = print(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\
         .reg .b32 %r<3>;\nld.param.u32 %r1, [n];\n\
         {\nts: .branchtargets L0, L1;\nbrx.idx %r1, ts;\nL0:\nadd.s32 %r2, %r1, 1;\nL1:\nbra.uni DONE;\n}\n\
         {\nts: .branchtargets L0, L1;\nbrx.idx %r1, ts;\nL0:\nadd.s32 %r2, %r1, 2;\nL1:\nbra.uni DONE;\n}\n\
         DONE:\nret;\n}\n",
    );
    assert!(out.contains("ts: .branchtargets L0, L1;"), "{out}");
    assert!(out.contains("ts_1: .branchtargets L0_1, L1_1;"), "{out}");
    assert!(out.contains("brx.idx \t%r1, ts_1;"), "{out}");
}

#[test]
fn kept_registers_never_take_generated_names() {
    let out = print(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .func (.reg .b32 %r1) f(.reg .b32 %r2)\n{\n.reg .b32 %s<4>;\n.reg .v2 .b32 %rd<2>;\n\
         add.s32 %s3, %r2, 1;\nmov.b32 %rd1.x, %s3;\nmov.b32 %r1, %rd1.x;\nret;\n}\n",
    );
    assert!(out.contains(".func (.reg .b32 %r1_v) f("), "{out}");
    assert!(out.contains(".reg .b32 %r2_v"), "{out}");
    assert!(out.contains(".reg .v2 .b32 %rd_v<2>"), "{out}");
    assert!(out.contains("add.s32 \t%r1, %r2_v, 1;"), "{out}");
    assert!(out.contains("mov.b32 \t%rd_v1.x, %r1;"), "{out}");
}

#[test]
fn unreachable_chains_keep_registers_whole() {
    // Dead code after `ret` writes %r1 and the next dead block reads it:
    // the printed code keeps one register and needs no copies.
    let src =
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\
               .reg .b32 %r<3>;\nld.param.u32 %r1, [n];\nret;\nadd.s32 %r1, %r1, 1;\nbra.uni L2;\n\
               L2:\nadd.s32 %r2, %r1, 2;\nret;\n}\n";
    let m = ptx_parse::parse_module(src).unwrap();
    let f = m.functions().next().unwrap();
    verify(f);
    let a = ptx_ir::regalloc::assign(f);
    assert!(a.before.is_empty() && a.edges.is_empty());
    let out = print(src);
    assert!(out.contains("add.s32 \t%r1, %r1, 1;"), "{out}");
    assert!(out.contains("add.s32 \t%r2, %r1, 2;"), "{out}");
}

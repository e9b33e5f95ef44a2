//! `--check-each` catches a wrong pass. The pass below is registered only
//! here: it swaps the operands of every `sub`, which is wrong whenever they
//! differ. The check must report it with a counterexample launch.

use ptx_passes::manager::{Instrumentation, PassManager};
use ptx_passes::registry::PassInfo;
use ptx_passes::{AnalysisManager, Pass, Preserved};

/// Every instruction in layout order.
fn all_insts(f: &ptx_ir::Function) -> Vec<ptx_ir::Inst> {
    f.layout
        .blocks()
        .flat_map(|b| f.layout.block_insts(b))
        .collect()
}

struct SwapSub;

impl Pass for SwapSub {
    fn name(&self) -> &'static str {
        "swap-sub"
    }
    fn run(&mut self, f: &mut ptx_ir::Function, _: &mut AnalysisManager) -> Preserved {
        let insts = all_insts(f);
        let mut changed = Preserved::All;
        for i in insts {
            if f.op(i).opcode == ptx_ir::Opcode::Sub {
                f.dfg.insts[i].operands.swap(1, 2);
                changed = Preserved::Cfg;
            }
        }
        changed
    }
}

static SWAP_SUB: PassInfo = PassInfo {
    name: "swap-sub",
    summary: "deliberately wrong: swaps the operands of sub",
    params: &[],
    idempotent: false,
    create: |_| Box::new(SwapSub),
};

const KERNEL: &str = r#".version 7.0
.target sm_75
.address_size 64

.visible .entry diff(.param .u64 out, .param .u32 a, .param .u32 b)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	ld.param.u32 %r2, [b];
	mov.u32 %r3, %tid.x;
	sub.s32 %r4, %r1, %r3;
	sub.s32 %r5, %r4, %r2;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}
"#;

fn run_pipeline(passes: &[(&'static PassInfo, Vec<String>)]) -> Result<(), String> {
    let module = ptx_parse::parse_module(KERNEL).unwrap();
    let mut f = module.functions().next().unwrap().clone();
    let inst = Instrumentation {
        check_each: Some(ptx_opt::check_each(64)),
        ..Default::default()
    };
    let mut pm = PassManager::new(passes, inst);
    let mut log = String::new();
    pm.run(&mut f, &mut AnalysisManager::new(), &mut log)
        .map(|_| ())
}

#[test]
fn wrong_pass_is_caught_with_a_counterexample() {
    let err = run_pipeline(&[(&SWAP_SUB, vec![])]).unwrap_err();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0], "check-each: pass 'swap-sub' changed the behaviour of 'diff'",
        "{err}"
    );
    assert!(lines[1].starts_with("  launch: grid ["), "{err}");
    assert!(lines[1].contains(" params 0x"), "{err}");
    // The first store is thread 0's: a - 0 - b before, (0 - a) swapped
    // into b - (0 - a) after; the report names both values.
    assert!(
        lines[2].starts_with("  store #0 differs: before: st [0x"),
        "{err}"
    );
    assert!(
        lines[2].contains("4 bytes = 0x") && lines[2].contains("; after: st [0x"),
        "{err}"
    );
}

#[test]
fn correct_passes_pass_the_check() {
    let passes: Vec<_> = ptx_passes::registry::PASSES
        .iter()
        .map(|p| (p, vec![]))
        .collect();
    run_pipeline(&passes).unwrap();
}

/// The kernel reads a module variable, so it only runs (and the wrong pass
/// only shows) if `--check-each` sees the module's variables.
#[test]
fn module_variables_are_visible_to_the_check() {
    let src = r#".version 7.0
.target sm_75
.address_size 64

.global .align 4 .u32 base = 1000;

.visible .entry uses_global(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.global.u32 %r1, [base];
	mov.u32 %r2, %tid.x;
	sub.s32 %r3, %r1, %r2;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
"#;
    let cfg = ptx_opt::Config {
        passes: vec![(&SWAP_SUB, vec![])],
        instrumentation: Instrumentation {
            check_each: Some(ptx_opt::check_each(8)),
            ..Default::default()
        },
        ..Default::default()
    };
    let err = match ptx_opt::process_with(src.as_bytes(), &cfg) {
        Ok(_) => panic!("the wrong pass was not caught"),
        Err((ptx_opt::Error::Plain(m), _)) => m,
        Err((e, _)) => panic!("{e:?}"),
    };
    assert!(
        err.starts_with("check-each: pass 'swap-sub' changed the behaviour of 'uses_global'"),
        "{err}"
    );
}

/// Wrong on one input combination in 32: `a & b & c & d & e` loses its
/// last `& e`, which matters only where a, b, c, d are all 1 and e is 0.
/// The bit-sliced launch (the first one) runs all 32 combinations, so one
/// launch is enough to catch it.
struct DropLastAnd;

impl Pass for DropLastAnd {
    fn name(&self) -> &'static str {
        "drop-last-and"
    }
    fn run(&mut self, f: &mut ptx_ir::Function, _: &mut AnalysisManager) -> Preserved {
        let insts = all_insts(f);
        let last = insts
            .iter()
            .rev()
            .find(|&&i| f.op(i).opcode == ptx_ir::Opcode::And)
            .copied();
        match last {
            Some(i) => {
                let x = f.dfg.insts[i].operands[1].clone();
                f.dfg.insts[i].operands[2] = x;
                Preserved::Cfg
            }
            None => Preserved::All,
        }
    }
}

static DROP_LAST_AND: PassInfo = PassInfo {
    name: "drop-last-and",
    summary: "deliberately wrong on one combination in 32",
    params: &[],
    idempotent: false,
    create: |_| Box::new(DropLastAnd),
};

#[test]
fn bit_sliced_launch_covers_every_combination() {
    let src = r#".version 7.0
.target sm_75
.address_size 64

.visible .entry and5(.param .u64 out, .param .u32 a, .param .u32 b, .param .u32 c, .param .u32 d, .param .u32 e)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	ld.param.u32 %r2, [b];
	ld.param.u32 %r3, [c];
	ld.param.u32 %r4, [d];
	ld.param.u32 %r5, [e];
	and.b32 %r6, %r1, %r2;
	and.b32 %r7, %r6, %r3;
	and.b32 %r8, %r7, %r4;
	and.b32 %r9, %r8, %r5;
	st.global.u32 [%rd1], %r9;
	ret;
}
"#;
    let module = ptx_parse::parse_module(src).unwrap();
    let mut f = module.functions().next().unwrap().clone();
    let inst = Instrumentation {
        check_each: Some(ptx_opt::check_each(1)),
        ..Default::default()
    };
    let mut pm = PassManager::new(&[(&DROP_LAST_AND, vec![])], inst);
    let err = pm
        .run(&mut f, &mut AnalysisManager::new(), &mut String::new())
        .unwrap_err();
    assert!(err.contains("bit-sliced params 0x"), "{err}");
    // a..e are 0xaaaaaaaa, 0xcccccccc, 0xf0f0f0f0, 0xff00ff00, 0xffff0000:
    // only bit 15 has a = b = c = d = 1 and e = 0.
    assert!(
        err.contains("before: st [0x")
            && err.contains("= 0x80000000; after: st [0x")
            && err.contains("= 0x80008000"),
        "{err}"
    );
}

/// Device functions: a wrong pass on a `.func` that only returns a value
/// is caught through its return value, and a kernel that calls a device
/// function is checked with the callee as printed.
#[test]
fn device_functions_are_checked_by_their_return_values() {
    let src = r#".version 7.0
.target sm_75
.address_size 64

.func (.param .b32 diff_r) diff(.param .b32 diff_a, .param .b32 diff_b)
{
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [diff_a];
	ld.param.b32 %r2, [diff_b];
	sub.s32 %r3, %r1, %r2;
	st.param.b32 [diff_r], %r3;
	ret;
}

.visible .entry caller(.param .u64 out, .param .u32 a)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<4>;
	.param .b32 x;
	.param .b32 y;
	.param .b32 r;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	mov.u32 %r2, %tid.x;
	st.param.b32 [x], %r1;
	st.param.b32 [y], %r2;
	call (r), diff, (x, y);
	ld.param.b32 %r3, [r];
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
"#;
    let cfg = |passes| ptx_opt::Config {
        passes,
        instrumentation: Instrumentation {
            check_each: Some(ptx_opt::check_each(8)),
            ..Default::default()
        },
        ..Default::default()
    };
    let err = match ptx_opt::process_with(src.as_bytes(), &cfg(vec![(&SWAP_SUB, vec![])])) {
        Ok(_) => panic!("the wrong pass was not caught"),
        Err((ptx_opt::Error::Plain(m), _)) => m,
        Err((e, _)) => panic!("{e:?}"),
    };
    assert!(
        err.starts_with("check-each: pass 'swap-sub' changed the behaviour of 'diff'"),
        "{err}"
    );
    assert!(err.contains("returns 0x"), "{err}");
    // Correct passes: the kernel runs through the call and agrees.
    let ok = cfg(vec![
        (ptx_passes::registry::lookup("const-fold").unwrap(), vec![]),
        (ptx_passes::registry::lookup("dce").unwrap(), vec![]),
    ]);
    ptx_opt::process_with(src.as_bytes(), &ok).unwrap();
    // The kernel is compared, not skipped: its launches run the call.
    let module = ptx_parse::parse_module(src).unwrap();
    let caller = module.functions().find(|f| &*f.name == "caller").unwrap();
    let n = ptx_eval::check::check_function(&module.items, caller, caller, 4).unwrap();
    assert_eq!(n, 4);
}

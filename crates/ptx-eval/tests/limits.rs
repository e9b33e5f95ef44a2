//! The evaluator's resource limits: steps, memory (global pages, shared,
//! local, frames, registers, case buffers) and grid size. Each is an
//! error naming the limit and the flag that raises it, found before the
//! memory is allocated, and the same input runs once the limit is raised.

use ptx_eval::case::run_case_with;
use ptx_eval::Limits;

const HEAD: &str = ".version 7.0\n.target sm_75\n.address_size 64\n";

fn run(body: &str, case: &str, limits: Limits) -> Result<serde_json::Value, String> {
    let src = format!("{HEAD}{body}");
    let module = ptx_parse::parse_module(&src).unwrap_or_else(|d| panic!("{}", d.message));
    run_case_with(&module, case, &limits, 0)
}

fn memory(bytes: u64) -> Limits {
    Limits {
        memory: bytes,
        ..Limits::DEFAULT
    }
}

/// Each thread stores one word 4 KiB past the previous thread's, in a
/// sparse 1 GiB module array: 1,024 threads touch 4 MiB of pages.
const SCATTER: &str = "
.global .align 4 .b8 big[1073741824];
.visible .entry scatter()
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd1, %r1, 4096;
	mov.u64 %rd2, big;
	add.s64 %rd3, %rd2, %rd1;
	st.global.u32 [%rd3], %r1;
	ret;
}
";

#[test]
fn global_pages_count_against_the_memory_limit() {
    let case = r#"{"block": [1024]}"#;
    let err = run(SCATTER, case, memory(1 << 20)).unwrap_err();
    assert!(
        err.contains("memory limit reached: a store to global memory would take the run past 1048576 bytes (raise it with ptx-eval --max-memory=BYTES)"),
        "{err}"
    );
    // Located at the store (`@OFFSET: ` for the CLI to turn into line:col).
    let at: usize = err[1..err.find(':').unwrap()].parse().unwrap();
    assert!(
        format!("{HEAD}{SCATTER}")[at..].starts_with("st.global.u32"),
        "{err}"
    );
    // 4 MiB of pages plus the CTA's registers fit in 8 MiB.
    run(SCATTER, case, memory(8 << 20)).unwrap();
}

#[test]
fn shared_and_local_arrays_are_refused_before_allocation() {
    for (decl, what) in [
        (".shared .align 4 .b8 s[4000000000];", "shared memory"),
        (".local .align 4 .b8 s[100000000];", "local memory"),
    ] {
        let body = format!(
            ".visible .entry k()\n{{\n\t{decl}\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, s;\n\tret;\n}}\n"
        );
        let err = run(&body, r#"{"block": [32]}"#, Limits::DEFAULT).unwrap_err();
        assert!(err.contains("memory limit reached"), "{decl}: {err}");
        assert!(err.contains(what), "{decl}: {err}");
        assert!(err.contains("2147483648 bytes"), "{decl}: {err}");
    }
}

#[test]
fn registers_of_a_big_cta_count_too() {
    // 1,024 threads: 32 warps, each 256 bytes per SSA value.
    let err = run(SCATTER, r#"{"block": [1024]}"#, memory(16 << 10)).unwrap_err();
    assert!(err.contains("registers of a CTA"), "{err}");
}

#[test]
fn case_buffers_are_checked_before_they_exist() {
    let case = r#"{"block": [32], "buffers": {"a": {"type": "u8", "zeros": 100000000000}}}"#;
    let err = run(SCATTER, case, Limits::DEFAULT).unwrap_err();
    assert!(
        err.contains("buffer 'a': memory limit reached") && err.contains("--max-memory"),
        "{err}"
    );
}

#[test]
fn the_grid_is_bounded() {
    let body = ".visible .entry k()\n{\n\tret;\n}\n";
    let err = run(body, r#"{"grid": [65536, 65536]}"#, Limits::DEFAULT).unwrap_err();
    assert_eq!(
        err,
        "grid limit reached: the launch has 4294967296 CTAs, more than 1048576 (raise it with ptx-eval --max-ctas=N)"
    );
    let few = Limits {
        ctas: 3,
        ..Limits::DEFAULT
    };
    assert!(run(body, r#"{"grid": [4]}"#, few)
        .unwrap_err()
        .contains("4 CTAs, more than 3"));
    run(body, r#"{"grid": [3]}"#, few).unwrap();
}

#[test]
fn recursion_frames_count_against_the_memory_limit() {
    // Each call holds 32 lanes × 64 KiB of local memory: 2 MiB a level.
    let body = "
.func deep(.param .b32 n)
{
	.local .align 4 .b8 buf[65536];
	.reg .b32 %r<3>;
	.reg .pred %p<2>;
	ld.param.u32 %r1, [n];
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $DONE;
	sub.u32 %r2, %r1, 1;
	{
	.param .b32 a;
	st.param.b32 [a], %r2;
	call deep, (a);
	}
$DONE:
	ret;
}
.visible .entry k(.param .u32 k_n)
{
	.reg .b32 %r<2>;
	ld.param.u32 %r1, [k_n];
	{
	.param .b32 a;
	st.param.b32 [a], %r1;
	call deep, (a);
	}
	ret;
}
";
    let case = r#"{"block": [32], "params": [{"u32": 40}]}"#;
    let err = run(body, case, memory(32 << 20)).unwrap_err();
    assert!(err.contains("the frame of a call to 'deep'"), "{err}");
    run(body, case, memory(128 << 20)).unwrap();
}

//! Unit-test helpers shared by the passes: a body wrapped in a kernel,
//! run through passes, verified and printed.

use crate::{AnalysisManager, Pass, TargetInfo};

/// The `nvcc -G` target of the debug-target tests.
pub(crate) const DEBUG_SM80: TargetInfo = TargetInfo {
    sm: 80,
    ptx: (7, 0),
    debug: true,
};

/// `body` as the body of an sm_80 kernel `k(.param .u64 p)`, run through
/// `passes` in order (each with `target`), verified, and printed.
pub(crate) fn run_in_kernel(
    body: &str,
    target: Option<TargetInfo>,
    passes: &mut [&mut dyn Pass],
) -> String {
    let full = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n{body}\n}}\n"
    );
    let mut m = ptx_parse::parse_module(&full).unwrap();
    for f in m.functions_mut() {
        for pass in passes.iter_mut() {
            let mut am = AnalysisManager::new();
            am.target = target;
            pass.run(f, &mut am);
        }
        assert!(ptx_ir::verify::verify_function(f).is_empty());
    }
    ptx_ir::write::module_to_string(&m)
}

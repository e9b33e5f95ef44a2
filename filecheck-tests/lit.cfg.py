# lit configuration: runs the same files as `cargo test -p ptx-opt --test lit`,
# with LLVM's own FileCheck and lit's internal shell.
#
#   cargo build -p ptx-opt && lit filecheck-tests
#
# PTX_OPT_BIN_DIR selects the folder holding ptx-opt (default target/debug);
# LLVM_BIN_DIR the folder holding FileCheck and not (default LLVM 14's).
import os
import shutil

import lit.formats

config.name = "ptx-opt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ptx"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(os.path.dirname(config.test_source_root), "target", "lit")

root = os.path.dirname(config.test_source_root)
bin_dir = os.environ.get("PTX_OPT_BIN_DIR", os.path.join(root, "target", "debug"))
llvm_dir = os.environ.get("LLVM_BIN_DIR", "/usr/lib/llvm-14/bin")
config.environment["PATH"] = os.pathsep.join([bin_dir, llvm_dir, os.environ.get("PATH", "")])

ptxas = os.path.join(root, ".tools", "cuda", "nvidia", "cu13", "bin", "ptxas")
if os.path.exists(ptxas) or shutil.which("ptxas"):
    config.available_features.add("ptxas")

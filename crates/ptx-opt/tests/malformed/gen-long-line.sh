#!/bin/sh
# Writes 60-long-line.ptx next to this script: a valid kernel whose line 15 is
# a single ~1 MB line (tab + 50000 x "add.s32 %r2, %r2, 1; " + "mov.u32 %r1, 0xZZ;").
# The only defect is the invalid immediate 0xZZ at the very end of that line:
# expected diagnostic 60-long-line.ptx:15:1050015 (byte column), see MANIFEST.
set -e
cd "$(dirname "$0")"
out=60-long-line.ptx
{
	printf '.version 8.0\n.target sm_80\n.address_size 64\n\n'
	printf '.visible .entry k(\n\t.param .u64 p\n)\n{\n'
	printf '\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n\t.reg .f32 %%f<4>;\n\t.reg .pred %%p<2>;\n\n'
	printf '\tld.param.u64 %%rd1, [p];\n'
	printf '\t'
	yes 'add.s32 %r2, %r2, 1;' | head -n 50000 | tr '\n' ' '
	printf 'mov.u32 %%r1, 0xZZ;\n'
	printf '\tret;\n}\n'
} > "$out"

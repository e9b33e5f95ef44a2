//! `docs/passes.md` has a section per registered pass, carrying its summary,
//! and lists the `-O` pipelines as they are.

use ptx_passes::{pipeline, registry};

#[test]
fn passes_page_matches_the_registry() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/passes.md"))
        .unwrap();
    for p in registry::PASSES {
        let head = format!("## `{}`\n\nSummary: {}\n", p.name, p.summary);
        assert!(doc.contains(&head), "docs/passes.md lacks:\n{head}");
    }
    for (lvl, list) in [(1u8, pipeline::O1), (2, pipeline::O2), (3, pipeline::O3)] {
        let row = format!(
            "| `-O{lvl}` | {} |",
            list.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert!(
            doc.contains(&row),
            "docs/passes.md lacks the row starting:\n{row}"
        );
    }
}

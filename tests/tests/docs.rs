//! `docs/rules.md` is the rule catalogue as `kube-preflight rules --format markdown` prints it; it must not
//! drift from the code (`UPDATE_EXPECT=1` rewrites it).

#[test]
fn docs_rules_md_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md");
    let md = kube_preflight::render::rules_markdown(&kube_preflight::rules());
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &md).unwrap();
    }
    assert!(
        std::fs::read_to_string(&path).unwrap_or_default() == md,
        "docs/rules.md is stale: rerun with UPDATE_EXPECT=1"
    );
}

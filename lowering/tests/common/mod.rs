//! Shared by the lowering's integration tests.

use std::path::Path;

use lowering::{Lowered, Options};

/// Writes `text` to `<target tmp>/<dir>/<name>.c`, parses and lowers it.
pub fn lower_text(dir: &str, name: &str, text: &str, options: &Options) -> Lowered {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.c"));
    std::fs::write(&path, text).expect("write program");
    let unit = frontend::parse_file(&path, &frontend::Options::default()).expect("parses");
    lowering::lower_with(&unit, options).expect("lowers")
}

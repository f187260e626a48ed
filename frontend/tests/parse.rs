//! Parsing the fixtures of `tests-c/parse/`: GNU extensions, syntax errors pointing
//! at the user's file, `.i` files, and the data model.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use frontend::lang_c::ast::{DeclarationSpecifier, ExternalDeclaration, StorageClassSpecifier};
use frontend::{
    parse_file, parse_preprocessed, DataModel, DataModelChoice, DataModelReason, FrontendError,
    Options, RewriteKind,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests-c/parse")
        .join(name)
}

/// Whether `cc -m32` can preprocess a file including `<pthread.h>` here.
fn m32_works() -> bool {
    let mut child = Command::new("cc")
        .args(["-m32", "-E", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cc runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"#include <stdlib.h>\n#include <pthread.h>\n")
        .unwrap();
    child.wait().unwrap().success()
}

#[test]
fn gnu_extensions_parse() {
    let path = fixture("gnu_extensions.c");
    let p = parse_file(&path, &Options::default()).unwrap_or_else(|e| panic!("{e}"));

    // Thread-locals: `__thread` at file scope (three spellings of the order) and in a
    // function.
    let tls: Vec<(&str, bool)> = p
        .thread_locals
        .iter()
        .map(|t| (t.name.as_str(), t.block_scope))
        .collect();
    assert_eq!(
        tls,
        [
            ("tls_counter", false),
            ("tls_flag", false),
            ("tls_after_type", false),
            ("calls", true)
        ]
    );
    let first = &p.thread_locals[0];
    let loc = first.location.as_ref().unwrap();
    assert_eq!(loc.file, path);
    assert_eq!((loc.line, loc.column), (13, 14), "{loc}");
    assert_eq!(p.snippet(&first.span), "tls_counter");
    assert!(p.is_thread_local("calls"));
    assert!(!p.is_thread_local("a_flush_delayed"));
    assert_eq!(
        p.rewrites
            .iter()
            .filter(|r| r.kind == RewriteKind::ThreadKeyword)
            .count(),
        4
    );
    // The AST carries the storage class.
    let tls_decl = p
        .unit
        .0
        .iter()
        .filter_map(|e| match &e.node {
            ExternalDeclaration::Declaration(d) => Some(d),
            _ => None,
        })
        .filter(|d| {
            d.node.specifiers.iter().any(|s| {
                matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                    if c.node == StorageClassSpecifier::ThreadLocal)
            })
        })
        .count();
    assert_eq!(tls_decl, 3);

    // `$` identifiers: renamed without collisions, originals reported.
    let originals: Vec<&str> = p.renames.iter().map(|(_, o)| o).collect();
    for name in ["a$flush_delayed", "a$mem_tmp", "main$tmp_guard0"] {
        assert!(originals.contains(&name), "{name} not in {originals:?}");
    }
    let m = p.renames.marker().unwrap();
    let renamed = format!("a{m}flush_delayed");
    assert_ne!(renamed, "a_flush_delayed");
    assert_eq!(p.display_name(&renamed), "a$flush_delayed");
    assert_eq!(p.display_name("a_flush_delayed"), "a_flush_delayed");
    assert!(p.text.contains("\"a$b is a string, not an identifier\""));
    // Renaming keeps offsets: the renamed declaration is at its original column.
    let at = p.text.find(&format!("int {renamed};")).unwrap() + 4;
    let loc = p.origins.locate(at).unwrap();
    assert_eq!((loc.line, loc.column), (17, 5), "{loc}");

    // Attributes lang-c cannot take were dropped, and said so.
    let dropped = p
        .rewrites
        .iter()
        .filter(|r| r.kind == RewriteKind::DroppedAttribute)
        .count();
    assert_eq!(dropped, 5, "{:?}", p.rewrites);
    assert!(p
        .rewrites
        .iter()
        .any(|r| r.kind == RewriteKind::DroppedLocalLabels));
    assert!(p
        .rewrites
        .iter()
        .any(|r| r.kind == RewriteKind::ConstKeyword));
    for r in &p.rewrites {
        // Every rewrite in the user's file maps back to it.
        let loc = p.origins.locate(r.offset).unwrap();
        if !p.origins.is_system_header(r.offset) {
            assert_eq!(loc.file, path, "{r:?}");
        }
    }

    // Functions from the user's file are found with their lines.
    let main = p
        .unit
        .0
        .iter()
        .find(|e| {
            matches!(&e.node, ExternalDeclaration::FunctionDefinition(_))
                && p.snippet(&e.span).starts_with("int main")
        })
        .expect("main is parsed");
    let loc = p.locate(&main.span).unwrap();
    assert_eq!((loc.file.as_path(), loc.line), (path.as_path(), 56));
    assert!(!p.origins.is_system_header(main.span.start));
    // Declarations from <pthread.h> are flagged as system-header text.
    let sys = p
        .unit
        .0
        .iter()
        .find(|e| p.snippet(&e.span).contains("pthread_create"))
        .unwrap();
    assert!(p.origins.is_system_header(sys.span.start));
    assert!(p.origins.files().any(|f| f.ends_with("pthread.h")));
}

fn expect_syntax(
    result: Result<frontend::ParsedUnit, FrontendError>,
) -> (PathBuf, u32, u32, String, Option<String>) {
    match result {
        Err(FrontendError::Syntax {
            file,
            line,
            column,
            message,
            source_line,
        }) => (file, line, column, message, source_line),
        Err(e) => panic!("expected a syntax error, got {e}"),
        Ok(_) => panic!("expected a syntax error, got a parse"),
    }
}

#[test]
fn syntax_error_points_at_user_file() {
    let path = fixture("syntax_error_plain.c");
    let (file, line, column, message, source) =
        expect_syntax(parse_file(&path, &Options::default()));
    assert_eq!(file, path);
    assert_eq!((line, column), (6, 3), "{message}");
    assert!(message.contains("unexpected `return`"), "{message}");
    assert!(message.contains("`;`"), "{message}");
    assert_eq!(source.as_deref(), Some("  return x;"));
}

#[test]
fn syntax_error_after_pthread_include() {
    let path = fixture("syntax_error_after_include.c");
    let err = parse_file(&path, &Options::default()).unwrap_err();
    let shown = err.to_string();
    let (file, line, _column, message, source) = expect_syntax(Err(err));
    assert_eq!(file, path);
    assert_eq!(line, 17, "{message}");
    assert_eq!(source.as_deref(), Some("  int y = counter +* ;"));
    // The user's file, never the preprocessor's output.
    assert!(
        shown.starts_with(&format!("{}:17:", path.display())),
        "{shown}"
    );
}

#[test]
fn syntax_error_in_local_header() {
    let path = fixture("syntax_error_in_header.c");
    let (file, line, _, message, source) = expect_syntax(parse_file(&path, &Options::default()));
    assert!(file.ends_with("bad_header.h"), "{}", file.display());
    assert_eq!(line, 3, "{message}");
    assert_eq!(
        source.as_deref(),
        Some("int broken(int x) { return x + ; }")
    );
}

#[test]
fn preprocessed_file_is_parsed_as_is() {
    let path = fixture("preprocessed.i");
    let p = parse_file(&path, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let original = std::fs::read_to_string(&path).unwrap();
    // Same length: only `$` renames and `__thread` (+5 bytes) were rewritten.
    assert_eq!(p.text.len(), original.len() + 5);
    assert_eq!(p.thread_locals.len(), 1);
    let owner = &p.thread_locals[0];
    assert_eq!(owner.name, "owner");
    let loc = owner.location.as_ref().unwrap();
    assert_eq!(
        (loc.file.to_str().unwrap(), loc.line, loc.column),
        ("orig/program.c", 9, 14)
    );
    assert_eq!(p.renames.len(), 1);
    assert_eq!(p.renames.iter().next().unwrap().1, "a$w_buff0");
    // After the `__thread` edit, positions still map to the right column.
    let thr = p.text.find("void *thr").unwrap();
    let loc = p.origins.locate(thr).unwrap();
    assert_eq!((loc.line, loc.column), (12, 1));
    // size_t is `unsigned int`: ILP32, inferred.
    assert_eq!(p.data_model, DataModel::Ilp32);
    assert_eq!(p.data_model_reason, DataModelReason::InferredFromSizeT);
}

#[test]
fn preprocessed_error_follows_line_markers() {
    let path = fixture("preprocessed_error.i");
    let (file, line, column, _, source) = expect_syntax(parse_file(&path, &Options::default()));
    assert_eq!(file, Path::new("orig/error.c"));
    assert_eq!((line, column), (40, 14));
    // orig/error.c does not exist: the preprocessed line is quoted.
    assert_eq!(source.as_deref(), Some("int broken = ;"));
}

#[test]
fn preprocessed_text_without_markers() {
    let opts = Options::default();
    let p = parse_preprocessed("int x;\nint y;\n".into(), "mem.c", &opts).unwrap();
    assert_eq!(p.origins.locate(7).unwrap().to_string(), "mem.c:2:1");
    assert_eq!(p.data_model_reason, DataModelReason::Assumed);
    let lp64 = Options {
        data_model: DataModelChoice::Lp64,
        ..Options::default()
    };
    let p = parse_preprocessed("long l;".into(), "mem.c", &lp64).unwrap();
    assert_eq!(
        (p.data_model, p.data_model_reason),
        (DataModel::Lp64, DataModelReason::Requested)
    );
    let p = parse_preprocessed("typedef long unsigned int size_t;".into(), "mem.c", &opts).unwrap();
    assert_eq!(p.data_model, DataModel::Lp64);
    let (file, line, column, _, _) = expect_syntax(parse_preprocessed(
        "int x;\nint = 3;".into(),
        "mem.c",
        &opts,
    ));
    assert_eq!((file.to_str().unwrap(), line, column), ("mem.c", 2, 5));
}

#[test]
fn unsupported_gnu_extensions_are_named() {
    let opts = Options::default();
    for (src, needle) in [
        ("int f(int a) { return a ?: 1; }", "?:"),
        ("__int128 big;", "__int128"),
        (
            "int f(void) { return __builtin_types_compatible_p(int, long); }",
            "type arguments",
        ),
    ] {
        let (_, _, _, message, _) = expect_syntax(parse_preprocessed(src.into(), "x.c", &opts));
        assert!(message.contains(needle), "{src}: {message}");
    }
}

#[test]
fn data_model() {
    let path = fixture("gnu_extensions.c");
    let auto = parse_file(&path, &Options::default()).unwrap();
    let (model, reason) = frontend::auto_data_model(&Options::default()).unwrap();
    assert_eq!((auto.data_model, &auto.data_model_reason), (model, &reason));
    println!("data model on this machine: {model} ({reason})");
    if m32_works() {
        assert_eq!(model, DataModel::Ilp32);
        assert_eq!(reason, DataModelReason::M32Available);
    } else {
        // No 32-bit C library headers here: Auto falls back to the native model.
        assert_eq!(model, DataModel::Lp64);
        assert!(matches!(reason, DataModelReason::M32Unavailable { .. }));
        assert!(reason.to_string().contains("-m32"));
        // Asking for ILP32 explicitly fails with the preprocessor's complaint.
        let ilp32 = Options {
            data_model: DataModelChoice::Ilp32,
            ..Options::default()
        };
        match parse_file(&path, &ilp32) {
            Err(FrontendError::Preprocessor {
                command, stderr, ..
            }) => {
                assert!(command.contains("-m32"), "{command}");
                assert!(!stderr.is_empty());
            }
            other => panic!("expected a preprocessor error, got {other:?}"),
        }
    }
    let lp64 = Options {
        data_model: DataModelChoice::Lp64,
        ..Options::default()
    };
    let p = parse_file(&path, &lp64).unwrap();
    assert_eq!(
        (p.data_model, p.data_model_reason),
        (DataModel::Lp64, DataModelReason::Requested)
    );
    assert_eq!(DataModel::Ilp32.sizes().long, 4);
    assert_eq!(DataModel::Lp64.sizes().pointer, 8);
}

#[test]
fn defines_and_include_dirs() {
    let dir = std::env::temp_dir().join(format!("ase-frontend-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/config.h"), "#define LIMIT 7\n").unwrap();
    let main = dir.join("main.c");
    std::fs::write(
        &main,
        "#include <config.h>\nint limit = LIMIT;\n#ifdef EXTRA\nint extra = EXTRA;\n#endif\n",
    )
    .unwrap();
    let opts = Options {
        include_dirs: vec![dir.join("inc")],
        defines: vec!["EXTRA=LIMIT+1".into()],
        ..Options::default()
    };
    let p = parse_file(&main, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert!(p.text.contains("int limit = 7;"));
    assert!(p.text.contains("int extra = 7"), "{}", p.text);
    // Without the include directory the preprocessor fails, and says why.
    let err = parse_file(&main, &Options::default()).unwrap_err();
    assert!(
        matches!(&err, FrontendError::Preprocessor { stderr, .. } if stderr.contains("config.h")),
        "{err}"
    );
    // A missing file is an I/O error; a missing preprocessor a spawn error.
    assert!(matches!(
        parse_file(&dir.join("nope.c"), &Options::default()),
        Err(FrontendError::Io { .. })
    ));
    let no_cpp = Options {
        cpp: Some("/nonexistent/cc".into()),
        data_model: DataModelChoice::Lp64,
        ..Options::default()
    };
    assert!(matches!(
        parse_file(&main, &no_cpp),
        Err(FrontendError::Spawn { .. })
    ));
    std::fs::remove_dir_all(&dir).ok();
}

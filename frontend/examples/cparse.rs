//! Parses C files and prints what the front end found, or the first error.
//!
//! `cargo run -p ase-frontend --example cparse -- [--ilp32|--lp64] [--cpp=COMMAND] FILE...`

use std::path::Path;

use frontend::{parse_file, DataModelChoice, FrontendError, Options};

fn main() {
    let mut opts = Options::default();
    let mut failed = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--ilp32" => opts.data_model = DataModelChoice::Ilp32,
            "--lp64" => opts.data_model = DataModelChoice::Lp64,
            _ if arg.starts_with("--cpp=") => opts.cpp = Some(arg["--cpp=".len()..].to_string()),
            file => match parse_file(Path::new(file), &opts) {
                Ok(p) => {
                    println!(
                        "{file}: ok, {} top-level items, {} ({}), {} thread-locals, {} renamed, {} rewrites",
                        p.unit.0.len(),
                        p.data_model,
                        p.data_model_reason,
                        p.thread_locals.len(),
                        p.renames.len(),
                        p.rewrites.len()
                    );
                    for t in &p.thread_locals {
                        let at = t.location.as_ref().map(ToString::to_string);
                        println!("  thread-local {} at {}", t.name, at.unwrap_or_default());
                    }
                }
                Err(e) => {
                    failed = true;
                    println!("{e}");
                    if let FrontendError::Syntax {
                        source_line: Some(line),
                        ..
                    } = &e
                    {
                        println!("  | {line}");
                    }
                }
            },
        }
    }
    std::process::exit(i32::from(failed));
}

//! Parses every C file of the SV-COMP pthread task folders in
//! `shared/sv-benchmarks/c` (skipped when absent): at least 95% must parse.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use frontend::{parse_file, Options};

const FOLDERS: [&str; 6] = [
    "pthread",
    "pthread-atomic",
    "pthread-divine",
    "pthread-ext",
    "pthread-lit",
    "pthread-wmm",
];

/// The files named by a task file's `input_files:` key (a string or a list).
fn input_files(yml: &str) -> Vec<String> {
    let unquote = |s: &str| s.trim().trim_matches(|c| c == '\'' || c == '"').to_string();
    let mut lines = yml.lines();
    while let Some(line) = lines.next() {
        let Some(value) = line.strip_prefix("input_files:") else {
            continue;
        };
        let value = value.split(" #").next().unwrap_or("").trim();
        if let Some(list) = value.strip_prefix('[') {
            return list
                .trim_end_matches(']')
                .split(',')
                .map(unquote)
                .filter(|s| !s.is_empty())
                .collect();
        }
        if !value.is_empty() {
            return vec![unquote(value)];
        }
        return lines
            .map(str::trim)
            .take_while(|l| l.starts_with('-'))
            .map(|l| unquote(&l[1..]))
            .collect();
    }
    Vec::new()
}

#[test]
fn input_files_key() {
    assert_eq!(input_files("input_files: 'a.c'\n"), ["a.c"]);
    assert_eq!(
        input_files("x: 1\ninput_files: [ 'a.c', b.c ]\n"),
        ["a.c", "b.c"]
    );
    assert_eq!(
        input_files("input_files:\n  - 'a.c'\n  - b.c\nproperties:\n"),
        ["a.c", "b.c"]
    );
}

#[test]
fn sv_benchmarks_pthread_folders_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/sv-benchmarks/c");
    if !root.is_dir() {
        // CI has ../shared beside the repository: there it is required.
        assert!(
            std::env::var_os("CI").is_none(),
            "{} not found",
            root.display()
        );
        eprintln!("skipped: {} not found", root.display());
        return;
    }
    let mut jobs: Vec<(&str, PathBuf)> = Vec::new();
    let mut tasks = 0;
    for folder in FOLDERS {
        let dir = root.join(folder);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut ymls: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "yml"))
            .collect();
        ymls.sort();
        for yml in ymls {
            tasks += 1;
            let text = std::fs::read_to_string(&yml).unwrap();
            for file in input_files(&text) {
                let path = dir.join(file);
                if !jobs.iter().any(|(_, p)| *p == path) {
                    jobs.push((folder, path));
                }
            }
        }
    }
    assert!(!jobs.is_empty(), "no task files under {}", root.display());

    let start = Instant::now();
    let opts = Options::default();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<(), String>)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((_, path)) = jobs.get(i) else { break };
                let r = parse_file(path, &opts)
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                results.lock().unwrap().push((i, r));
            });
        }
    });
    let elapsed = start.elapsed();

    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    let mut per_folder: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (i, r) in &results {
        let (folder, path) = &jobs[*i];
        let counts = per_folder.entry(folder).or_default();
        counts.1 += 1;
        match r {
            Ok(()) => counts.0 += 1,
            Err(e) => failures.push(format!(
                "{}: {}",
                path.display(),
                e.lines().next().unwrap_or("")
            )),
        }
    }
    let parsed: usize = per_folder.values().map(|c| c.0).sum();
    println!(
        "{tasks} tasks, {} files, parsed in {elapsed:.2?}",
        jobs.len()
    );
    for (folder, (ok, all)) in &per_folder {
        println!("  {folder:16} {ok:4} / {all:4}");
    }
    println!("  {:16} {parsed:4} / {:4}", "total", jobs.len());
    for f in &failures {
        println!("FAILED {f}");
    }
    assert!(
        parsed * 100 >= jobs.len() * 95,
        "only {parsed} of {} files parse",
        jobs.len()
    );
}

//! `ase bench`: checks a set of SV-COMP tasks, each in its own `ase check`
//! process, and writes the results (CSV, JSON, a markdown summary per folder
//! with SV-COMP's score, and the quantile plot). The work is done by
//! [`sv_comp::runner`]; this module reads the options and writes the files.

use anyhow::Context;
use std::path::{Path, PathBuf};
use sv_comp::report::{self, Row};
use sv_comp::runner::{self, RunOptions};
use sv_comp::score::Status;

/// Exit code of a run without wrong results.
const EXIT_OK: u8 = 0;
/// Exit code of a run with a wrong result.
const EXIT_WRONG: u8 = 1;

/// What `ase bench` does.
pub struct Options<'a> {
    /// A folder of tasks, a `.set` file, one `.yml` task, or the `.csv` of
    /// an earlier run (which is then reported, not rerun).
    pub tasks: &'a Path,
    /// Tasks checked at the same time.
    pub jobs: usize,
    /// Time limit per task, in seconds.
    pub timeout: f64,
    /// Memory limit per task, in MB.
    pub memlimit_mb: Option<u64>,
    /// Where the result files go.
    pub output: &'a Path,
    /// The CSV of another run to compare with.
    pub compare: Option<&'a Path>,
    /// SV-COMP's name of the property checked (`unreach-call`,
    /// `no-data-race`); tasks that do not list it are unknown.
    pub property: &'a str,
    /// Further arguments of `ase check`.
    pub check_args: &'a [String],
}

/// Runs `ase bench`.
pub fn run(opts: &Options<'_>) -> anyhow::Result<u8> {
    if !(opts.timeout.is_finite() && opts.timeout > 0.0) {
        anyhow::bail!("--timeout must be a positive number of seconds");
    }
    if opts
        .check_args
        .iter()
        .any(|a| a == "--property" || a.starts_with("--property="))
    {
        anyhow::bail!(
            "`--property` after `--`: ase bench gives each task its own property file; \
             choose the property with `ase bench --property NAME`"
        );
    }
    std::fs::create_dir_all(opts.output)
        .with_context(|| format!("cannot create `{}`", opts.output.display()))?;
    let rows = if opts.tasks.extension().is_some_and(|e| e == "csv") {
        report::read_csv(opts.tasks)?
    } else {
        let tasks = sv_comp::taskset::collect(opts.tasks)?;
        let executable = std::env::current_exe().context("cannot find the ase executable")?;
        eprintln!(
            "checking {} tasks from {} for {} ({} jobs, {} s, {})",
            tasks.len(),
            opts.tasks.display(),
            opts.property,
            opts.jobs,
            opts.timeout,
            opts.memlimit_mb
                .map_or("no memory limit".into(), |m| format!("{m} MB"))
        );
        let rows = runner::run_all(
            &tasks,
            &RunOptions {
                executable,
                jobs: opts.jobs,
                timeout: opts.timeout,
                memlimit_mb: opts.memlimit_mb,
                property: opts.property.to_string(),
                extra_args: opts.check_args.to_vec(),
            },
        )?;
        report::write_csv(&opts.output.join("results.csv"), &rows)?;
        report::write_json(&opts.output.join("results.json"), &rows)?;
        rows
    };
    let summary = report::summary_table(&rows);
    println!("{summary}");
    let mut runs: Vec<(String, Vec<Row>)> = vec![("ase".into(), rows)];
    if let Some(other) = opts.compare {
        let other_rows = report::read_csv(other)?;
        let name = other
            .file_stem()
            .map_or("other".into(), |s| s.to_string_lossy().into_owned());
        let this = if opts.tasks.extension().is_some_and(|e| e == "csv") {
            opts.tasks
                .file_stem()
                .map_or("this".into(), |s| s.to_string_lossy().into_owned())
        } else {
            "this run".into()
        };
        let (this, name) = if this == name {
            (format!("{this} (1)"), format!("{name} (2)"))
        } else {
            (this, name)
        };
        println!("{}", report::compare(&runs[0].1, &other_rows, &this, &name));
        runs[0].0 = this;
        runs.push((name, other_rows));
    }
    std::fs::write(opts.output.join("summary.md"), &summary)?;
    let series: Vec<(&str, &[Row])> = runs
        .iter()
        .map(|(n, r)| (n.as_str(), r.as_slice()))
        .collect();
    let svg = sv_comp::plot::quantile_svg(&series)?;
    let plot: PathBuf = opts.output.join("quantile.svg");
    std::fs::write(&plot, svg).with_context(|| format!("cannot write `{}`", plot.display()))?;
    eprintln!(
        "results: {} (results.csv, results.json, summary.md, quantile.svg)",
        opts.output.display()
    );
    let wrong: Vec<&Row> = runs[0]
        .1
        .iter()
        .filter(|r| r.status == Status::Wrong)
        .collect();
    for r in &wrong {
        eprintln!(
            "WRONG: {} (expected {:?}, got {})",
            r.key(),
            r.expected,
            r.verdict
        );
    }
    for r in runs[0]
        .1
        .iter()
        .filter(|r| r.verdict_bool() == Some(true) && r.certified != Some(true))
    {
        eprintln!(
            "NOT CERTIFIED: {}: {}",
            r.key(),
            if r.certificate_reason.is_empty() {
                "no certificate reported"
            } else {
                &r.certificate_reason
            }
        );
    }
    Ok(if wrong.is_empty() {
        EXIT_OK
    } else {
        EXIT_WRONG
    })
}

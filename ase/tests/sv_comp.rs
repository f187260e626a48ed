//! SV-COMP mode end to end: `ase check TASK.yml`, `--property`, and
//! `ase bench` over a scratch task set built from the project's own C
//! programs (safe, unsafe, a deliberately wrong expectation, and broken
//! tasks), with its CSV, JSON, summary, plot and `--compare`.

mod common;

use common::{ase, root};

use std::path::{Path, PathBuf};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const UNREACH: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";

/// A scratch folder of tasks: `folder/name.yml` with `input` (a path
/// relative to the workspace root, copied beside the task) and `expected`.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sv-comp-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("properties")).unwrap();
        std::fs::write(dir.join("properties/unreach-call.prp"), UNREACH).unwrap();
        std::fs::write(
            dir.join("properties/no-data-race.prp"),
            "CHECK( init(main()), LTL(G ! data-race) )\n",
        )
        .unwrap();
        Scratch(dir)
    }

    fn task(&self, folder: &str, name: &str, input: &str, yml: &str) -> PathBuf {
        let dir = self.0.join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        if !input.is_empty() {
            std::fs::copy(root().join(input), dir.join(format!("{name}.c"))).unwrap();
        }
        let path = dir.join(format!("{name}.yml"));
        std::fs::write(&path, yml.replace("NAME", name)).unwrap();
        path
    }
}

fn yml(expected: bool) -> String {
    format!(
        "format_version: '2.0'\ninput_files: 'NAME.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: {expected}\noptions:\n  language: C\n  data_model: ILP32\n"
    )
}

const SAFE: &str = "tests-c/programs/mutex_counter_safe.c";
const UNSAFE: &str = "tests-c/programs/lost_update_race_unsafe.c";

#[test]
fn check_task_files_and_property_files() {
    let s = Scratch::new("check");
    let unsafe_task = s.task("t", "bug", UNSAFE, &yml(false));
    let out = ase(&["check", unsafe_task.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).ends_with("Verification result: FALSE(unreach-call)\n"),
        "{}",
        text(&out.stdout)
    );

    let safe_task = s.task("t", "ok", SAFE, &yml(true));
    let out = ase(&["check", "--format", "json", safe_task.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verification_result"], "TRUE");

    // The same program with a property file instead of a task.
    let prp = s.0.join("properties/unreach-call.prp");
    let out = ase(&["check", "--property", prp.to_str().unwrap(), UNSAFE]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).ends_with("Verification result: FALSE(unreach-call)\n"));

    // Without a property, no result line.
    let out = ase(&["check", UNSAFE]);
    assert!(!text(&out.stdout).contains("Verification result"));

    // The data-race property: the lost update races.
    let race = s.0.join("properties/no-data-race.prp");
    let out = ase(&["check", "--property", race.to_str().unwrap(), UNSAFE]);
    assert_eq!(out.status.code(), Some(1));
    let o = text(&out.stdout);
    assert!(o.contains("error: data race on `counter`"), "{o}");
    assert!(
        o.ends_with("Verification result: FALSE(no-data-race)\n"),
        "{o}"
    );
    let out = ase(&["check", "--property", race.to_str().unwrap(), SAFE]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).ends_with("Verification result: TRUE\n"));

    // Another property: unknown with the reason.
    let termination = s.0.join("properties/termination.prp");
    std::fs::write(&termination, "CHECK( init(main()), LTL(F end) )\n").unwrap();
    let out = ase(&["check", "--property", termination.to_str().unwrap(), UNSAFE]);
    assert_eq!(out.status.code(), Some(3));
    let o = text(&out.stdout);
    assert!(o.contains("unsupported property termination"), "{o}");
    assert!(o.ends_with("Verification result: UNKNOWN\n"), "{o}");

    // Two input files: unknown with the reason.
    let two = s.task(
        "t",
        "two",
        "",
        "format_version: '2.0'\ninput_files: ['a.c', 'b.c']\nproperties:\n  - property_file: ../properties/unreach-call.prp\n",
    );
    let out = ase(&["check", two.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stdout).contains("2 input files"),
        "{}",
        text(&out.stdout)
    );

    // Missing and malformed files: exit code 2 and a message.
    let out = ase(&["check", "no/such/task.yml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read task"));
    let bad = s.task("t", "bad", "", "input_files: [unclosed\n");
    let out = ase(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a valid task definition"));
    let out = ase(&["check", "--property", "no/such.prp", SAFE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read property file"));

    // The data model is checked by the preprocessor: LP64 is accepted too.
    let out = ase(&["check", "--data-model", "LP64", SAFE]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn bench_runs_a_task_set_and_reports() {
    let s = Scratch::new("bench");
    s.task("good", "ok", SAFE, &yml(true));
    s.task("good", "bug", UNSAFE, &yml(false));
    // A wrong expectation makes a wrong `true` result (−32) and exit code 1.
    s.task("bad", "wrongly-expected", SAFE, &yml(false));
    s.task("bad", "missing-input", "", &yml(true));
    s.task("bad", "garbage", "", "{{{");
    s.task(
        "bad",
        "race",
        UNSAFE,
        "format_version: '1.0'\ninput_files: 'race.c'\nproperties:\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\n",
    );
    let out_dir = s.0.join("results");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "bench",
            s.0.to_str().unwrap(),
            "--jobs",
            "2",
            "--timeout",
            "60",
            "--memlimit",
            "4000",
            "-o",
            out_dir.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        ase(&args)
    };
    let out = run(&[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("WRONG: bad/wrongly-expected"));
    assert!(
        stdout.contains("| bad | 4 | 0 | 0 | 1 | 0 | 3 | -32 |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| good | 2 | 1 | 1 | 0 | 0 | 0 | 3 |"),
        "{stdout}"
    );

    let rows = sv_comp::report::read_csv(&out_dir.join("results.csv")).unwrap();
    let find = |task: &str| rows.iter().find(|r| r.task == task).unwrap().clone();
    let short = |task: &str| {
        let r = find(task);
        (r.expected, r.verdict, r.status, r.score)
    };
    use sv_comp::score::Status;
    assert_eq!(short("ok"), (Some(true), "true".into(), Status::Correct, 2));
    assert_eq!(
        short("bug"),
        (Some(false), "false".into(), Status::Correct, 1)
    );
    assert_eq!(
        short("wrongly-expected"),
        (Some(false), "true".into(), Status::Wrong, -32)
    );
    assert!(find("ok").cpu_seconds > 0.0 && find("ok").peak_memory_mb > 1.0);
    assert!(find("ok").iterations.is_some() && find("ok").predicates.is_some());
    assert!(
        find("missing-input").reason.contains("invalid input"),
        "{rows:?}"
    );
    assert!(
        find("garbage").reason.contains("not a valid task"),
        "{rows:?}"
    );
    // unreach-call is checked by default: a task without it is unknown.
    assert_eq!(
        find("race").reason,
        "the task has no unreach-call property (it lists no-data-race)"
    );
    assert_eq!(find("race").expected, None);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("results.json")).unwrap())
            .unwrap();
    assert_eq!(json["tasks"].as_array().unwrap().len(), 6);
    assert_eq!(json["summary"][2]["folder"], "total");
    assert_eq!(json["summary"][2]["score"], 3 - 32);
    let svg = std::fs::read_to_string(out_dir.join("quantile.svg")).unwrap();
    assert!(svg.contains("2 correct"), "{svg}");

    // Reporting an earlier run again, compared with itself.
    let csv = out_dir.join("results.csv");
    let copy = s.0.join("old.csv");
    std::fs::copy(&csv, &copy).unwrap();
    let report_dir = s.0.join("report");
    let out = ase(&[
        "bench",
        csv.to_str().unwrap(),
        "--compare",
        copy.to_str().unwrap(),
        "-o",
        report_dir.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("| good/ok | true | true (correct,"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| total | 6 / 6 | 2 / 2 | 1 / 1 | 3 / 3 | -29 / -29 |"),
        "{stdout}"
    );
    assert!(std::fs::read_to_string(report_dir.join("quantile.svg"))
        .unwrap()
        .contains("old"));

    // `--property no-data-race`: the race task is scored against its own
    // expected verdict; the others list no such property.
    let races_dir = s.0.join("races");
    let out = ase(&[
        "bench",
        s.0.to_str().unwrap(),
        "--property",
        "no-data-race",
        "--timeout",
        "60",
        "-o",
        races_dir.to_str().unwrap(),
    ]);
    assert!(
        text(&out.stderr).contains("for no-data-race"),
        "{}",
        text(&out.stderr)
    );
    let rows = sv_comp::report::read_csv(&races_dir.join("results.csv")).unwrap();
    let find = |task: &str| rows.iter().find(|r| r.task == task).unwrap().clone();
    assert_eq!(find("race").expected, Some(false));
    assert_eq!(find("race").status, Status::Correct, "{rows:?}");
    assert_eq!(
        find("ok").reason,
        "the task has no no-data-race property (it lists unreach-call)"
    );
    // The property comes from the task, not from the check arguments.
    let out = ase(&["bench", s.0.to_str().unwrap(), "--", "--property", "x.prp"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("ase bench --property NAME"));
    let out = ase(&["bench", s.0.to_str().unwrap(), "--property", "termination"]);
    assert_eq!(out.status.code(), Some(2));

    // A set that does not exist, and an empty one: a message, exit code 2.
    let out = ase(&["bench", "no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read"));
}

#[test]
fn a_task_with_several_properties_is_checked_for_each() {
    let s = Scratch::new("several");
    let two = "format_version: '2.0'\ninput_files: 'NAME.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n";
    let task = s.task("t", "both", UNSAFE, two);
    let task = task.to_str().unwrap();

    // Text: each property's report under its name, then a summary.
    let out = ase(&["check", "--timeout", "30", task]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    assert!(o.contains("(unreach-call) =="), "{o}");
    assert!(o.contains("(no-data-race) =="), "{o}");
    assert!(
        o.contains("Verification result: FALSE(unreach-call)"),
        "{o}"
    );
    assert!(
        o.contains("Verification result: FALSE(no-data-race)"),
        "{o}"
    );
    assert!(o.contains("summary:\n  unreach-call: unsafe"), "{o}");

    // JSON: one object per property.
    let out = ase(&["check", "--timeout", "30", "--format", "json", task]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v.as_array().expect("an array");
    let pairs: Vec<(&str, &str)> = results
        .iter()
        .map(|r| {
            (
                r["property"].as_str().unwrap(),
                r["verification_result"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("unreach-call", "FALSE(unreach-call)"),
            ("no-data-race", "FALSE(no-data-race)")
        ]
    );

    // `--property NAME` chooses one; a name the task does not list is
    // unknown with the reason.
    let out = ase(&["check", "--property", "no-data-race", task]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).ends_with("Verification result: FALSE(no-data-race)\n"));
    let out = ase(&["check", "--property", "no-overflow", task]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stdout).contains("does not list the property no-overflow"),
        "{}",
        text(&out.stdout)
    );

    // A witness is about one property.
    let out = ase(&["check", "--witness", "/dev/null", task]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--property NAME"));
}

//! SARIF 2.1.0 logs (`ase check --format sarif`), for code-scanning tools:
//! one result per file whose verdict is not `safe`. An error trace is the
//! result's code flow, one thread flow per thread with its steps in
//! execution order; `unknown` is a note with its reason; a file `ase`
//! could not read is an error of rule `invalid-input`.
//!
//! Built from the JSON objects of `ase check --format json` (one per file)
//! with the types of `serde-sarif`.

use serde_json::Value;
use serde_sarif::sarif::{
    ArtifactLocation, CodeFlow, Location, Message, MultiformatMessageString, PhysicalLocation,
    Region, ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif, ThreadFlow,
    ThreadFlowLocation, Tool, ToolComponent,
};
use std::path::{Path, PathBuf};

/// Rule of reachable errors (`reach_error()`, a failed assertion).
pub const RULE_UNREACH_CALL: &str = "unreach-call";
/// Rule of data races (two accesses that can happen next together).
pub const RULE_DATA_RACE: &str = "data-race";
/// Rule of deadlocks (every unfinished thread waits forever).
pub const RULE_DEADLOCK: &str = "deadlock";
/// Rules of memory-safety and overflow violations: SV-COMP's names of the
/// sub-properties, with their descriptions.
pub const VIOLATION_RULES: [(&str, &str); 7] = [
    (
        "valid-deref",
        "A null, dangling or out-of-bounds pointer is dereferenced",
    ),
    (
        "valid-free",
        "A block is freed twice, or a pointer that is not the start of a heap block is freed",
    ),
    (
        "valid-memtrack",
        "An allocated heap block becomes unreachable",
    ),
    (
        "valid-memcleanup",
        "Heap memory is still allocated when the program ends",
    ),
    (
        "no-overflow",
        "A signed integer operation overflows, or a shift is out of range",
    ),
    (
        "thread-safety",
        "A guarded variable is accessed without its capability, or a call breaks a function's thread-safety annotation",
    ),
    (
        "spec",
        "A function is called in a state of the `--spec` specification that does not allow it",
    ),
];
/// Rule of verdicts `ase` could not reach.
pub const RULE_UNKNOWN: &str = "unknown";
/// Rule of files `ase` could not read or lower.
pub const RULE_INVALID: &str = "invalid-input";

/// The key of a result's fingerprint in `partialFingerprints`.
pub const FINGERPRINT: &str = "aseBug/v1";

/// A fingerprint of a bug that stays the same across runs and when lines
/// shift: a hash of the rule, the file, and, for each place the bug is
/// reported at (the racing accesses, the waiting calls, the last step),
/// the text of its source line and the variable it names, not the line
/// numbers, the trace's length or the threads' instance numbers.
fn fingerprint(rule: &str, file: &Path, spots: &[&Value]) -> String {
    use sha2::{Digest, Sha256};
    let lines: Option<Vec<String>> = std::fs::read_to_string(file)
        .ok()
        .map(|t| t.lines().map(str::to_string).collect());
    let source = |spot: &Value| -> String {
        let text = spot["line"]
            .as_u64()
            .and_then(|n| {
                lines
                    .as_ref()?
                    .get(usize::try_from(n).ok()?.checked_sub(1)?)
                    .cloned()
            })
            .or_else(|| spot["source"].as_str().map(str::to_string))
            .unwrap_or_default();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut keys: Vec<String> = spots
        .iter()
        .map(|s| {
            format!(
                "{}\u{1f}{}",
                source(s),
                s["variable"].as_str().unwrap_or("")
            )
        })
        .collect();
    keys.sort();
    let mut hash = Sha256::new();
    for part in [rule.to_string(), file.display().to_string()]
        .into_iter()
        .chain(keys)
    {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn text(s: impl Into<String>) -> Message {
    Message::builder().text(s.into()).build()
}

fn rule(id: &str, short: &str) -> ReportingDescriptor {
    ReportingDescriptor::builder()
        .id(id.to_string())
        .short_description(
            MultiformatMessageString::builder()
                .text(short.to_string())
                .build(),
        )
        .build()
}

fn artifact(file: &Path) -> ArtifactLocation {
    ArtifactLocation::builder()
        .uri(file.display().to_string())
        .build()
}

/// The location of a source-trace step (`file`, `line`, `column`, ...).
fn step_location(step: &Value, file: &Path, message: Option<String>) -> Location {
    let file = step["file"]
        .as_str()
        .map_or_else(|| file.to_path_buf(), PathBuf::from);
    let mut physical = PhysicalLocation::builder()
        .artifact_location(artifact(&file))
        .build();
    if let Some(line) = step["line"].as_i64() {
        let region = Region::builder()
            .start_line(line)
            .start_column(step["column"].as_i64().unwrap_or(1))
            .end_line(step["end_line"].as_i64().unwrap_or(line))
            .build();
        let mut region = region;
        region.end_column = step["end_column"].as_i64();
        physical.region = Some(region);
    }
    let mut location = Location::builder().physical_location(physical).build();
    location.message = message.map(text);
    location
}

/// What a step did, for the thread flow's message.
fn step_message(step: &Value) -> String {
    let thread = step["thread"].as_str().unwrap_or("?");
    let source = step["source"].as_str().unwrap_or("").trim();
    let events: Vec<String> = step["events"]
        .as_array()
        .map(|es| es.iter().map(event_text).collect())
        .unwrap_or_default();
    let mut m = format!("{thread}: {source}");
    if !events.is_empty() {
        m.push_str(" [");
        m.push_str(&events.join("; "));
        m.push(']');
    }
    m
}

fn event_text(e: &Value) -> String {
    let kind = e["kind"].as_str().unwrap_or("event");
    let rest: Vec<String> = e
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| k.as_str() != "kind" && k.as_str() != "at")
                .map(|(k, v)| match v {
                    Value::String(s) => format!("{k} = {s}"),
                    v => format!("{k} = {v}"),
                })
                .collect()
        })
        .unwrap_or_default();
    if rest.is_empty() {
        kind.to_string()
    } else {
        format!("{kind} ({})", rest.join(", "))
    }
}

/// The code flow of an error trace: one thread flow per thread.
fn code_flow(trace: &Value, file: &Path) -> Option<CodeFlow> {
    let steps = trace["steps"].as_array()?;
    let threads: Vec<String> = trace["threads"]
        .as_array()
        .map(|ts| {
            ts.iter()
                .map(|t| t["name"].as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default();
    let mut flows: Vec<(String, Vec<ThreadFlowLocation>)> =
        threads.iter().map(|t| (t.clone(), Vec::new())).collect();
    for (order, step) in steps.iter().enumerate() {
        let name = step["thread"].as_str().unwrap_or("?");
        let k = match flows.iter().position(|(t, _)| t == name) {
            Some(k) => k,
            None => {
                flows.push((name.to_string(), Vec::new()));
                flows.len() - 1
            }
        };
        let location = step_location(step, file, Some(step_message(step)));
        let order = step["step"]
            .as_i64()
            .unwrap_or(i64::try_from(order).unwrap_or(0) + 1);
        flows[k].1.push(
            ThreadFlowLocation::builder()
                .location(location)
                .execution_order(order)
                .build(),
        );
    }
    let thread_flows: Vec<ThreadFlow> = flows
        .into_iter()
        .filter(|(_, locs)| !locs.is_empty())
        .map(|(name, locations)| {
            ThreadFlow::builder()
                .id(name.clone())
                .message(text(format!("thread {name}")))
                .locations(locations)
                .build()
        })
        .collect();
    Some(CodeFlow::builder().thread_flows(thread_flows).build())
}

/// The result of one file, if its verdict is not `safe`.
fn result(file: &Path, v: &Value) -> Option<SarifResult> {
    let verdict = v["verdict"].as_str().unwrap_or("error");
    let whole_file = || {
        Location::builder()
            .physical_location(
                PhysicalLocation::builder()
                    .artifact_location(artifact(file))
                    .build(),
            )
            .build()
    };
    match verdict {
        "safe" => None,
        "unsafe" => {
            let trace = &v["source_trace"];
            let steps = trace["steps"].as_array();
            let last = steps.and_then(|s| s.last());
            let n = steps.map_or(0, Vec::len);
            let race = &trace["violation"];
            // A race or a deadlock is located at each of its parts (the
            // accesses, the waiting calls), described in words.
            let parts = |key: &str, describe: &dyn Fn(&Value) -> String| {
                let parts = race[key].as_array().cloned().unwrap_or_default();
                let words: Vec<String> = parts.iter().map(describe).collect();
                let locations: Vec<Location> = parts
                    .iter()
                    .map(|p| step_location(p, file, Some(describe(p))))
                    .collect();
                let locations = if locations.is_empty() {
                    vec![whole_file()]
                } else {
                    locations
                };
                (words, locations)
            };
            // The parts a bug is located at, for its fingerprint.
            let spots: Vec<&Value> = match race["kind"].as_str() {
                Some("data-race") => race["accesses"].as_array().map(|a| a.iter().collect()),
                Some("deadlock") => race["threads"].as_array().map(|t| t.iter().collect()),
                _ => None,
            }
            .unwrap_or_else(|| last.into_iter().collect());
            let (rule, message, locations) = if race["kind"] == "data-race" {
                let (words, locations) = parts("accesses", &|a: &Value| {
                    format!(
                        "{} of `{}` by {}",
                        a["access"].as_str().unwrap_or("access"),
                        a["variable"].as_str().unwrap_or("?"),
                        a["thread"].as_str().unwrap_or("?")
                    )
                });
                let message = format!(
                    "data race: {} (after an execution of {n} steps)",
                    words.join(", ")
                );
                (RULE_DATA_RACE, message, locations)
            } else if race["kind"] == "deadlock" {
                let (words, locations) = parts("threads", &|t: &Value| {
                    t["message"].as_str().unwrap_or("waits").to_string()
                });
                let message = format!(
                    "deadlock: {} (after an execution of {n} steps)",
                    words.join("; ")
                );
                (RULE_DEADLOCK, message, locations)
            } else if let Some((id, _)) = VIOLATION_RULES
                .iter()
                .find(|(id, _)| race["kind"].as_str() == Some(id))
            {
                (
                    *id,
                    format!(
                        "{} ({id}; after an execution of {n} steps)",
                        race["reason"].as_str().unwrap_or("a violation")
                    ),
                    vec![last.map_or_else(whole_file, |s| step_location(s, file, None))],
                )
            } else {
                (
                    RULE_UNREACH_CALL,
                    format!("an error (reach_error() or a failed assertion) is reachable: an execution of {n} steps"),
                    vec![last.map_or_else(whole_file, |s| step_location(s, file, None))],
                )
            };
            let mut r = SarifResult::builder()
                .rule_id(rule.to_string())
                .level(ResultLevel::Error)
                .message(text(message))
                .locations(locations)
                .build();
            r.code_flows = code_flow(trace, file).map(|c| vec![c]);
            r.partial_fingerprints = Some(
                [(FINGERPRINT.to_string(), fingerprint(rule, file, &spots))]
                    .into_iter()
                    .collect(),
            );
            Some(r)
        }
        "unknown" => Some(
            SarifResult::builder()
                .rule_id(RULE_UNKNOWN.to_string())
                .level(ResultLevel::Note)
                .message(text(format!(
                    "ase could not decide whether an error is reachable: {}",
                    v["reason"].as_str().unwrap_or("no reason given")
                )))
                .locations(vec![whole_file()])
                .build(),
        ),
        _ => Some(
            SarifResult::builder()
                .rule_id(RULE_INVALID.to_string())
                .level(ResultLevel::Error)
                .message(text(format!(
                    "ase cannot check this file: {}",
                    v["error"].as_str().unwrap_or("bad input").trim()
                )))
                .locations(vec![whole_file()])
                .build(),
        ),
    }
}

/// The SARIF log of the checked files, as JSON text.
pub fn log(files: &[(PathBuf, Value)]) -> anyhow::Result<String> {
    let mut rules = vec![
        rule(
            RULE_UNREACH_CALL,
            "An error location (reach_error() or a failed assertion) is reachable",
        ),
        rule(
            RULE_DATA_RACE,
            "Two threads can access the same memory next, one writes, not both atomically",
        ),
        rule(
            RULE_DEADLOCK,
            "Every thread that has not ended waits in a blocking call that cannot complete",
        ),
    ];
    rules.extend(VIOLATION_RULES.iter().map(|(id, short)| rule(id, short)));
    rules.extend([
        rule(
            RULE_UNKNOWN,
            "ase could not decide the file within its limits, or it uses something not modelled",
        ),
        rule(
            RULE_INVALID,
            "The file cannot be read, preprocessed or parsed",
        ),
    ]);
    let driver = ToolComponent::builder()
        .name("ase".to_string())
        .version(env!("CARGO_PKG_VERSION").to_string())
        .information_uri("https://sv-comp.sosy-lab.org/".to_string())
        .rules(rules)
        .build();
    let results: Vec<SarifResult> = files.iter().filter_map(|(f, v)| result(f, v)).collect();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .build();
    let log = Sarif::builder()
        .schema(serde_sarif::sarif::SCHEMA_URL.to_string())
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    Ok(serde_json::to_string_pretty(&log)?)
}

//! SV-COMP witnesses in the GraphML format 1.0: writing, reading back, and
//! the well-formedness checks.

use crate::source::{Event, SourceTrace};
use crate::Metadata;
use quick_xml::escape::escape;
use quick_xml::events::Event as XmlEvent;
use quick_xml::Reader;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt::Write;

/// The keys of the format this writer uses: (id, for, type).
const KEYS: &[(&str, &str, &str)] = &[
    ("witness-type", "graph", "string"),
    ("sourcecodelang", "graph", "string"),
    ("producer", "graph", "string"),
    ("specification", "graph", "string"),
    ("programfile", "graph", "string"),
    ("programhash", "graph", "string"),
    ("architecture", "graph", "string"),
    ("creationtime", "graph", "string"),
    ("entry", "node", "boolean"),
    ("violation", "node", "boolean"),
    ("invariant", "node", "string"),
    ("invariant.scope", "node", "string"),
    ("startline", "edge", "int"),
    ("endline", "edge", "int"),
    ("threadId", "edge", "string"),
    ("createThread", "edge", "string"),
    ("enterFunction", "edge", "string"),
    ("returnFrom", "edge", "string"),
    ("assumption", "edge", "string"),
    ("assumption.scope", "edge", "string"),
    ("assumption.resultfunction", "edge", "string"),
    ("ase-inputs", "edge", "string"),
    ("ase-initial", "graph", "string"),
];

/// The graph-level keys SV-COMP requires.
pub const REQUIRED_GRAPH_KEYS: &[&str] = &[
    "witness-type",
    "sourcecodelang",
    "producer",
    "specification",
    "programfile",
    "programhash",
    "architecture",
    "creationtime",
];

fn attr_name(id: &str) -> &str {
    match id {
        "entry" => "isEntryNode",
        "violation" => "isViolationNode",
        other => other,
    }
}

fn header(out: &mut String, meta: &Metadata, kind: &str) {
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    out.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (id, f, ty) in KEYS {
        let _ = write!(
            out,
            " <key id=\"{id}\" for=\"{f}\" attr.name=\"{}\" attr.type=\"{ty}\"",
            attr_name(id)
        );
        if *ty == "boolean" {
            out.push_str("><default>false</default></key>\n");
        } else {
            out.push_str("/>\n");
        }
    }
    out.push_str(" <graph edgedefault=\"directed\">\n");
    let data = |out: &mut String, k: &str, v: &str| {
        let _ = writeln!(out, "  <data key=\"{k}\">{}</data>", escape(v));
    };
    data(out, "witness-type", kind);
    data(out, "sourcecodelang", "C");
    data(out, "producer", &meta.producer);
    data(out, "specification", &meta.specification);
    data(out, "programfile", &meta.program_file.display().to_string());
    data(out, "programhash", &meta.program_hash);
    data(out, "architecture", meta.architecture);
    data(out, "creationtime", &meta.creation_time);
}

/// A violation witness: one edge per step of the trace, from the entry node
/// to the violation node.
///
/// Each edge has the step's `threadId`, its `startline`/`endline` when the
/// statement is in the program file, `createThread` when it creates a
/// thread, `enterFunction`/`returnFrom` when control enters or leaves a
/// function, and, for a `__VERIFIER_nondet_*` call, the `assumption`
/// `\result == v;` with `assumption.resultfunction`. `ase-inputs` (a key of
/// this tool's, ignored by others) lists every input of the step by IR
/// variable, so that the witness replays on the lowered program; so does
/// `ase-initial` (a graph key of this tool's) with the initial values the
/// program leaves open.
pub fn violation(meta: &Metadata, trace: &SourceTrace, lowered: &lowering::Lowered) -> String {
    let mut out = String::new();
    header(&mut out, meta, "violation_witness");
    if !trace.initial.is_empty() {
        let _ = writeln!(
            out,
            "  <data key=\"ase-initial\">{}</data>",
            escape(inputs_list(&trace.initial, lowered))
        );
    }
    out.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
    let n = trace.steps.len();
    for (i, step) in trace.steps.iter().enumerate() {
        let target = i + 1;
        if target == n {
            let _ = writeln!(
                out,
                "  <node id=\"N{target}\">\n   <data key=\"violation\">true</data>\n  </node>"
            );
        } else {
            let _ = writeln!(out, "  <node id=\"N{target}\"/>");
        }
        let _ = writeln!(out, "  <edge source=\"N{i}\" target=\"N{target}\">");
        let data = |out: &mut String, k: &str, v: &str| {
            let _ = writeln!(out, "   <data key=\"{k}\">{}</data>", escape(v));
        };
        if let Some(at) = &step.at {
            data(&mut out, "startline", &at.line.to_string());
            data(&mut out, "endline", &at.end_line.to_string());
        }
        data(&mut out, "threadId", &step.thread_id.to_string());
        for e in &step.events {
            match e {
                Event::Create { id, .. } => data(&mut out, "createThread", &id.to_string()),
                Event::Enter { function } => data(&mut out, "enterFunction", function),
                Event::Return { function } => data(&mut out, "returnFrom", function),
                _ => {}
            }
        }
        let inputs: Vec<(&String, i128)> = step
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Input {
                    function, value, ..
                } => Some((function, *value)),
                _ => None,
            })
            .collect();
        if let [(function, value)] = inputs.as_slice() {
            data(&mut out, "assumption", &format!("\\result == {value};"));
            data(&mut out, "assumption.resultfunction", function);
            if let Some(f) = &step.function {
                data(&mut out, "assumption.scope", f);
            }
        }
        if !step.inputs.is_empty() {
            data(&mut out, "ase-inputs", &inputs_list(&step.inputs, lowered));
        }
        out.push_str("  </edge>\n");
    }
    if n == 0 {
        // The initial state is an error state: the entry is the violation.
        out = out.replace(
            "<data key=\"entry\">true</data>",
            "<data key=\"entry\">true</data>\n   <data key=\"violation\">true</data>",
        );
    }
    out.push_str(" </graph>\n</graphml>\n");
    out
}

/// `name=value;...` of IR variables (`ase-inputs`, `ase-initial`).
fn inputs_list(values: &[(engine::ir::VarId, i128)], lowered: &lowering::Lowered) -> String {
    let list: Vec<String> = values
        .iter()
        .map(|(v, x)| format!("{}={x}", lowered.program.var(*v).name))
        .collect();
    list.join(";")
}

/// A correctness witness: the entry node carries an invariant that holds in
/// every reachable state (GraphML witnesses follow the control flow, and a
/// node's invariant holds for as long as the automaton stays in it, so only
/// a program-wide invariant can be attached without the whole control-flow
/// automaton; location invariants are in the YAML format).
pub fn correctness(meta: &Metadata, global_invariant: Option<&str>) -> String {
    let mut out = String::new();
    header(&mut out, meta, "correctness_witness");
    out.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n");
    if let Some(inv) = global_invariant {
        let _ = writeln!(out, "   <data key=\"invariant\">{}</data>", escape(inv));
    }
    out.push_str("  </node>\n </graph>\n</graphml>\n");
    out
}

/// A witness read back.
#[derive(Clone, Debug, Default)]
pub struct Witness {
    /// Declared keys: id → (for, attr.name).
    pub keys: HashMap<String, (String, String)>,
    /// Graph data.
    pub graph: BTreeMap<String, String>,
    /// Nodes in document order: id and data.
    pub nodes: Vec<(String, BTreeMap<String, String>)>,
    /// Edges in document order: source, target and data.
    pub edges: Vec<Edge>,
}

/// An edge of a witness.
#[derive(Clone, Debug, Default)]
pub struct Edge {
    /// Source node id.
    pub source: String,
    /// Target node id.
    pub target: String,
    /// Data by key.
    pub data: BTreeMap<String, String>,
}

/// Reads a GraphML witness.
pub fn parse(text: &str) -> Result<Witness, String> {
    let mut r = Reader::from_str(text);
    r.config_mut().trim_text(true);
    let mut w = Witness::default();
    enum Owner {
        Graph,
        Node(usize),
        Edge(usize),
        None,
    }
    let mut owner = Owner::None;
    let mut key: Option<String> = None;
    let mut text_buf = String::new();
    let mut saw_graphml = false;
    let attrs = |e: &quick_xml::events::BytesStart| -> Result<HashMap<String, String>, String> {
        let mut m = HashMap::new();
        for a in e.attributes() {
            let a = a.map_err(|e| e.to_string())?;
            let k: &str = a.key.as_ref();
            let k = k.to_string();
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|e| e.to_string())?
                .into_owned();
            m.insert(k, v);
        }
        Ok(m)
    };
    loop {
        let ev = r
            .read_event()
            .map_err(|e| format!("XML error at byte {}: {e}", r.error_position()))?;
        let is_empty = matches!(ev, XmlEvent::Empty(_));
        match ev {
            XmlEvent::Eof => break,
            XmlEvent::Start(e) | XmlEvent::Empty(e) => {
                let empty = is_empty;
                let a = attrs(&e)?;
                let name = e.name();
                let name: &str = name.as_ref();
                match name {
                    "graphml" => saw_graphml = true,
                    "key" => {
                        let id = a.get("id").cloned().ok_or("a <key> without id")?;
                        w.keys.insert(
                            id,
                            (
                                a.get("for").cloned().unwrap_or_default(),
                                a.get("attr.name").cloned().unwrap_or_default(),
                            ),
                        );
                    }
                    "graph" => owner = Owner::Graph,
                    "node" => {
                        let id = a.get("id").cloned().ok_or("a <node> without id")?;
                        w.nodes.push((id, BTreeMap::new()));
                        owner = Owner::Node(w.nodes.len() - 1);
                        if empty {
                            owner = Owner::Graph;
                        }
                    }
                    "edge" => {
                        w.edges.push(Edge {
                            source: a.get("source").cloned().ok_or("an <edge> without source")?,
                            target: a.get("target").cloned().ok_or("an <edge> without target")?,
                            data: BTreeMap::new(),
                        });
                        owner = Owner::Edge(w.edges.len() - 1);
                        if empty {
                            owner = Owner::Graph;
                        }
                    }
                    "data" => {
                        key = Some(a.get("key").cloned().ok_or("a <data> without key")?);
                        text_buf.clear();
                        if empty {
                            store(&mut w, &owner, key.take().expect("set"), String::new());
                        }
                    }
                    _ => {}
                }
            }
            XmlEvent::Text(t) if key.is_some() => {
                text_buf.push_str(&t.xml10_content());
            }
            XmlEvent::GeneralRef(g) if key.is_some() => {
                let name: &str = g.as_ref();
                let entity = format!("&{name};");
                let s = quick_xml::escape::unescape(&entity).map_err(|e| e.to_string())?;
                text_buf.push_str(&s);
            }
            XmlEvent::End(e) => match AsRef::<str>::as_ref(&e.name()) {
                "data" => {
                    if let Some(k) = key.take() {
                        store(&mut w, &owner, k, std::mem::take(&mut text_buf));
                    }
                }
                "node" | "edge" => owner = Owner::Graph,
                "graph" => owner = Owner::None,
                _ => {}
            },
            _ => {}
        }
    }
    fn store(w: &mut Witness, owner: &Owner, k: String, v: String) {
        match owner {
            Owner::Graph => {
                w.graph.insert(k, v);
            }
            Owner::Node(i) => {
                w.nodes[*i].1.insert(k, v);
            }
            Owner::Edge(i) => {
                w.edges[*i].data.insert(k, v);
            }
            Owner::None => {}
        }
    }
    if !saw_graphml {
        return Err("not a GraphML document (no <graphml> element)".into());
    }
    Ok(w)
}

impl Witness {
    /// The node ids whose data has `key` = `true`.
    fn flagged(&self, key: &str) -> Vec<&str> {
        self.nodes
            .iter()
            .filter(|(_, d)| d.get(key).is_some_and(|v| v == "true"))
            .map(|(id, _)| id.as_str())
            .collect()
    }

    /// The entry node's id.
    pub fn entry(&self) -> Option<&str> {
        self.flagged("entry").first().copied()
    }

    /// Checks the keys and the graph: every required graph key present and
    /// non-empty, every data key declared, node ids unique, edges between
    /// existing nodes, exactly one entry node, and — for violation
    /// witnesses — a violation node reachable from it. `program` (the
    /// file's bytes), when given, must hash to `programhash`.
    pub fn check(&self, program: Option<&[u8]>) -> Result<(), String> {
        for k in REQUIRED_GRAPH_KEYS {
            match self.graph.get(*k) {
                Some(v) if !v.trim().is_empty() => {}
                _ => return Err(format!("the graph has no `{k}`")),
            }
        }
        let kind = self.graph["witness-type"].as_str();
        if !matches!(kind, "violation_witness" | "correctness_witness") {
            return Err(format!("unknown witness-type `{kind}`"));
        }
        if !matches!(self.graph["architecture"].as_str(), "32bit" | "64bit") {
            return Err("architecture must be 32bit or 64bit".into());
        }
        let hash = &self.graph["programhash"];
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err("programhash is not a SHA-256 hex digest".into());
        }
        if let Some(bytes) = program {
            if !hash.eq_ignore_ascii_case(&crate::sha256_hex(bytes)) {
                return Err("programhash is not the SHA-256 of the program".into());
            }
        }
        let used = self
            .graph
            .keys()
            .chain(self.nodes.iter().flat_map(|(_, d)| d.keys()))
            .chain(self.edges.iter().flat_map(|e| e.data.keys()));
        for k in used {
            if !self.keys.contains_key(k) {
                return Err(format!("data key `{k}` is not declared"));
            }
        }
        let mut ids = HashSet::new();
        for (id, _) in &self.nodes {
            if !ids.insert(id.as_str()) {
                return Err(format!("node `{id}` is declared twice"));
            }
        }
        for e in &self.edges {
            for end in [&e.source, &e.target] {
                if !ids.contains(end.as_str()) {
                    return Err(format!("an edge refers to the unknown node `{end}`"));
                }
            }
        }
        let entries = self.flagged("entry");
        if entries.len() != 1 {
            return Err(format!(
                "the witness has {} entry nodes (needs one)",
                entries.len()
            ));
        }
        if kind == "violation_witness" {
            let violations: HashSet<&str> = self.flagged("violation").into_iter().collect();
            if violations.is_empty() {
                return Err("the violation witness has no violation node".into());
            }
            let mut seen = HashSet::new();
            let mut queue = VecDeque::from([entries[0]]);
            while let Some(n) = queue.pop_front() {
                if !seen.insert(n) {
                    continue;
                }
                if violations.contains(n) {
                    return Ok(());
                }
                for e in self.edges.iter().filter(|e| e.source == n) {
                    queue.push_back(e.target.as_str());
                }
            }
            return Err("no violation node is reachable from the entry node".into());
        }
        Ok(())
    }

    /// The path of a violation witness: the edges from the entry node, one
    /// at a time, to the first violation node. Fails on branching.
    pub fn path(&self) -> Result<Vec<&Edge>, String> {
        let entry = self.entry().ok_or("no entry node")?;
        let violations: HashSet<&str> = self.flagged("violation").into_iter().collect();
        let mut out = Vec::new();
        let mut cur = entry;
        let mut seen = HashSet::new();
        while !violations.contains(cur) {
            if !seen.insert(cur) {
                return Err("the witness path has a cycle".into());
            }
            let outs: Vec<&Edge> = self.edges.iter().filter(|e| e.source == cur).collect();
            match outs.as_slice() {
                [e] => {
                    out.push(*e);
                    cur = e.target.as_str();
                }
                [] => return Err(format!("node `{cur}` has no outgoing edge")),
                _ => return Err(format!("node `{cur}` branches (not a single path)")),
            }
        }
        Ok(out)
    }
}

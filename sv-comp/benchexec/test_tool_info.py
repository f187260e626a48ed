#!/usr/bin/env python3
"""Checks the BenchExec integration of ase with BenchExec itself.

    python sv-comp/benchexec/test_tool_info.py --ase PATH/TO/ase --version X.Y.Z

needs a Python with `benchexec` installed (ase/tests/benchexec.rs makes a
virtual environment for it). The checks:

1. the tool-info module `ase_benchexec.ase` through BenchExec's API: name,
   executable lookup, version, exact command lines, and determine_result on
   the recorded outputs in testdata/ (with their real exit codes) and on
   crashes, signals and timeouts;
2. BenchExec's own test utility (`python -m benchexec.test_tool_info`) on the
   module, the recorded outputs and a task-definition file: no warnings, and
   the results it prints;
3. ase.xml loaded by BenchExec: limits, property, one task set per folder of
   ../shared/sv-benchmarks with all its tasks, and their command lines; and
   ase-races.xml: property no-data-race over the task set ../races;
4. the real `ase` run with the command lines the module makes, on three
   programs of tests-c/programs (safe, unsafe, unknown), and on a racy one
   with the no-data-race property;
5. a real `benchexec` run of a small benchmark definition over those three
   programs as tasks (skipped, with the reason, where BenchExec cannot
   measure runs on this machine).

Prints one line per check and exits 0 when all pass, 1 otherwise.
"""

import argparse
import contextlib
import datetime
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TESTDATA = os.path.join(HERE, "testdata")
SHARED_TASKS = os.path.join(REPO, "..", "shared", "sv-benchmarks", "c")
PROPERTY = os.path.join(SHARED_TASKS, "properties", "unreach-call.prp")
# The hand-checked no-data-race task set and its property file.
RACE_TASKS = os.path.join(os.path.dirname(HERE), "races")
RACE_PROPERTY = os.path.join(RACE_TASKS, "no-data-race.prp")
MODULE = "ase_benchexec.ase"
# The folders of ../shared/sv-benchmarks/c with tasks, one <tasks> each.
FOLDERS = ["pthread", "pthread-atomic", "pthread-divine", "pthread-ext", "pthread-lit",
           "pthread-wmm"]

sys.path.insert(0, HERE)

import benchexec.benchexec  # noqa: E402
import benchexec.result as result  # noqa: E402
from benchexec import model, tooladapter, util  # noqa: E402
from benchexec.tools.template import (  # noqa: E402
    ToolNotFoundException,
    UnsupportedFeatureException,
)

BaseTool = tooladapter.CURRENT_BASETOOL
Task = BaseTool.Task
Limits = BaseTool.ResourceLimits

# Recorded outputs (testdata/README.md): file, exit code and signal of the
# recording, expected result, and expected result when read as if the exit
# code were 0 (as `python -m benchexec.test_tool_info` does).
RECORDED = [
    ("true.txt", 0, None, result.RESULT_TRUE_PROP, result.RESULT_TRUE_PROP),
    ("false.txt", 1, None, result.RESULT_FALSE_REACH, result.RESULT_FALSE_REACH),
    ("unknown.txt", 3, None, result.RESULT_UNKNOWN, result.RESULT_UNKNOWN),
    ("invalid.txt", 2, None, "ERROR (invalid input)", "ERROR (no verdict)"),
    ("crash.txt", 101, None, "ERROR (panic)", "ERROR (panic)"),
    ("false-race.txt", 1, None, result.RESULT_FALSE_DATARACE, result.RESULT_FALSE_DATARACE),
    ("false-deref.txt", 1, None, result.RESULT_FALSE_DEREF, result.RESULT_FALSE_DEREF),
    ("garbage.txt", None, 9, result.RESULT_ERROR, "ERROR (no verdict)"),
]
# The command line of the recordings.
SV_COMP_CMDLINE = ["ase", "check", "--property", "unreach-call.prp", "--data-model", "ILP32",
                   "--timeout", "60", "x.c"]
PLAIN_CMDLINE = ["ase", "check", "x.c"]

# Programs for the real runs: program, expected result, expected verdict of
# a task definition (None: no expected verdict).
PROGRAMS = [
    ("globals_zero_init_safe.c", result.RESULT_TRUE_PROP, True),
    ("lost_update_race_unsafe.c", result.RESULT_FALSE_REACH, False),
    ("float_unknown.c", result.RESULT_UNKNOWN, None),
]
# Programs for real runs with the no-data-race property: program and the
# results allowed (the racy one FALSE(no-data-race), the race-free one TRUE).
RACE_PROGRAMS = [
    ("lost_update_race_unsafe.c", {result.RESULT_FALSE_DATARACE}),
    ("mutex_counter_safe.c", {result.RESULT_TRUE_PROP}),
]


class Checks:
    def __init__(self):
        self.failed = []
        self.passed = 0

    def equal(self, what, got, expected):
        if got == expected:
            self.passed += 1
            print(f"ok   {what}")
        else:
            self.failed.append(what)
            print(f"FAIL {what}\n       got      {got!r}\n       expected {expected!r}")

    def true(self, what, condition, detail=""):
        self.equal(what + (f" ({detail})" if detail and not condition else ""), condition, True)

    def raises(self, what, exception, fn):
        try:
            got = fn()
        except exception:
            self.equal(what, "raised", "raised")
        else:
            self.equal(what, f"returned {got!r}", f"raises {exception.__name__}")


def load_tool():
    config = argparse.Namespace(container=False)
    return model.load_tool_info(MODULE, config)[1]


def recorded(name):
    with open(os.path.join(TESTDATA, name)) as f:
        return f.read().splitlines()


def run_of(lines, value=None, signal=None, termination_reason=None, cmdline=SV_COMP_CMDLINE):
    exit_code = util.ProcessExitCode.create(value=value, signal=signal)
    return BaseTool.Run(cmdline, exit_code, BaseTool.RunOutput(lines), termination_reason)


def check_module(checks, ase, version):
    tool = load_tool()
    checks.equal("name", tool.name(), "ase")

    ase_dir = os.path.dirname(ase)
    locator = BaseTool.ToolLocator(tool_directory=ase_dir)
    executable = tool.executable(locator)
    checks.equal("executable in the tool directory", executable, os.path.join(ase_dir, "ase"))
    checks.equal("version", tool.version(executable), version)

    with tempfile.TemporaryDirectory() as tmp:
        release = os.path.join(tmp, "target", "release")
        os.makedirs(release)
        os.symlink(ase, os.path.join(release, "ase"))
        checks.equal(
            "executable in target/release of the tool directory",
            tool.executable(BaseTool.ToolLocator(tool_directory=tmp)),
            os.path.join(release, "ase"),
        )
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            checks.equal(
                "executable in target/release of the current directory",
                tool.executable(BaseTool.ToolLocator(use_current=True)),
                os.path.join("target", "release", "ase"),
            )
            os.remove(os.path.join(release, "ase"))
            checks.raises(
                "no executable",
                ToolNotFoundException,
                lambda: tool.executable(BaseTool.ToolLocator(use_current=True)),
            )
        finally:
            os.chdir(cwd)

    def cmdline(options, task, limits=Limits()):
        return tool.cmdline("./ase", options, task, limits)

    c = Task.with_files
    checks.equal("command line: program only", cmdline([], c(["a.c"])), ["./ase", "check", "a.c"])
    checks.equal(
        "command line: SV-COMP task (property, ILP32, CPU-time limit)",
        cmdline(
            [],
            c(["a.c"], property_file="p.prp", options={"language": "C", "data_model": "ILP32"}),
            Limits(cputime=900, cputime_hard=1000),
        ),
        ["./ase", "check", "--property", "p.prp", "--data-model", "ILP32", "--timeout", "900", "a.c"],
    )
    checks.equal(
        "command line: options, LP64, wall-time limit only",
        cmdline(
            ["--engine", "ase"],
            c(["a.i"], property_file="p.prp", options={"language": "C", "data_model": "LP64"}),
            Limits(walltime=30),
        ),
        ["./ase", "check", "--engine", "ase", "--property", "p.prp", "--data-model", "LP64",
         "--timeout", "30", "a.i"],
    )
    checks.equal(
        "command line: options of the benchmark win",
        cmdline(
            ["--timeout", "10", "--property=q.prp", "--data-model", "LP64"],
            c(["a.c"], property_file="p.prp", options={"data_model": "ILP32"}),
            Limits(cputime=60, cputime_hard=60),
        ),
        ["./ase", "check", "--timeout", "10", "--property=q.prp", "--data-model", "LP64", "a.c"],
    )
    checks.equal(
        "command line: no-data-race task (the property file is passed on)",
        cmdline(
            [],
            c(["a.c"], property_file="no-data-race.prp",
              options={"language": "C", "data_model": "ILP32"}),
            Limits(cputime=60, cputime_hard=60),
        ),
        ["./ase", "check", "--property", "no-data-race.prp", "--data-model", "ILP32",
         "--timeout", "60", "a.c"],
    )
    checks.equal(
        "command line: task options without a data model",
        cmdline([], c(["a.c"], property_file="p.prp", options={"language": "C"})),
        ["./ase", "check", "--property", "p.prp", "a.c"],
    )
    checks.raises(
        "command line: unknown data model",
        UnsupportedFeatureException,
        lambda: cmdline([], c(["a.c"], options={"data_model": "ILP64"})),
    )
    checks.raises(
        "command line: two input files",
        UnsupportedFeatureException,
        lambda: cmdline([], c(["a.c", "b.c"])),
    )
    checks.raises(
        "command line: no input file",
        UnsupportedFeatureException,
        lambda: cmdline([], Task.without_files("x")),
    )

    for name, value, signal, expected, _ in RECORDED:
        lines = recorded(name)
        checks.equal(f"result of {name} (exit code {value}, signal {signal})",
                     tool.determine_result(run_of(lines, value, signal)), expected)
    false_lines = recorded("false.txt")
    safe = "safe (proved by the safe-fragment check)"

    def case(what, output, expected, value=None, signal=None, reason=None,
             cmdline=SV_COMP_CMDLINE):
        got = tool.determine_result(run_of(output, value, signal, reason, cmdline))
        checks.equal(f"result: {what}", got, expected)

    case("TRUE line", ["Verification result: TRUE"], result.RESULT_TRUE_PROP, 0)
    case("result line after other output", [safe, "", "Verification result: TRUE"],
         result.RESULT_TRUE_PROP, 0)
    case("unknown with its reason", ["unknown: time limit (60 s)", "Verification result: UNKNOWN"],
         result.RESULT_UNKNOWN, 3)
    case("FALSE(no-data-race) line", ["unsafe: a data race", "Verification result: FALSE(no-data-race)"],
         result.RESULT_FALSE_DATARACE, 1)
    case("FALSE(no-overflow) line", ["Verification result: FALSE(no-overflow)"],
         result.RESULT_FALSE_OVERFLOW, 1)
    case("another property's FALSE", ["Verification result: FALSE(termination)"],
         "ERROR (unexpected verdict)", 1)
    case("result line, then a signal", false_lines, result.RESULT_FALSE_REACH, signal=11)
    case("result line, then a timeout", false_lines, result.RESULT_FALSE_REACH, signal=9,
         reason="cputime")
    case("no output, killed by signal 9", [], result.RESULT_ERROR, signal=9)
    case("no output, timeout", [], result.RESULT_TIMEOUT, signal=9, reason="cputime")
    case("out of memory", ["memory allocation of 1048576 bytes failed"], "OUT OF MEMORY",
         signal=6)
    case("invalid input", ["error: cannot read x.c: No such file or directory (os error 2)"],
         "ERROR (invalid input)", 2)
    case("no output, exit 0", [], "ERROR (no verdict)", 0)
    case("property: plain unsafe without the result line",
         ["unsafe: an error state is reachable in 4 steps"], "ERROR (no verdict)", 1)
    case("task definition: plain safe without the result line", [safe], "ERROR (no verdict)", 0,
         cmdline=["ase", "check", "t.yml"])
    case("no property: plain safe, exit 0", [safe, "iterations: 1"], result.RESULT_TRUE_PROP, 0,
         cmdline=PLAIN_CMDLINE)
    case("no property: plain unsafe, exit 1", ["unsafe: an error state is reachable in 4 steps"],
         result.RESULT_FALSE_PROP, 1, cmdline=PLAIN_CMDLINE)
    case("no property: plain unknown, exit 3", ["unknown: iteration limit (3)"],
         result.RESULT_UNKNOWN, 3, cmdline=PLAIN_CMDLINE)
    case("no property: plain safe with a wrong exit code", [safe], "ERROR (no verdict)", 1,
         cmdline=PLAIN_CMDLINE)
    case("no property: verdict word inside a line", ["the program is safe"],
         "ERROR (no verdict)", 0, cmdline=PLAIN_CMDLINE)

    # The columns of ase.xml.
    false_out = BaseTool.RunOutput(false_lines)
    for column, value in [("iterations", "1"), ("prover queries", "11"), ("predicates", "13"),
                          ("unknown", None), ("nonsense", None)]:
        checks.equal(f"column '{column}' of false.txt",
                     tool.get_value_from_output(false_out, column), value)
    checks.equal(
        "column 'unknown' of unknown.txt",
        tool.get_value_from_output(BaseTool.RunOutput(recorded("unknown.txt")), "unknown"),
        "the C program uses something not modelled "
        "(warning: unsupported: floating-point values are not modelled)",
    )


def task_definition():
    """A task-definition file of ../shared/sv-benchmarks, if there is one."""
    return next(iter(sorted(glob.glob(os.path.join(SHARED_TASKS, "pthread", "*.yml")))), None)


def check_benchexec_utility(checks, ase, python):
    """BenchExec's own test utility, as the BenchExec documentation says."""
    outputs = [os.path.join(TESTDATA, name) for name, *_ in RECORDED]
    cmd = [python, "-m", "benchexec.test_tool_info", MODULE, "--no-container",
           "--tool-directory", os.path.relpath(os.path.dirname(ase), REPO),
           "--tool-output", *[os.path.relpath(o, REPO) for o in outputs]]
    yml = task_definition()
    if yml:
        cmd += ["--task-definition", os.path.relpath(yml, REPO)]
    env = dict(os.environ, PYTHONPATH=HERE)
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    text = proc.stdout + proc.stderr
    checks.equal("benchexec.test_tool_info exit code", proc.returncode, 0)
    # ase checks one program: BenchExec warns that the module does not
    # support tasks with several input files, as it should.
    several = "does not support tasks with multiple input files"
    warnings = [
        line for line in text.splitlines()
        if ("WARNING" in line and several not in line) or "Traceback" in line
    ]
    checks.equal("benchexec.test_tool_info warnings", warnings, [])
    # It reads each output as if the exit code were 0.
    lines = text.splitlines()
    for (name, _, _, _, expected), path in zip(RECORDED, outputs):
        header = f"Result of analyzing tool output in “{os.path.relpath(path, REPO)}”:"
        got = None
        if header in lines:
            got = lines[lines.index(header) + 1].strip().strip("“”")
        checks.equal(f"benchexec.test_tool_info result of {name}", got, expected)
    if yml:
        prop = os.path.relpath(os.path.join(os.path.dirname(yml), "..", "properties",
                                            "unreach-call.prp"), REPO)
        checks.true("benchexec.test_tool_info command line of a task definition",
                    f"'--property', '{prop}'" in text, "no --property in:\n" + text)
    if checks.failed:
        print(text)


def properties_exist(yml):
    """Whether all property files of a task-definition file exist (BenchExec
    refuses to load one that names a missing file, so ase.xml leaves it out)."""
    with open(yml) as f:
        task = yaml.safe_load(f)
    return all(
        os.path.isfile(os.path.join(os.path.dirname(yml), p["property_file"]))
        for p in task.get("properties", [])
    )


def benchexec_config(argv):
    parser = benchexec.benchexec.BenchExec().create_argument_parser()
    return parser.parse_args(argv)


def load_benchmark(checks, name, ase, run_definition):
    """The benchmark definition `name` as BenchExec loads it (run from the
    repository root), after the checks every definition shares: the tool
    module, the limits and its one run definition; None when it does not
    load."""
    rel_xml = os.path.relpath(os.path.join(HERE, name))
    config = benchexec_config(
        [rel_xml, "--no-container", "--tool-directory", os.path.dirname(ase)]
    )
    try:
        bench = model.Benchmark(rel_xml, config, datetime.datetime.now())
    except benchexec.BenchExecException as e:
        checks.equal(f"{name}: BenchExec loads it", str(e), "no error")
        return None
    bench.executable = bench.tool.executable(tooladapter.create_tool_locator(config))
    checks.equal(f"{name}: tool module", bench.tool_module, MODULE)
    checks.equal(
        f"{name}: limits",
        bench.rlimits,
        Limits(cputime=60, cputime_hard=60, memory=4_000_000_000, cpu_cores=1),
    )
    checks.equal(f"{name}: run definitions", [r.real_name for r in bench.run_sets],
                 [run_definition])
    return bench


def check_xml(checks, ase):
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        bench = load_benchmark(checks, "ase.xml", ase, "unreach-call")
        if bench is None:
            return
        blocks = bench.run_sets[0].blocks
        checks.equal("ase.xml: task sets", [b.real_name for b in blocks], FOLDERS)
        if not os.path.isdir(SHARED_TASKS):
            print(f"skip ase.xml tasks: no tasks at {SHARED_TASKS}")
            return
        folders = sorted(
            d for d in os.listdir(SHARED_TASKS)
            if glob.glob(os.path.join(SHARED_TASKS, d, "*.yml"))
        )
        checks.equal("ase.xml: a task set for each folder of tasks", folders, FOLDERS)
        prop = os.path.relpath(PROPERTY)
        for block in blocks:
            ymls = [
                y for y in sorted(glob.glob(os.path.join(SHARED_TASKS, block.real_name, "*.yml")))
                if properties_exist(y)
            ]
            checks.equal(f"ase.xml: tasks of {block.real_name}",
                         sorted(os.path.realpath(r.identifier) for r in block.runs),
                         [os.path.realpath(y) for y in ymls])
            checks.true(f"ase.xml: expected verdicts of {block.real_name}",
                        all(r.expected_results for r in block.runs))
            run = block.runs[0]
            program = os.path.relpath(run.sourcefiles[0])
            checks.equal(
                f"ase.xml: command line of {os.path.basename(run.identifier)}",
                run.cmdline(),
                [bench.executable, "check", "--property", prop, "--timeout", "60", program],
            )
    finally:
        os.chdir(cwd)


def check_races_xml(checks, ase):
    """ase-races.xml loaded by BenchExec: property no-data-race over every
    task of ../races, with the tasks' expected verdicts."""
    if not os.path.isdir(SHARED_TASKS):
        # The tasks' programs are in ../shared: BenchExec would not load them.
        print(f"skip ase-races.xml: no tasks at {SHARED_TASKS}")
        return
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        bench = load_benchmark(checks, "ase-races.xml", ase, "no-data-race")
        if bench is None:
            return
        blocks = bench.run_sets[0].blocks
        checks.equal("ase-races.xml: task sets", [b.real_name for b in blocks], ["races"])
        runs = blocks[0].runs
        ymls = sorted(glob.glob(os.path.join(RACE_TASKS, "*.yml")))
        checks.equal("ase-races.xml: tasks", sorted(os.path.realpath(r.identifier) for r in runs),
                     [os.path.realpath(y) for y in ymls])
        verdicts = {}
        for y in ymls:
            with open(y) as f:
                task = yaml.safe_load(f)
            verdicts[os.path.realpath(y)] = [p["expected_verdict"] for p in task["properties"]]
        checks.equal(
            "ase-races.xml: expected verdicts",
            {os.path.realpath(r.identifier): [e.result for e in r.expected_results.values()]
             for r in runs},
            verdicts,
        )
        checks.true("ase-races.xml: racy and race-free tasks",
                    {v for vs in verdicts.values() for v in vs} == {True, False})
        run = runs[0]
        checks.equal(
            f"ase-races.xml: command line of {os.path.basename(run.identifier)}",
            run.cmdline(),
            [bench.executable, "check", "--property", os.path.relpath(RACE_PROPERTY),
             "--data-model", "ILP32", "--timeout", "60", os.path.relpath(run.sourcefiles[0])],
        )
    finally:
        os.chdir(cwd)


def check_real_runs(checks, ase):
    """ase itself, with the command lines of the module."""
    tool = load_tool()
    runs = [(name, "unreach-call", {expected}) for name, expected, _ in PROGRAMS]
    runs += [(name, "no-data-race", allowed) for name, allowed in RACE_PROGRAMS]
    for name, prp, allowed in runs:
        program = os.path.join(REPO, "tests-c", "programs", name)
        prop = os.path.join(TESTDATA, prp + ".prp")
        args = tool.cmdline(ase, [], Task.with_files([program], property_file=prop,
                                                      options={"data_model": "ILP32"}),
                            Limits(cputime=60, cputime_hard=60))
        proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
        lines = (proc.stdout + proc.stderr).splitlines()
        got = tool.determine_result(run_of(lines, proc.returncode))
        what = f"real run on {name}" + ("" if prp == "unreach-call" else f" ({prp})")
        if len(allowed) == 1:
            checks.equal(what, got, next(iter(allowed)))
        else:
            checks.true(f"{what}: {got} is one of {sorted(allowed)}", got in allowed)
        last = next((line for line in reversed(proc.stdout.splitlines()) if line.strip()), "")
        checks.true(f"{what}: last line is the result line",
                    last.startswith("Verification result: "), repr(proc.stdout[-500:]))
        if got not in allowed:
            print(proc.stdout + proc.stderr)


def probe_runexec(python, container_args, scratch):
    """Why BenchExec cannot run a command here, or None if it can."""
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        proc = subprocess.run(
            [python, "-m", "benchexec.runexecutor", *container_args, "--output",
             os.path.join(tmp, "out.log"), "--memlimit", "100MB", "--cores", "0", "--", "true"],
            capture_output=True, text=True, timeout=60, cwd=tmp,
        )
    text = proc.stdout + proc.stderr
    if proc.returncode != 0 or "returnvalue=0" not in text:
        lines = [line for line in text.splitlines() if "CRITICAL" in line or "ERROR" in line]
        return "runexec cannot run a command here: " + (" / ".join(lines) or text.strip())
    return None


def check_benchexec_run(checks, ase, python, scratch):
    """A real benchexec run over three small tasks, in container mode as the
    README says (the container hides /tmp: the tasks are below `scratch`)."""
    container_args = ["--read-only-dir", "/"]
    why = probe_runexec(python, container_args, scratch)
    if why:
        print(f"skip benchexec run: {why}")
        return
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        tasks = os.path.join(tmp, "tasks")
        os.makedirs(tasks)
        shutil.copy(os.path.join(TESTDATA, "unreach-call.prp"), tasks)
        for name, _, verdict in PROGRAMS:
            shutil.copy(os.path.join(REPO, "tests-c", "programs", name), tasks)
            expected = "" if verdict is None else f"    expected_verdict: {str(verdict).lower()}\n"
            with open(os.path.join(tasks, name[:-2] + ".yml"), "w") as f:
                f.write(
                    "format_version: '2.0'\n"
                    f"input_files: '{name}'\n"
                    "properties:\n"
                    "  - property_file: unreach-call.prp\n"
                    f"{expected}"
                    "options:\n  language: C\n  data_model: ILP32\n"
                )
        bench_xml = os.path.join(tmp, "small.xml")
        with open(bench_xml, "w") as f:
            f.write(
                '<?xml version="1.0"?>\n'
                f'<benchmark tool="{MODULE}" timelimit="60 s" memlimit="1 GB" cpuCores="1">\n'
                '  <rundefinition name="test"/>\n'
                "  <propertyfile>tasks/unreach-call.prp</propertyfile>\n"
                '  <tasks name="small"><include>tasks/*.yml</include></tasks>\n'
                '  <columns><column title="unknown because">unknown</column></columns>\n'
                "</benchmark>\n"
            )
        results = os.path.join(tmp, "results") + os.sep
        env = dict(os.environ, PYTHONPATH=HERE)
        log = os.path.join(tmp, "benchexec.log")
        with open(log, "w") as out:
            proc = subprocess.Popen(
                [python, "-m", "benchexec.benchexec", bench_xml, *container_args,
                 "--tool-directory", os.path.dirname(ase), "--outputpath", results,
                 "--no-compress-results"],
                cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )
            try:
                proc.wait(timeout=300)
            finally:
                # In container mode, BenchExec 3.35 now and then leaves the
                # process that held the tool-info module behind, blocked for
                # good after benchexec has ended: end what is left of the
                # process group of this benchexec.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        with open(log) as f:
            proc.stdout = f.read()
        proc.stderr = ""
        checks.equal("benchexec run exit code", proc.returncode, 0)
        files = glob.glob(os.path.join(results, "small.*.results.test*.xml"))
        checks.equal("benchexec run result files", len(files), 1)
        if proc.returncode != 0 or len(files) != 1:
            print(proc.stdout + proc.stderr)
            return
        runs = {}
        for run in ElementTree.parse(files[0]).getroot().iter("run"):
            values = {c.get("title"): c.get("value") for c in run.iter("column")}
            runs[os.path.basename(run.get("name"))] = values
        for name, expected, verdict in PROGRAMS:
            values = runs.get(name[:-2] + ".yml", {})
            checks.equal(f"benchexec run: status of {name}", values.get("status"), expected)
            category = "unknown" if verdict is None else "correct"
            checks.equal(f"benchexec run: category of {name}", values.get("category"), category)
        checks.true("benchexec run: reason of the unknown task",
                    bool(runs.get("float_unknown.yml", {}).get("unknown because")))
        if checks.failed:
            print(proc.stdout + proc.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ase", required=True, help="the ase executable")
    parser.add_argument("--version", required=True, help="the version ase should report")
    parser.add_argument("--no-benchexec-run", action="store_true",
                        help="skip the real benchexec run")
    parser.add_argument("--scratch", default=os.path.join(REPO, "target"),
                        help="folder for the files of the benchexec run (not below /tmp, "
                        "which BenchExec's container hides)")
    options = parser.parse_args()
    ase = os.path.abspath(options.ase)
    checks = Checks()
    check_module(checks, ase, options.version)
    check_benchexec_utility(checks, ase, sys.executable)
    check_xml(checks, ase)
    check_races_xml(checks, ase)
    check_real_runs(checks, ase)
    if not options.no_benchexec_run:
        os.makedirs(options.scratch, exist_ok=True)
        check_benchexec_run(checks, ase, sys.executable, os.path.abspath(options.scratch))
    print(f"{checks.passed} passed, {len(checks.failed)} failed")
    for what in checks.failed:
        print(f"  failed: {what}")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())

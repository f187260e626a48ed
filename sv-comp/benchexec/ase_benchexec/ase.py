"""BenchExec tool-info module of `ase`, a verifier for concurrent C programs.

Use it as `<benchmark tool="ase_benchexec.ase">` with the folder
`sv-comp/benchexec` of the ase repository on PYTHONPATH (see the README's
section "Running ase under BenchExec").
"""

import re

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.template import ToolNotFoundException, UnsupportedFeatureException

# The last line of `ase check --property FILE` (SV-COMP mode).
RESULT_PREFIX = "Verification result:"
VERDICTS = {
    "TRUE": result.RESULT_TRUE_PROP,
    "FALSE(unreach-call)": result.RESULT_FALSE_REACH,
    "FALSE(no-data-race)": result.RESULT_FALSE_DATARACE,
    "FALSE(valid-deref)": result.RESULT_FALSE_DEREF,
    "FALSE(valid-free)": result.RESULT_FALSE_FREE,
    "FALSE(valid-memtrack)": result.RESULT_FALSE_MEMTRACK,
    "FALSE(valid-memcleanup)": result.RESULT_FALSE_MEMCLEANUP,
    "FALSE(no-overflow)": result.RESULT_FALSE_OVERFLOW,
    "UNKNOWN": result.RESULT_UNKNOWN,
}

# Exit codes of `ase check`.
EXIT_SAFE = 0
EXIT_UNSAFE = 1
EXIT_INVALID = 2
EXIT_UNKNOWN = 3

# The first line of `ase check` without a property (safe/unsafe/unknown),
# with the exit code that goes with it.
PLAIN_VERDICTS = {
    "safe": (EXIT_SAFE, result.RESULT_TRUE_PROP),
    "unsafe": (EXIT_UNSAFE, result.RESULT_FALSE_PROP),
    "unknown": (EXIT_UNKNOWN, result.RESULT_UNKNOWN),
}
PLAIN_VERDICT = re.compile(r"^(safe|unsafe|unknown)\b")

DATA_MODELS = ("ILP32", "LP64")

# Rust's message when an allocation fails (e.g. beyond a memory limit).
OUT_OF_MEMORY = re.compile(r"memory allocation of \d+ bytes failed")


class Tool(benchexec.tools.template.BaseTool2):
    """
    ase: Abstract Analysis of Symbolic Executions, a verifier for concurrent
    C programs with POSIX threads (SV-COMP properties unreach-call,
    no-data-race, valid-memsafety, valid-memcleanup and no-overflow).

    The executable `ase` is looked up in the tool directory, in PATH and in
    the current directory, then in `target/release` below them (the cargo
    build of the repository).
    The command line is `ase check [OPTIONS] [--property PRP]
    [--data-model ILP32|LP64] [--timeout SECONDS] PROGRAM`: the data model
    comes from the task's options (`data_model`), the timeout from the
    CPU-time limit (else the wall-time limit), so that `ase` stops by itself
    and answers unknown. An option given in the benchmark definition wins
    over the one derived here.
    The property file of the run is passed on as `--property`.
    The result is read from the last line `Verification result: TRUE`,
    `Verification result: FALSE(unreach-call)`, `Verification result:
    FALSE(no-data-race)`, `FALSE(valid-deref)` (and the other
    sub-properties) or `Verification result: UNKNOWN`; without a
    property file, from the verdict `safe`, `unsafe` or `unknown` and its
    exit code (only when no property was asked for).
    """

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable("ase")
        except ToolNotFoundException:
            return tool_locator.find_executable("ase", subdir="target/release")

    def version(self, executable):
        # `ase --version` prints `ase X.Y.Z`.
        return self._version_from_tool(executable, line_prefix="ase ")

    def name(self):
        return "ase"

    def project_url(self):
        # `ase` has no public web page yet.
        return None

    def cmdline(self, executable, options, task, rlimits):
        program = task.single_input_file
        args = [executable, "check", *options]
        if task.property_file and not _given(options, "--property"):
            args += ["--property", task.property_file]
        data_model = _data_model(task)
        if data_model and not _given(options, "--data-model"):
            args += ["--data-model", data_model]
        seconds = rlimits.cputime or rlimits.walltime
        if seconds and not _given(options, "--timeout"):
            args += ["--timeout", str(seconds)]
        return args + [program]

    def determine_result(self, run):
        verdict = None
        for line in run.output:
            line = line.strip()
            if line.startswith(RESULT_PREFIX):
                verdict = line[len(RESULT_PREFIX) :].strip()
        if verdict is not None:
            return VERDICTS.get(verdict, result.RESULT_ERROR + " (unexpected verdict)")

        exit_code = run.exit_code.value
        if not _sv_comp_mode(run.cmdline):
            plain = next((line for line in run.output if line.strip()), "")
            match = PLAIN_VERDICT.match(plain)
            if match and exit_code == PLAIN_VERDICTS[match.group(1)][0]:
                return PLAIN_VERDICTS[match.group(1)][1]

        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if any(OUT_OF_MEMORY.search(line) for line in run.output):
            return "OUT OF MEMORY"
        if run.output.any_line_contains("panicked at"):
            return result.RESULT_ERROR + " (panic)"
        if run.exit_code.signal:
            # BenchExec names the signal (SEGMENTATION FAULT, KILLED, ...).
            return result.RESULT_ERROR
        if exit_code == EXIT_INVALID:
            return result.RESULT_ERROR + " (invalid input)"
        return result.RESULT_ERROR + " (no verdict)"

    def get_value_from_output(self, output, identifier):
        """A statistic of the line `iterations: N, prover queries: N, ...`
        (the identifier is its name, e.g. `prover queries`), or with the
        identifier `unknown` the reason of an unknown verdict."""
        if identifier == "unknown":
            for line in output:
                if line.startswith("unknown: "):
                    return line[len("unknown: ") :].strip()
            return None
        for line in output:
            for item in line.split(","):
                name, sep, value = item.partition(":")
                if sep and name.strip() == identifier:
                    return value.strip()
        return None


def _sv_comp_mode(cmdline):
    """Whether ase was asked for a property (then only the result line counts)."""
    return _given(cmdline, "--property") or any(
        arg.endswith((".yml", ".yaml")) for arg in cmdline
    )


def _given(options, flag):
    """Whether the benchmark definition's options already set this flag."""
    return any(o == flag or o.startswith(flag + "=") for o in options)


def _data_model(task):
    """The data model named in the task's options, if any."""
    options = task.options if isinstance(task.options, dict) else {}
    data_model = options.get("data_model")
    if data_model is None:
        return None
    if data_model not in DATA_MODELS:
        raise UnsupportedFeatureException(
            f"Unsupported data_model '{data_model}' of task {task}"
        )
    return data_model

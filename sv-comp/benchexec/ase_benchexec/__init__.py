"""BenchExec tool-info modules of the verifier `ase`.

BenchExec loads a tool-info module that is not part of BenchExec by its full
name inside a package, so the module is `ase_benchexec.ase`: put the folder
that holds this package (`sv-comp/benchexec`) on PYTHONPATH.
"""

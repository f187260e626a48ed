//! SV-COMP task definitions, witnesses and the benchmark runner (not implemented yet; see ARCHITECTURE.md).

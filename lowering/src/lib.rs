//! Lowering of the C AST to the guarded-command IR (not implemented yet; see ARCHITECTURE.md).

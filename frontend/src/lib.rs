//! C front end: preprocessing and parsing pthread-style C (not implemented yet; see ARCHITECTURE.md).

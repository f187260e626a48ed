//! Data models (the sizes of C's integer and pointer types) and how one was chosen.

use std::fmt;

/// Which data model the caller wants.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataModelChoice {
    /// SV-COMP's ILP32 when the preprocessor can target it (`-m32` works, 32-bit
    /// headers included), otherwise the preprocessor's native model. For text that is
    /// already preprocessed (`.i`), the model is inferred from the `size_t` typedef and
    /// defaults to ILP32.
    #[default]
    Auto,
    /// ILP32: the preprocessor is run with `-m32` (and fails if it cannot target it).
    Ilp32,
    /// LP64: the preprocessor is run in its native mode (64-bit on x86-64 Linux).
    Lp64,
}

/// The data model a translation unit was preprocessed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataModel {
    /// `int`, `long` and pointers are 32 bits (SV-COMP's `-m32` tasks).
    Ilp32,
    /// `int` is 32 bits, `long` and pointers are 64 bits (x86-64 Linux).
    Lp64,
}

/// Sizes in bytes of C's integer and pointer types under a [`DataModel`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeSizes {
    /// `char` (always 1).
    pub char: u32,
    /// `short`.
    pub short: u32,
    /// `int`.
    pub int: u32,
    /// `long`.
    pub long: u32,
    /// `long long`.
    pub long_long: u32,
    /// Data pointers (and `size_t`, `ptrdiff_t`, `intptr_t`).
    pub pointer: u32,
}

impl DataModel {
    /// The sizes of the integer and pointer types, in bytes.
    pub fn sizes(self) -> TypeSizes {
        let wide = match self {
            DataModel::Ilp32 => 4,
            DataModel::Lp64 => 8,
        };
        TypeSizes {
            char: 1,
            short: 2,
            int: 4,
            long: wide,
            long_long: 8,
            pointer: wide,
        }
    }

    /// The conventional name: `"ILP32"` or `"LP64"`.
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }

    /// The model with these `sizeof(long)` and `sizeof(void *)`, if it is one of ours.
    pub(crate) fn from_sizes(long: u32, pointer: u32) -> Option<DataModel> {
        match (long, pointer) {
            (4, 4) => Some(DataModel::Ilp32),
            (8, 8) => Some(DataModel::Lp64),
            _ => None,
        }
    }
}

impl fmt::Display for DataModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a translation unit got its [`DataModel`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataModelReason {
    /// The caller asked for it ([`DataModelChoice::Ilp32`] or [`DataModelChoice::Lp64`]).
    Requested,
    /// [`DataModelChoice::Auto`]: the preprocessor targets ILP32 with `-m32` on this machine.
    M32Available,
    /// [`DataModelChoice::Auto`]: `-m32` is unusable here (typically the 32-bit C library
    /// headers are not installed), so the preprocessor's native model was used.
    M32Unavailable {
        /// What went wrong with `-m32` (the preprocessor's first error line).
        reason: String,
    },
    /// [`DataModelChoice::Auto`] on preprocessed text: read off the `size_t` typedef.
    InferredFromSizeT,
    /// [`DataModelChoice::Auto`] on preprocessed text without a `size_t` typedef:
    /// SV-COMP's default, ILP32, is assumed.
    Assumed,
}

impl fmt::Display for DataModelReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataModelReason::Requested => f.write_str("requested"),
            DataModelReason::M32Available => f.write_str("the preprocessor supports -m32"),
            DataModelReason::M32Unavailable { reason } => {
                write!(
                    f,
                    "-m32 is unusable here ({reason}); native data model used"
                )
            }
            DataModelReason::InferredFromSizeT => f.write_str("inferred from the size_t typedef"),
            DataModelReason::Assumed => {
                f.write_str("preprocessed input without a size_t typedef; SV-COMP's ILP32 assumed")
            }
        }
    }
}

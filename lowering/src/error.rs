//! Errors of the lowering: constructs it does not model, and programs that
//! are not valid C for it.

use frontend::lang_c::span::Span;

/// Why a program could not be lowered. Spans are byte ranges of the parsed
/// text ([`ParsedUnit::text`](frontend::ParsedUnit::text)).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LowerError {
    /// A C construct the lowering does not model exactly: the verdict must
    /// be `unknown`.
    #[error("unsupported: {message}")]
    Unsupported {
        /// The construct.
        span: Span,
        /// What is not supported.
        message: String,
    },
    /// The program is not valid C (an unknown identifier, no `main`, …).
    #[error("invalid program: {message}")]
    Invalid {
        /// Where.
        span: Span,
        /// What is wrong.
        message: String,
    },
}

impl LowerError {
    /// An unsupported construct.
    pub fn unsupported(span: Span, message: impl Into<String>) -> Self {
        LowerError::Unsupported {
            span,
            message: message.into(),
        }
    }
    /// An invalid program.
    pub fn invalid(span: Span, message: impl Into<String>) -> Self {
        LowerError::Invalid {
            span,
            message: message.into(),
        }
    }
    /// The span the error points at.
    pub fn span(&self) -> Span {
        match self {
            LowerError::Unsupported { span, .. } | LowerError::Invalid { span, .. } => *span,
        }
    }
    /// The message without its kind.
    pub fn message(&self) -> &str {
        match self {
            LowerError::Unsupported { message, .. } | LowerError::Invalid { message, .. } => {
                message
            }
        }
    }
}

/// Results of the lowering.
pub type Result<T> = std::result::Result<T, LowerError>;

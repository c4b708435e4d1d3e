//! Why a check could not produce a report: unreadable input or options that make no sense.

use std::fmt;

use crate::options::OptionsError;
use crate::parse::ParseError;

/// Why a check could not produce a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An input could not be read (file, line, column).
    Input(ParseError),
    /// The options make no sense (names the field).
    Options(OptionsError),
}

impl Error {
    /// `"input"` or `"options"` (the JS error's `code`).
    pub fn code(&self) -> &'static str {
        match self {
            Error::Input(_) => "input",
            Error::Options(_) => "options",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(e) => e.fmt(f),
            Error::Options(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Input(e)
    }
}

impl From<OptionsError> for Error {
    fn from(e: OptionsError) -> Self {
        Error::Options(e)
    }
}

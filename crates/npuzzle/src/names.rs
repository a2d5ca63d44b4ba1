//! The one vocabulary of option names (algorithms, heuristics, building policies, effort, limit
//! kinds), so that the CLI, the web API and Python accept and print the same spellings.
//!
//! Each named type lists its spellings once ([`Named::SPELLINGS`], the first of each value
//! being the one printed) and gets `FromStr` through [`parse`]; a name is matched without
//! regard to case, and `_` is read as `-` (Python's `linear_conflict` is the CLI's
//! `linear-conflict`).

use thiserror::Error;

/// A name that is not one of a type's spellings.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown {what} `{given}` (expected one of: {expected})")]
pub struct NameError {
    /// What was being named (`algorithm`, `heuristic` …).
    pub what: &'static str,
    /// The name given (shortened to 64 characters).
    pub given: String,
    /// The accepted names, comma-separated.
    pub expected: String,
}

/// A type whose values have names.
pub trait Named: Copy + 'static {
    /// What the names name, for messages (`algorithm`).
    const WHAT: &'static str;
    /// Every accepted spelling and its value; the first spelling of a value is its name.
    const SPELLINGS: &'static [(&'static str, Self)];
}

/// The value `given` names.
pub fn parse<T: Named>(given: &str) -> Result<T, NameError> {
    let wanted = given.trim().to_ascii_lowercase().replace('_', "-");
    T::SPELLINGS
        .iter()
        .find(|(name, _)| *name == wanted)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let mut expected: Vec<&str> = Vec::new();
            for (name, _) in T::SPELLINGS {
                if !expected.contains(name) {
                    expected.push(name);
                }
            }
            NameError {
                what: T::WHAT,
                given: given.chars().take(64).collect(),
                expected: expected.join(", "),
            }
        })
}

/// The printed name of `value`: its first spelling.
pub fn name_of<T: Named + PartialEq>(value: T) -> &'static str {
    T::SPELLINGS
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("?", |(name, _)| name)
}

/// Implements `FromStr` (through [`parse`]) for named types.
macro_rules! from_str_by_name {
    ($($t:ty),*) => {$(
        impl std::str::FromStr for $t {
            type Err = $crate::names::NameError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $crate::names::parse(s)
            }
        }
    )*};
}
pub(crate) use from_str_by_name;

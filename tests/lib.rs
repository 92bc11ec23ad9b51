//! End-to-end tests live in this package's `[[test]]` targets.

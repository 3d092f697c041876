//! `bob`: play, list and check Band of Brothers scenarios.

use std::process::ExitCode;

fn main() -> ExitCode {
    bob::cli::run(std::env::args_os())
}

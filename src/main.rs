//! The othel binary: subcommands through clap; with no arguments, the engine's own loop.

use clap::Parser;
use othel::cli::{Cli, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let startup = cli.startup();
    let Some(command) = cli.command else {
        return ExitCode::from(othel::protocol::run_with(startup) as u8);
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othel: {e}");
            ExitCode::FAILURE
        }
    }
}

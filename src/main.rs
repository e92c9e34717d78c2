//! The othel binary: subcommands through clap; with no arguments, the engine's own loop.

use clap::Parser;
use othel::cli::{Cli, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse_from(othel::cli::group_engine_words(
        std::env::args_os().collect(),
    ));
    if let Err(e) = cli.install_weights() {
        eprintln!("othel: {e}");
        return ExitCode::FAILURE;
    }
    let startup = cli.startup();
    let Some(command) = cli.command else {
        return ExitCode::from(othel::protocol::run_with(startup) as u8);
    };
    // `match` writes to engines that may die: it must see a failed write, not be killed by it.
    if !matches!(command, othel::cli::Command::Match(_)) {
        restore_broken_pipe_exit();
    }
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othel: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One-shot commands end quietly when their reader goes away (`othel book export | head`), as
/// Unix tools do, instead of panicking on the failed write. (The protocol ignores a closed
/// stdout on its own and keeps Rust's default.)
fn restore_broken_pipe_exit() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default is async-signal-safe and done before
    // any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

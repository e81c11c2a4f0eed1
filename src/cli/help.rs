//! How the help and usage lines show an option that may be given more than
//! once (`--run` of every scoring command): `--run <RUN>...`, as they show
//! a repeated positional argument (`<PATHS>...`). clap writes `...` only
//! after an option that takes several values at once, so the help is drawn
//! from a copy of the command line in which every repeating option takes
//! one value or more ([`shown`]); the arguments are always parsed by the
//! command line as defined ([`Cli::command`] with the usage lines of the
//! copy, [`parsed`]), so `--run a b` stays an error.

use super::Cli;
use clap::{ArgAction, ArgMatches, Command, CommandFactory, error::ErrorKind};

/// The command line whose help is printed: every repeating option marked
/// with `...`.
pub fn shown() -> Command {
    fn mark(command: Command) -> Command {
        command
            .mut_args(|arg| {
                let repeats = !arg.is_positional() && matches!(arg.get_action(), ArgAction::Append);
                if repeats { arg.num_args(1..) } else { arg }
            })
            .mut_subcommands(mark)
    }
    mark(Cli::command())
}

/// The command line that parses the arguments: [`Cli::command`], each
/// command's usage line (which an error message ends with) taken from
/// [`shown`].
pub fn parser() -> Command {
    let mut shown = shown();
    shown.build();
    let usages: Vec<(String, String)> = shown
        .get_subcommands_mut()
        .map(|sub| {
            let usage = sub.render_usage().to_string();
            let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_string();
            (sub.get_name().to_string(), usage)
        })
        .collect();
    Cli::command().mut_subcommands(|sub| {
        match usages.iter().find(|(name, _)| name == sub.get_name()) {
            Some((_, usage)) if usage.contains("...") => sub.override_usage(usage.clone()),
            _ => sub,
        }
    })
}

/// The arguments of this process parsed by [`parser`]; on `-h`, `--help`
/// or `help`, the help of [`shown`] is printed and the process ends, as on
/// any other parsing error.
pub fn parsed() -> ArgMatches {
    parser().try_get_matches().unwrap_or_else(|error| {
        let help = matches!(
            error.kind(),
            ErrorKind::DisplayHelp | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        );
        let shown_help = help
            .then(|| shown().try_get_matches().err())
            .flatten()
            .filter(|e| e.kind() == error.kind());
        shown_help.unwrap_or(error).exit()
    })
}

//! The command line, as LLVM's `cl` parses FileCheck's: one dash or two,
//! `=VALUE` or a separate value, `-DNAME=V` glued; every bad argument is
//! reported (prefixed with the program name) before exiting with status 1.

use crate::dump::Filter;
use crate::{CommandLineError, DumpInput, Invocation, Options};

/// `--help` (standard output; `FileCheck` is replaced by the program name).
pub const HELP: &str = "USAGE: FileCheck [options] <check-file>

OPTIONS:

Color Options:

  --color                        - Use colors in output (default=autodetect)

General options:

  -D=<VAR=VALUE>                 - Define a variable to be used in capture patterns.
  --allow-deprecated-dag-overlap - Enable overlapping among matches in a group of consecutive
                                   CHECK-DAG directives.  This option is deprecated and is only
                                   provided for convenience as old tests are migrated to the new
                                   non-overlapping CHECK-DAG implementation.
  --allow-empty                  - Allow the input file to be empty. This is useful when making
                                   checks that some error message does not occur, for example.
  --allow-unused-prefixes        - Allow prefixes to be specified but not appear in the test.
  --check-prefix=<string>        - Prefix to use from check file (defaults to 'CHECK')
  --check-prefixes               - Alias for -check-prefix permitting multiple comma separated values
  --dump-input=<value>           - Dump input to stderr, adding annotations representing
                                   currently enabled diagnostics.  When there are multiple
                                   occurrences of this option, the <value> that appears earliest
                                   in the list below has precedence.  The default is 'fail'.
    =help                        -   Explain input dump and quit
    =always                      -   Always dump input
    =fail                        -   Dump input on failure
    =never                       -   Never dump input
  --dump-input-context=<N>       - In the dump requested by -dump-input, print <N> input lines
                                   before and <N> input lines after any lines specified by
                                   -dump-input-filter.  When there are multiple occurrences of
                                   this option, the largest specified <N> has precedence.  The
                                   default is 5.
  --dump-input-filter=<value>    - In the dump requested by -dump-input, print only input lines of
                                   kind <value> plus any context specified by -dump-input-context.
                                   When there are multiple occurrences of this option, the <value>
                                   that appears earliest in the list below has precedence.  The
                                   default is 'error' when -dump-input=fail, and it's 'all' when
                                   -dump-input=always.
    =all                         -   All input lines
    =annotation-full             -   Input lines with annotations
    =annotation                  -   Input lines with starting points of annotations
    =error                       -   Input lines with starting points of error annotations
  --enable-var-scope             - Enables scope for regex variables. Variables with names that
                                   do not start with '$' will be reset at the beginning of
                                   each CHECK-LABEL block.
  --ignore-case                  - Use case-insensitive matching
  --implicit-check-not=<pattern> - Add an implicit negative check with this pattern to every
                                   positive check. This can be used to ensure that no instances of
                                   this pattern occur which are not matched by a positive pattern
  --input-file=<filename>        - File to check (defaults to stdin)
  --match-full-lines             - Require all positive matches to cover an entire input line.
                                   Allows leading and trailing whitespace if --strict-whitespace
                                   is not also passed.
  --strict-whitespace            - Do not treat all horizontal whitespace as equivalent
  -v                             - Print directive pattern matches, or add them to the input dump
                                   if enabled.
  --vv                           - Print information helpful in diagnosing internal FileCheck
                                   issues, or add it to the input dump if enabled.  Implies
                                   -v.

Generic Options:

  --help                         - Display available options (--help-hidden for more)
  --help-list                    - Display list of available options (--help-list-hidden for more)
  --version                      - Display the version of this program

Options are parsed from the environment variable FILECHECK_OPTS and
from the command line.
";

/// Every option name LLVM 14's FileCheck registers (its own and LLVM's
/// generic ones), for "Did you mean" suggestions.
const OPTION_NAMES: &[&str] = &[
    "color",
    "D",
    "allow-deprecated-dag-overlap",
    "allow-empty",
    "allow-unused-prefixes",
    "check-prefix",
    "check-prefixes",
    "comment-prefixes",
    "crash-diagnostics-dir",
    "debug-counter",
    "disable-symbolication",
    "dump-input",
    "dump-input-context",
    "dump-input-filter",
    "enable-var-scope",
    "ignore-case",
    "implicit-check-not",
    "info-output-file",
    "input-file",
    "match-full-lines",
    "print-debug-counter",
    "rng-seed",
    "sort-timers",
    "stats",
    "stats-json",
    "strict-whitespace",
    "track-memory",
    "treat-scalable-fixed-error-as-warning",
    "v",
    "vv",
    "h",
    "help",
    "help-hidden",
    "help-list",
    "help-list-hidden",
    "print-all-options",
    "print-options",
    "version",
];

/// The registered option nearest to `name` (LLVM's `LookupNearestOption`).
fn nearest_option(name: &str, value: Option<&str>) -> String {
    let mut best: Option<(usize, &str)> = None;
    for o in OPTION_NAMES {
        let d = crate::pattern::edit_distance(o.as_bytes(), name.as_bytes());
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, o));
        }
    }
    let o = best.map_or("", |b| b.1);
    let dashes = if o.len() == 1 { "-" } else { "--" };
    match value {
        Some(v) if !v.is_empty() => format!("{dashes}{o}={v}"),
        _ => format!("{dashes}{o}"),
    }
}

/// Mutable state of one command-line parse.
struct ParseState {
    o: Options,
    dumps: Vec<DumpInput>,
    filters: Vec<Filter>,
    contexts: Vec<usize>,
    input_file: String,
    help: bool,
    version: bool,
}

/// Applies one option (`name`, with `inline` after `=`), taking a separate
/// value from `args[*i]` when it needs one.
fn apply_option(
    st: &mut ParseState,
    name: &str,
    inline: Option<&str>,
    args: &[String],
    i: &mut usize,
) -> Result<(), String> {
    let dashes = if name.len() == 1 { "-" } else { "--" };
    let value = |i: &mut usize| -> Result<String, String> {
        if let Some(v) = inline {
            return Ok(v.to_string());
        }
        match args.get(*i) {
            Some(v) => {
                *i += 1;
                Ok(v.clone())
            }
            None => Err(format!("for the {dashes}{name} option: requires a value!")),
        }
    };
    let flag = || -> Result<bool, String> {
        match inline {
            None | Some("true" | "TRUE" | "True" | "1") => Ok(true),
            Some("false" | "FALSE" | "False" | "0") => Ok(false),
            Some(v) => Err(format!(
                "for the {dashes}{name} option: '{v}' is invalid value for boolean argument! Try 0 or 1"
            )),
        }
    };
    let o = &mut st.o;
    match name {
        "check-prefix" => o.check_prefixes.push(value(i)?),
        "check-prefixes" => o
            .check_prefixes
            .extend(value(i)?.split(',').map(String::from)),
        "comment-prefixes" => o
            .comment_prefixes
            .extend(value(i)?.split(',').map(String::from)),
        "implicit-check-not" => o.implicit_check_not.push(value(i)?),
        "input-file" => st.input_file = value(i)?,
        "dump-input" => {
            let v = value(i)?;
            st.dumps.push(match v.as_str() {
                "help" => DumpInput::Help,
                "always" => DumpInput::Always,
                "fail" => DumpInput::Fail,
                "never" => DumpInput::Never,
                _ => {
                    return Err(format!(
                        "for the --dump-input option: Cannot find option named '{v}'!"
                    ))
                }
            });
        }
        "dump-input-filter" => {
            let v = value(i)?;
            st.filters.push(match v.as_str() {
                "all" => Filter::All,
                "annotation-full" => Filter::AnnotationFull,
                "annotation" => Filter::Annotation,
                "error" => Filter::Error,
                _ => {
                    return Err(format!(
                        "for the --dump-input-filter option: Cannot find option named '{v}'!"
                    ))
                }
            });
        }
        "dump-input-context" => {
            let v = value(i)?;
            match v.parse::<u32>() {
                Ok(n) => st.contexts.push(n as usize),
                Err(_) => {
                    return Err(format!(
                    "for the --dump-input-context option: '{v}' value invalid for uint argument!"
                ))
                }
            }
        }
        "color" => o.color = flag()?,
        "allow-deprecated-dag-overlap" => o.allow_deprecated_dag_overlap = flag()?,
        "allow-unused-prefixes" => o.allow_unused_prefixes = flag()?,
        "match-full-lines" => o.match_full_lines = flag()?,
        "strict-whitespace" => o.strict_whitespace = flag()?,
        "ignore-case" => o.ignore_case = flag()?,
        "allow-empty" => o.allow_empty = flag()?,
        "enable-var-scope" => o.enable_var_scope = flag()?,
        "v" => {
            if flag()? {
                o.verbose = o.verbose.max(1);
            }
        }
        "vv" => {
            if flag()? {
                o.verbose = 2;
            }
        }
        "help" | "h" | "help-hidden" | "help-list" | "help-list-hidden" => st.help = true,
        "version" => st.version = true,
        _ => return Err(String::new()),
    }
    Ok(())
}

pub(crate) fn parse_args_as(
    prog: &str,
    argv0: &str,
    args: &[String],
) -> Result<Invocation, CommandLineError> {
    let mut st = ParseState {
        o: Options::default(),
        dumps: Vec::new(),
        filters: Vec::new(),
        contexts: Vec::new(),
        input_file: "-".to_string(),
        help: false,
        version: false,
    };
    let mut positionals: Vec<String> = Vec::new();
    // LLVM reports every bad argument, then exits with status 1.
    let mut errors: Vec<String> = Vec::new();
    let mut positional_only = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].clone();
        i += 1;
        if positional_only || !a.starts_with('-') || a == "-" {
            positionals.push(a);
            continue;
        }
        if a == "--" {
            positional_only = true;
            continue;
        }
        let flag = a.strip_prefix("--").unwrap_or(&a[1..]);
        if let Some(def) = flag.strip_prefix('D') {
            if def.is_empty() {
                errors.push("for the -D option: requires a value!".into());
            } else {
                st.o.defines.push(def.to_string());
            }
            continue;
        }
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (flag, None),
        };
        match apply_option(&mut st, name, inline, args, &mut i) {
            Ok(()) => {}
            Err(e) if e.is_empty() => {
                errors.push(format!(
                    "Unknown command line argument '{a}'.  Try: '{argv0} --help'"
                ));
                errors.push(format!("Did you mean '{}'?", nearest_option(name, inline)));
            }
            Err(e) => errors.push(e),
        }
    }
    if positionals.len() > 1 {
        errors.push(format!(
            "Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: {argv0} --help"
        ));
    }
    if !errors.is_empty() {
        let message: Vec<String> = errors.iter().map(|e| format!("{prog}: {e}")).collect();
        return Err(CommandLineError {
            message: message.join("\n"),
            code: 1,
        });
    }
    let mut o = st.o;
    if let Some(&d) = st.dumps.iter().max() {
        o.dump_input = d;
    }
    o.dump_input_filter = st.filters.iter().max().copied();
    if let Some(&c) = st.contexts.iter().max() {
        o.dump_input_context = c;
    }
    Ok(Invocation {
        options: o,
        check_file: positionals.into_iter().next().unwrap_or_default(),
        input_file: st.input_file,
        help: st.help,
        version: st.version,
    })
}

// `auditor` with the team's validators built in: every subcommand, option and exit status of
// the stock binary, plus the Swift validators that rules files name in `validators:`.
//   swift build -c release --package-path examples/validators --product team-auditor
import AuditorCLI
import TeamValidators

AuditorTool.main(validators: TeamValidators.hooks)

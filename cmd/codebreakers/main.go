// Command codebreakers runs the Codebreakers arcade: deduction card games
// played over SSH.
//
//	codebreakers [serve] [flags]    run the server (the default)
//	codebreakers serve --help       every flag and its environment variable
//	codebreakers backup PATH        consistent copy of the database, server running or not
//	codebreakers export             finished games as JSON lines
//	codebreakers import FILE        load an export into a stopped server's data directory
//	codebreakers drain              turn health checks away from this node (to take it out of a cluster)
//	codebreakers loadtest [flags]   drive this binary (and a minimal floor server) with SSH sessions on loopback
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// errUsage marks a command-line mistake already explained to the user.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "codebreakers: %v\n", err)
		os.Exit(1)
	}
}

// run picks the subcommand. Operator commands (load test, backup) join
// "serve" here as they are written.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, os.Getenv, stdout, stderr)
	case "loadtest":
		return loadtestCmd(ctx, args, stdout, stderr)
	case "backup":
		return backupCmd(ctx, args, os.Getenv, stdout, stderr)
	case "drain":
		return drainCmd(ctx, args, os.Getenv, stdout, stderr)
	case "export":
		return exportCmd(ctx, args, os.Getenv, stdout, stderr)
	case "import":
		return importCmd(args, os.Getenv, os.Stdin, stdout, stderr)
	case "help":
		fmt.Fprintln(stdout, "Usage: codebreakers [serve] [flags]\n"+
			"       codebreakers backup PATH | export [--out PATH] | import FILE | drain\n"+
			"       codebreakers loadtest [flags]\n\n"+
			"Run `codebreakers COMMAND --help` for the flags.")
		return nil
	default:
		fmt.Fprintf(stderr, "codebreakers: unknown command %q (try `codebreakers serve --help`)\n", cmd)
		return errUsage
	}
}

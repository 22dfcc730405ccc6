package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// exitSSH is the exit code of ssh itself failing (the connection, not the
// remote command).
const exitSSH = 255

// exitOverflow is the result of a remote command that printed more than
// the deployer takes (see cappedBuffer); not an exit code a process has.
const exitOverflow = -2

// connectTimeout bounds ssh's connection, and so a host that does not
// answer.
const connectTimeout = 10 * time.Second

// conn is a master connection to one host through the system's ssh: the
// commands of a deploy share it; confirmNew opens a new one.
type conn struct {
	ssh    string   // the ssh program
	args   []string // the options and destination, without the control options
	socket string   // the master's control socket
	master *exec.Cmd
	sudo   bool // the target user is not root
}

// errUnreachable is a connection that could not be made.
type errUnreachable struct{ msg string }

func (e *errUnreachable) Error() string { return e.msg }

// destination returns ssh's arguments for o: the options, the port, the
// user and the host.
func destination(name string, o Options) []string {
	args := []string{"-o", "BatchMode=yes", "-o", fmt.Sprintf("ConnectTimeout=%d", int(connectTimeout.Seconds())),
		"-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"}
	args = append(args, o.SSHOptions...)
	if o.TargetPort != nil {
		args = append(args, "-p", strconv.Itoa(*o.TargetPort))
	}
	if o.TargetUser != nil {
		args = append(args, "-l", *o.TargetUser)
	}
	host := name
	if o.TargetHost != nil {
		host = *o.TargetHost
	}
	return append(args, "--", host)
}

// dial starts the master connection of a host, its socket in dir, and
// waits until it is up (or ssh gave up).
func dial(ctx context.Context, sshProg, dir string, h Host) (*conn, error) {
	c := &conn{ssh: sshProg, args: destination(h.Name, h.Options), socket: filepath.Join(dir, "m")}
	c.sudo = h.Options.TargetUser != nil && *h.Options.TargetUser != "root"
	args := append([]string{"-M", "-S", c.socket, "-o", "ControlPersist=no", "-N"}, c.args...)
	// What the host sends before the connection is up (a banner) is
	// kept up to maxStderr.
	stderr := &cappedBuffer{max: maxStderr}
	c.master = exec.Command(c.ssh, args...)
	c.master.Stdin = nil
	c.master.Stderr = stderr
	// The master is in a process group of its own: a Ctrl-C to the
	// deployer reaches the deployer, which closes the masters. A deployer
	// killed outright takes its masters with it (Pdeathsig) rather than
	// leaving them connected.
	c.master.SysProcAttr = masterAttr()
	if err := c.master.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- c.master.Wait() }()
	deadline := time.Now().Add(connectTimeout + 5*time.Second)
	for {
		check := exec.CommandContext(ctx, c.ssh, "-S", c.socket, "-O", "check", "--", "x")
		if check.Run() == nil {
			return c, nil
		}
		select {
		case err := <-exited:
			return nil, &errUnreachable{fmt.Sprintf("ssh %s: %s", strings.Join(c.args[len(c.args)-1:], ""), lastLine(stderr.b.String(), err))}
		case <-ctx.Done():
			c.close()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.close()
			return nil, &errUnreachable{fmt.Sprintf("ssh %s: the connection was not up within %s", c.args[len(c.args)-1], connectTimeout+5*time.Second)}
		}
	}
}

// close ends the master connection.
func (c *conn) close() {
	if c.master != nil && c.master.Process != nil {
		c.master.Process.Signal(syscall.SIGTERM)
	}
}

// result is what a remote command gave.
type result struct {
	stdout, stderr string
	code           int
}

// run runs the shell command line cmd on the host over the master
// connection, with stdin, and returns its outputs and exit code (255: ssh
// failed).
func (c *conn) run(ctx context.Context, stdin io.Reader, cmd string) result {
	args := append([]string{"-S", c.socket, "-o", "ControlMaster=no"}, c.args...)
	return c.exec(ctx, stdin, append(args, c.wrap(cmd))...)
}

// runNew runs cmd over a new connection, not the master's, with stdin:
// proof that the host still lets the deployer in.
func (c *conn) runNew(ctx context.Context, stdin io.Reader, cmd string) result {
	args := append([]string{"-S", "none", "-o", "ControlMaster=no", "-o", "ControlPath=none"}, c.args...)
	return c.exec(ctx, stdin, append(args, c.wrap(cmd))...)
}

// wrap runs cmd through sudo when the user is not root.
func (c *conn) wrap(cmd string) string {
	if c.sudo {
		return "sudo -n sh -c " + shellQuote(cmd)
	}
	return cmd
}

// exec runs ssh with args. What the remote command prints is kept up to
// maxStdout and maxStderr bytes: a command that prints more is stopped,
// and its result is exitOverflow.
func (c *conn) exec(ctx context.Context, stdin io.Reader, args ...string) result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.ssh, args...)
	cmd.Stdin = stdin
	var overflow string
	var once sync.Once
	stop := func(stream string, max int) func() {
		return func() {
			once.Do(func() {
				overflow = fmt.Sprintf("the host printed more than %d bytes on %s: the command was stopped", max, stream)
				cancel()
			})
		}
	}
	stdout := &cappedBuffer{max: maxStdout, over: stop("stdout", maxStdout)}
	stderr := &cappedBuffer{max: maxStderr, over: stop("stderr", maxStderr)}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	r := result{stdout: stdout.b.String(), stderr: stderr.b.String()}
	var exitErr *exec.ExitError
	switch {
	case overflow != "":
		r.code, r.stderr = exitOverflow, overflow
	case err == nil:
	case errors.As(err, &exitErr) && exitErr.ExitCode() >= 0:
		r.code = exitErr.ExitCode()
	default:
		r.code = exitSSH
		if r.stderr == "" {
			r.stderr = err.Error()
		}
	}
	return r
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// lastLine returns the last non-empty line of out, else err's text.
func lastLine(out string, err error) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	if err != nil {
		return err.Error()
	}
	return "no connection"
}

// tempDir makes the directory of a deploy's control sockets: short, since
// a socket path is limited to about 100 bytes.
func tempDir() (string, error) {
	return os.MkdirTemp("", "ngd-")
}

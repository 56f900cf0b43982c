// A spawn helper, for measuring only (bench/headless-floor.mjs): what a Node runner could reach if
// a small process did its forking. Node's spawn forks the whole Node process (libuv 1.46: plain
// fork, page tables of ~80 MiB copied) and blocks until the child has exec'd; this process is a
// few hundred KiB, and the Node side only writes a line per agent and reads one back.
//
// stdin: one line per agent, fields split by tabs: id, log file, program, its arguments. Each is
// forked into its own session (as hermes-delegate starts agents), stdout and stderr to the log
// file, stdin from /dev/null. stdout: "id<TAB>status" as each ends (exit code, or 128 + signal).
// Exits once stdin is closed and every agent has ended. Not part of hermes-delegate.
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLOTS 65536
static char ids[SLOTS][64];
static int running = 0;

static void start(char *line, const sigset_t *blocked) {
	char *argv[64];
	int argc = 0;
	char *save;
	char *id = strtok_r(line, "\t", &save);
	char *log = strtok_r(NULL, "\t", &save);
	for (char *arg; argc < 63 && (arg = strtok_r(NULL, "\t", &save));) {
		argv[argc++] = arg;
	}
	argv[argc] = NULL;
	if (!id || !log || argc == 0) {
		return;
	}

	pid_t pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_UNBLOCK, blocked, NULL);
		setsid();
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		execv(argv[0], argv);
		_exit(127);
	}

	if (pid > 0) {
		snprintf(ids[pid % SLOTS], sizeof ids[0], "%s", id);
		running++;
	} else {
		printf("%s\t127\n", id);
	}
}

int main(void) {
	sigset_t blocked;
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGCHLD);
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	int exits = signalfd(-1, &blocked, SFD_CLOEXEC | SFD_NONBLOCK);
	setvbuf(stdout, NULL, _IOLBF, 0);
	static char buffer[1 << 16];
	size_t held = 0;
	int reading = 1;
	for (;;) {
		if (!reading && running == 0) {
			return 0;
		}

		struct pollfd fds[2] = {{reading ? 0 : -1, POLLIN, 0}, {exits, POLLIN, 0}};
		poll(fds, 2, -1);
		if (fds[1].revents) {
			struct signalfd_siginfo info;
			while (read(exits, &info, sizeof info) > 0) {
			}
			int status;
			for (pid_t pid; (pid = waitpid(-1, &status, WNOHANG)) > 0;) {
				running--;
				printf("%s\t%d\n", ids[pid % SLOTS], WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			}
		}

		if (fds[0].revents) {
			// Lines are read off the descriptor, not through stdio: a line left in stdio's buffer
			// would wait for the next poll, which may never come.
			ssize_t got = read(0, buffer + held, sizeof buffer - held - 1);
			if (got <= 0) {
				reading = 0;
				continue;
			}
			held += got;
			char *from = buffer;
			for (char *end; (end = memchr(from, '\n', buffer + held - from));) {
				*end = 0;
				start(from, &blocked);
				from = end + 1;
			}
			held = buffer + held - from;
			memmove(buffer, from, held);
		}
	}
}

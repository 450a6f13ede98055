// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * "sysward run --daemon": send one RUN request to syswardd with the
 * descriptors our program would inherit attached (SCM_RIGHTS), forward the signals we get to
 * the program, and exit with its status, exactly as the embedded mode
 * would.  If the daemon goes away the program is gone too (EXITKILL), and
 * we say so and exit 125.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "sysward/proto.h"

#include "commands.h"
#include "daemon_client.h"
#include "relay.h"
#include "runopts.h"
#include "run.h"

extern char **environ;

/* on_reply() marks the status of an EXIT (the program ran) with this
 * bit, out of the range of exit statuses. */
#define EXIT_RAN 0x10000

/* What a terminal or a job runner may send us that belongs to the
 * program.  The stop signals (Ctrl-Z) go to the program's group too;
 * when the program stops by one (STOPPED, also when it stops itself) the
 * client stops by the same signal, so that the shell sees its job
 * stopped; the SIGCONT of "fg" or "bg" is forwarded like the rest. */
static const int forwarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH,
	SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU,
};

/* Stop by sig, which we block for the signalfd; back when continued.
 * Only sig is unblocked meanwhile: the others wait in the signalfd. */
static void stop_self(int sig)
{
	sigset_t one;

	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	sigprocmask(SIG_BLOCK, &one, NULL);
}

int sw_cli_daemon_options(int argc, char **argv, const char *cmd,
			  void (*help)(FILE *f), const char **sock, bool *json)
{
	static const struct option options[] = {
		{ "daemon", optional_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, json ? "d::jh" : "d::h", options,
				  NULL)) != -1) {
		switch (opt) {
		case 'd':
			/* ps and kill take no path: a word with '/' after
			 * --daemon is its socket. */
			if (!optarg &&
			    sw_cli_optional_arg(cmd, argc, argv, optind, "daemon",
						SW_CLI_VALUE_PATH,
						"is the default socket") < 0)
				return SW_EXIT_USAGE;
			*sock = optarg;
			break;
		case 'j':
			if (json) {
				*json = true;
				break;
			}
			fprintf(stderr, "%s %s: unrecognized option '--json'\n",
				sw_program_name, cmd);
			fprintf(stderr, "Try '%s %s --help'.\n",
				sw_program_name, cmd);
			return SW_EXIT_USAGE;
		case 'h':
			help(stdout);
			return SW_EXIT_OK;
		default:
			fprintf(stderr, "Try '%s %s --help'.\n",
				sw_program_name, cmd);
			return SW_EXIT_USAGE;
		}
	}
	return -1;
}

int sw_daemon_connect(const char *path, char *used, size_t used_size)
{
	struct sw_error err = { 0 };
	int fd;

	if (!path || !*path) {
		if (sw_proto_default_socket(false, used, used_size, &err) < 0) {
			sw_cli_error("%s", err.msg);
			return -1;
		}
	} else {
		snprintf(used, used_size, "%s", path);
	}
	if (sw_proto_connect(used, &fd, &err) < 0) {
		sw_cli_error("cannot reach syswardd: %s (is it running? start "
			     "it with 'syswardd --socket %s', or give its "
			     "socket with --daemon=PATH)", err.msg, used);
		return -1;
	}
	return fd;
}

/*
 * What our program would inherit if we executed it: our descriptors
 * without FD_CLOEXEC, each at its number (make's jobserver pipes, a
 * LISTEN_FDS socket, a `3>file` of the shell; our own, the connection,
 * the signalfd, the policy and report files, all carry the flag).  Found
 * in /proc/self/fd, or without a /proc (a chroot) by trying every number
 * below our RLIMIT_NOFILE (at most 65536 of them).  *ret: increasing
 * numbers, at most SW_LIMIT_FDS of them (one SCM_RIGHTS message: more is
 * refused, not cut short).  0, or -1 with the error said.
 */
static int inherited_fds(bool tty, uint32_t **ret, size_t *ret_n)
{
	cleanup_free uint32_t *fds = calloc(SW_LIMIT_FDS + 1, sizeof(*fds));
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0, more = 0;
	int top = 0;

	if (!fds) {
		if (d)
			closedir(d);
		sw_cli_error("out of memory");
		return -1;
	}
	if (!d) {
		struct rlimit rl;

		top = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		      rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
	}
	for (int fd = 0;; fd++) {
		struct dirent *e = NULL;
		int fl;

		if (d) {
			if (!(e = readdir(d)))
				break;
			if (e->d_name[0] == '.')
				continue;
			fd = atoi(e->d_name);
			if (fd == dirfd(d))
				continue;
		} else if (fd >= top) {
			break;
		}
		fl = fcntl(fd, F_GETFD);
		if (fl < 0 || (fl & FD_CLOEXEC))
			continue;
		/* With a terminal of its own, 0-2 are that terminal's, and
		 * ours is none of its business (docs/security.md, route
		 * 11c). */
		if (tty && (fd <= 2 || isatty(fd)))
			continue;
		if (n < SW_LIMIT_FDS)
			fds[n++] = (uint32_t)fd;
		else
			more++;
	}
	if (d)
		closedir(d);
	if (more) {
		sw_cli_error("%zu descriptors without close-on-exec would be "
			     "inherited by the program, and syswardd takes at "
			     "most %u (one SCM_RIGHTS message); close the others "
			     "or run it embedded (without --daemon)",
			     n + more, SW_LIMIT_FDS);
		return -1;
	}
	/* readdir's order is the directory's: the protocol wants them
	 * increasing. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && fds[j - 1] > fds[j]; j--) {
			uint32_t t = fds[j];

			fds[j] = fds[j - 1];
			fds[j - 1] = t;
		}
	*ret = TAKE_PTR(fds);
	*ret_n = n;
	return 0;
}

static int lost(const struct sw_error *err)
{
	sw_cli_error("lost connection to syswardd: %s (the program, if it "
		     "started, was killed with it)", err->msg);
	return SW_EXIT_SYSWARD_ERROR;
}

/* The session's REPORT, when a RECORD asked for one, and its EXIT; the
 * terminal's master that came with its STARTED (-1: none). */
struct record_state {
	bool asked;
	bool got;
	struct sw_report_reply rep;
	struct sw_exit ended;
	bool tty_asked;
	int tty;
	struct sw_relay relay;	/* relaying tty once it came */
};

/* Handle one message (fd: a descriptor it carried, or -1; taken);
 * returns -1 to go on, else the exit code. */
static int on_reply(const struct sw_msg_header *h, const uint8_t *p, int fd,
		    struct record_state *rs)
{
	cleanup_close int carried = fd;
	struct sw_error err = { 0 };
	struct sw_started st;
	struct sw_exit_reply x;
	int code, sig;

	switch (h->type) {
	case SW_MSG_STARTED:
		if (sw_msg_decode_started(p, h->length, &st, &err) < 0)
			break;
		if (!(st.flags & SW_PROTO_STARTED_TTY) != !rs->tty_asked ||
		    (rs->tty_asked && carried < 0) || rs->tty >= 0) {
			sw_error_set(&err, EBADMSG, "a STARTED %s the program's terminal",
				     rs->tty_asked ? "without" : "with");
			break;
		}
		rs->tty = TAKE_FD(carried);
		return -1;
	case SW_MSG_REPORT:
		if (!rs->asked || rs->got) {
			sw_error_set(&err, EBADMSG, "a REPORT nobody asked for");
			break;
		}
		if (sw_msg_decode_report(p, h->length, &rs->rep, &err) < 0)
			break;
		rs->got = true;
		return -1;
	case SW_MSG_STOPPED:
		if (sw_msg_decode_stopped(p, h->length, &sig, &err) < 0)
			break;
		/* Blocked for the signalfd, it would not stop us: stop as
		 * its default action would, by that signal (our parent's
		 * waitpid() tells them apart).  The SIGCONT that wakes us
		 * waits in the signalfd and goes to the program. */
		if (sw_job_stop_signal(sig)) {
			/* Our terminal as the shell left it, while we stop. */
			sw_relay_suspend(&rs->relay);
			stop_self(sig);
			sw_relay_resume(&rs->relay);
		}
		return -1;
	case SW_MSG_EXIT:
		if (sw_msg_decode_exit(p, h->length, &x, &err) < 0)
			break;
		rs->ended = (struct sw_exit){ .code = (int)x.exit_code,
					      .signal = (int)x.signal,
					      .core = x.core };
		return (int)x.exit_code | EXIT_RAN;
	case SW_MSG_ERROR:
		code = sw_cli_reply_error(NULL, h, p, &err);
		if (code < 0)
			break;
		return code;
	default:
		sw_error_set(&err, EBADMSG, "unexpected %s reply to RUN",
			     sw_msg_type_name(h->type) ?: "?");
		break;
	}
	sw_cli_error("bad reply from syswardd: %s", err.msg);
	return SW_EXIT_SYSWARD_ERROR;
}

static int wait_reply(int fd, struct record_state *rs)
{
	cleanup_free uint8_t *payload = NULL;
	struct sw_error err = { 0 };
	struct sw_msg_header h;
	int carried = -1;

	if (sw_proto_recv_fd(fd, &h, &payload, &carried, &err) < 0)
		return err.code == ECONNRESET || err.code == EPIPE
			? lost(&err) : (sw_cli_error("%s", err.msg),
					SW_EXIT_SYSWARD_ERROR);
	return on_reply(&h, payload, carried, rs);
}

/* The program ran and ended with code: what its REPORT says, as the
 * embedded mode says it (run.c's words). */
static int conclude(const struct run_options *o, struct record_state *rs,
		    FILE *report)
{
	if (!rs->got) {
		sw_cli_error("syswardd sent no report of the session (out of memory?); the program exited with %d",
			     rs->ended.code);
		return SW_EXIT_SYSWARD_ERROR;
	}
	if (sw_run_say_refusals(o, rs->rep.policy_refusals))
		fputs(rs->rep.summary, stderr);
	if (report && (fputs(rs->rep.json, report) == EOF ||
		       fflush(report) == EOF)) {
		sw_cli_error("write the report to %s: %s", o->report_path,
			     strerror(errno ? errno : EIO));
		return SW_EXIT_SYSWARD_ERROR;
	}
	return sw_run_gate(o, rs->rep.policy_refusals, &rs->ended);
}

int sw_run_daemon(const struct run_options *o)
{
	cleanup_free char *policy = NULL;
	cleanup_free char *cwd = NULL;
	bool policy_files = false;
	cleanup_free uint32_t *fd_nums = NULL;
	int fds[SW_LIMIT_FDS];
	cleanup_close int fd = -1, sfd = -1;
	struct sw_buf msg = { 0 };
	struct sw_error err = { 0 };
	struct sw_run_request q = { 0 };
	char path[PATH_MAX];
	sigset_t mask;
	uint64_t sig_ignored, sig_blocked;
	size_t argc = 0, envc = 0, n_fds = 0;
	mode_t cmask;
	int r, code = SW_EXIT_SYSWARD_ERROR;
	struct record_state rs = {
		.asked = o->complain || o->report_path || o->gate,
		.tty = -1, .relay = { .master = -1 } };
	cleanup_fclose FILE *report_file = NULL;
	FILE *report = NULL;

	if (o->log_path) {
		sw_cli_error("--log is not available with --daemon: syswardd "
			     "writes the audit log of every session (start it "
			     "with --audit-log FILE)");
		return SW_EXIT_USAGE;
	}
	/* As embedded: a report that cannot be written is said first. */
	if (sw_run_open_report(o, &report_file, &report) < 0)
		return SW_EXIT_SYSWARD_ERROR;
	if (!o->policy_path) {
		/* --sandbox alone: every call allowed (runopts.h) */
		policy = strdup(SW_SANDBOX_POLICY);
		q.policy_len = policy ? strlen(policy) : 0;
		if (!policy) {
			sw_cli_error("out of memory");
			return SW_EXIT_SYSWARD_ERROR;
		}
	/* The daemon's limit is the protocol's (SW_PROTO_MAX_POLICY), which
	 * no client raises: syswardd bounds what each client makes it hold. */
	} else if (sw_policy_read_file(o->policy_path, &policy, &q.policy_len,
				&err) < 0) {
		if (err.code == EFBIG)
			sw_cli_error("%s; with --daemon the limit is syswardd's (%u bytes): run a larger policy without --daemon",
				     err.msg, SW_PROTO_MAX_POLICY);
		else
			sw_cli_error("%s", err.msg);
		return SW_EXIT_SYSWARD_ERROR;
	}
	/* The daemon parses the policy again and is the judge; parsing it
	 * here too gives the embedded mode's warnings, which only we can
	 * print, and its errors without a round trip. */
	{
		struct sw_policy *p = NULL;

		if (sw_policy_load_string(policy, q.policy_len,
					  sw_run_policy_name(o), &p, &err) < 0) {
			sw_cli_error("%s", err.msg);
			return SW_EXIT_SYSWARD_ERROR;
		}
		if (sw_run_print_policy_warnings(o, p, policy, q.policy_len) &&
		    o->strict) {
			sw_policy_free(p);
			return SW_EXIT_SYSWARD_ERROR;
		}
		/* the daemon keeps the engine's warnings in its log */
		if (!o->quiet && (o->log_path || o->report_path || o->gate || o->complain) &&
		    sw_kernel_refusals_unseen(p, o->complain))
			sw_cli_error("%s", sw_kernel_refusals_unseen(p, o->complain));
		if (!o->quiet && (o->report_path || o->gate || o->complain) && o->sandbox_on)
			sw_cli_error("%s", sw_sandbox_unseen_words(o->complain));
		policy_files = p->has_filesystem;
		sw_policy_free(p);
	}
	cwd = getcwd(NULL, 0);
	if (!cwd) {
		sw_cli_error("get the working directory: %s", strerror(errno));
		return SW_EXIT_SYSWARD_ERROR;
	}
	while (o->argv[argc])
		argc++;
	while (environ && environ[envc])
		envc++;
	cmask = umask(0);
	umask(cmask);
	sw_signals_of_caller(&sig_ignored, &sig_blocked);
	rs.tty_asked = sw_relay_wanted((enum sw_tty_mode)o->tty, &q.tty_flags, &q.tty);
	if (inherited_fds(rs.tty_asked, &fd_nums, &n_fds) < 0)
		return SW_EXIT_SYSWARD_ERROR;
	for (size_t i = 0; i < n_fds; i++)
		fds[i] = (int)fd_nums[i];
	q = (struct sw_run_request){
		/* "all" means all we have, as in embedded mode, where the
		 * engine keeps what was asked and is held; the daemon
		 * refuses any capability we do not hold. */
		.caps = o->caps_all ? o->caps & sw_own_effective_caps()
				    : o->caps,
		.umask = cmask,
		/* Ours before we block what we forward (below): the
		 * program starts with them, as if we exec'd it. */
		.sig_ignored = sig_ignored, .sig_blocked = sig_blocked,
		.fds = fd_nums, .n_fds = n_fds,
		.tty_flags = q.tty_flags, .tty = q.tty,
		.argv = o->argv, .argc = argc,
		.envp = environ, .envc = envc,
		.cwd = cwd,
		.policy_name = (char *)sw_run_policy_name(o),
		.policy_text = policy, .policy_len = q.policy_len,
	};
	if (sw_run_request_encode(&msg, &q, &err) < 0) {
		sw_cli_error("cannot send %s to syswardd: %s", o->argv[0],
			     err.msg);
		goto out;
	}

	/* Block the signals we forward before connecting: none is lost
	 * between the request and the loop below. */
	sigemptyset(&mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(&mask, forwarded[i]);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		sw_cli_error("create signalfd: %s", strerror(errno));
		goto out;
	}

	fd = sw_daemon_connect(o->daemon_socket, path, sizeof(path));
	if (fd < 0)
		goto out;
	/* The daemon checks whether we are in a Landlock domain by tracing
	 * us for a moment (engine/contain/clientprobe.c); under Yama's
	 * ptrace_scope 1 only a tracer we name may (elsewhere: EINVAL). */
	{
		struct ucred uc;
		socklen_t len = sizeof(uc);

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 && uc.pid > 0)
			(void)prctl(PR_SET_PTRACER, (unsigned long)uc.pid, 0, 0, 0);
	}
	if (rs.asked) {
		/* What the RUN keeps and sends back: the daemon makes the
		 * summary and the report as the embedded mode does. */
		struct sw_record_request rq = {
			.flags = (o->complain ? SW_PROTO_RECORD_COMPLAIN : 0) |
				 (o->report_path ? SW_PROTO_RECORD_REPORT : 0) |
				 (!o->quiet ? SW_PROTO_RECORD_SUMMARY : 0),
			.gate = (uint32_t)o->gate,
		};
		struct sw_buf rm = { 0 };

		r = sw_msg_encode_record(&rm, &rq, &err);
		if (r == 0)
			r = sw_proto_send(fd, &rm, NULL, 0, &err);
		sw_buf_free(&rm);
		if (r < 0) {
			code = wait_reply(fd, &rs) & ~EXIT_RAN;
			goto out;
		}
	}
	if (o->sandbox_on) {
		/* The paths as we name them (absolute: runopts.c); the
		 * daemon's launch child looks them up in our view. */
		struct sw_sandbox_request sq = {
			.flags = o->sandbox.net_given ? SW_PROTO_SANDBOX_NET : 0,
			.dir = (char *)o->sandbox.dir,
			.tmpdir = (char *)o->sandbox.tmpdir,
			.connect = o->sandbox.connect.ranges,
			.n_connect = o->sandbox.connect.n_ranges,
			.bind = o->sandbox.bind.ranges,
			.n_bind = o->sandbox.bind.n_ranges,
		};
		struct sw_buf sm = { 0 };

		r = sw_msg_encode_sandbox(&sm, &sq, &err);
		if (r == 0)
			r = sw_proto_send(fd, &sm, NULL, 0, &err);
		sw_buf_free(&sm);
		if (r < 0) {
			if (r == -E2BIG)
				sw_cli_error("%s", err.msg);
			code = wait_reply(fd, &rs) & ~EXIT_RAN;
			goto out;
		}
	}
	r = sw_proto_send(fd, &msg, fds, n_fds, &err);
	if (r < 0) {
		/* The daemon may have refused early and hung up: its
		 * reply says why better than EPIPE. */
		code = wait_reply(fd, &rs) & ~EXIT_RAN;
		goto out;
	}

	for (;;) {
		struct pollfd pf[2 + SW_RELAY_POLLFDS] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		struct signalfd_siginfo si;
		size_t n_relay;

		/* The terminal's master came with STARTED: relayed from
		 * here on, by this loop (relay.c). */
		if (rs.tty >= 0) {
			if (sw_relay_start(&rs.relay, TAKE_FD(rs.tty)) < 0)
				break;
		}
		if (rs.relay.stop_sig) {
			sw_relay_suspend(&rs.relay);
			stop_self(rs.relay.stop_sig);
			sw_relay_resume(&rs.relay);
		}
		n_relay = sw_relay_poll(&rs.relay, pf + 2);
		if (poll(pf, 2 + n_relay, -1) < 0) {
			if (errno == EINTR)
				continue;
			sw_cli_error("poll: %s", strerror(errno));
			break;
		}
		sw_relay_io(&rs.relay, pf + 2, n_relay);
		/* Only when poll() says it has one: not a read() (EAGAIN)
		 * per relayed chunk. */
		while (pf[1].revents && read(sfd, &si, sizeof(si)) == sizeof(si)) {
			struct sw_buf sm = { 0 };

			/* The program's own terminal tells it its size
			 * (tty_do_resize() signals its foreground group). */
			if (si.ssi_signo == SIGWINCH && rs.relay.master >= 0) {
				sw_relay_winch(&rs.relay);
				continue;
			}
			/* Continued (fg, bg): raw again if in the
			 * foreground. */
			if (si.ssi_signo == SIGCONT)
				sw_relay_resume(&rs.relay);
			/* A failed send shows as a lost connection below. */
			if (sw_msg_encode_signal(&sm, (int)si.ssi_signo,
						 NULL) == 0)
				(void)sw_proto_send(fd, &sm, NULL, 0, NULL);
			sw_buf_free(&sm);
		}
		if (pf[0].revents) {
			code = wait_reply(fd, &rs);
			if (code >= 0)
				break;
		}
	}
	/* Our terminal as it was, on every way out: before main() dies of
	 * the program's signal (2f24fd5) and before any word of ours. */
	sw_relay_end(&rs.relay);
	if (code >= 0 && (code & EXIT_RAN)) {
		sw_run_say_kernel_rules(o, policy_files, &rs.ended);
		code = rs.asked ? conclude(o, &rs, report)
				: sw_run_status(&rs.ended);
	}
out:
	if (rs.tty >= 0)
		close(rs.tty);
	sw_report_reply_clear(&rs.rep);
	sw_buf_free(&msg);
	return code;
}

int sw_daemon_call(int fd, int encoded, struct sw_buf *msg,
		   struct sw_msg_header *h, uint8_t **payload,
		   struct sw_error *err)
{
	int r = encoded < 0 ? encoded : sw_proto_send(fd, msg, NULL, 0, err);

	sw_buf_free(msg);
	return r < 0 ? r : sw_proto_recv(fd, h, payload, err);
}

int sw_cli_reply_error(const char *what, const struct sw_msg_header *h,
		       const uint8_t *payload, struct sw_error *err)
{
	struct sw_error_reply er;

	if (h->type != SW_MSG_ERROR ||
	    sw_msg_decode_error(payload, h->length, &er, err) < 0)
		return -1;
	if (what)
		sw_cli_error("%s: %s", what, er.msg);
	else
		sw_cli_error("%s", er.msg);
	return (int)er.exit_code;
}

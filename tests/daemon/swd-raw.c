// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * swd-raw: send syswardd a hand-made request, good or bad, and print the
 * reply as one line, for tests/daemon/daemon-tests.sh:
 *
 *   swd-raw SOCKET MODE
 *
 * prints "ERROR errno=NAME exit=N msg=TEXT", "STARTED", "EXIT N",
 * "PS_REPLY N", "OK" or "CLOSED" (the daemon hung up without a reply).
 *
 *   swd-raw SOCKET run-caps:HEX
 *
 * asks for the capability mask HEX, whatever swd-raw holds, for
 * /bin/sh -c 'grep ^CapEff /proc/self/status' (its output between the
 * two replies).
 *
 *   swd-raw SOCKET run-cwd:DIR
 *
 * runs /bin/true in the working directory DIR (the two replies).
 *
 *   swd-raw SOCKET connector-exits
 *
 * a RUN sent by a child once swd-raw, which connected, has exited.
 *
 *   swd-raw SOCKET leader-exits:HEX
 *
 * the same from a second thread, after the main thread, which connected,
 * has exited (the peer's /proc/<pid>/status is then a zombie's).
 *
 *   swd-raw SOCKET record-bad-flags | record-gate-126 | record-twice |
 *                  record-after-run
 *
 * a RECORD the daemon must refuse: unknown flags, sysward's own 126 as
 * the gate status, two of them, or one after the connection's RUN (the
 * last prints the RUN's replies too).
 *
 *   swd-raw SOCKET record-run
 *
 * RECORD (complain, report, summary, gate 7) then a RUN of /bin/true
 * under a policy refusing everything: prints the REPORT ("REPORT
 * refusals=N summary=BYTES json=BYTES") and EXIT.
 *
 *   swd-raw SOCKET landlock-forge:DIR
 *
 * a client in a Landlock domain in which no directory can be made, which
 * lies to the daemon's check for one (clientprobe.c): a thread of its
 * watches for the daemon's PTRACE_SEIZE of the main thread (TracerPid)
 * and then installs, on every thread (TSYNC), a seccomp filter that
 * answers get_robust_list with EFAULT, the answer of a task in no domain,
 * without running it; the main thread makes no system call meanwhile (the
 * check replaces its next one).  Then a RUN of /bin/mkdir DIR (the two
 * replies); "FORGER installed|failed|idle" after them.
 *
 *   swd-raw SOCKET sandbox:DIR
 *
 * SANDBOX with DIR as the workspace, sent as is (the sysward client looks
 * at it first, as its uid), then a RUN of /bin/true (the replies).
 *
 *   swd-raw SOCKET random:N
 *
 * sends N connections' worth of random bytes (half of them behind a
 * valid magic and version, so they reach the type and length checks) and
 * prints "RANDOM n=N errors=E closed=C": every one must get an ERROR or,
 * if it ended mid-message, a hang-up, and the daemon must survive.
 *
 *   swd-raw SOCKET churn:N
 *
 * N rounds of 8 RUNs of "sleep 0.0I" (I: 0..7) sent at once, each then
 * left in its own way while the daemon launches it: closed at once;
 * SIGNALed (SIGTERM) before STARTED; KILLed from another connection as it
 * ends; SIGNALed with SIGKILL and closed; half-closed; or waited for.
 * Prints "CHURN rounds=N answered=A refused=R hung=H": each client that
 * waits gets its EXIT or an ERROR within 10 s (else it counts as hung).
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/proto.h"

/* What every RUN here hands over: our 0, 1 and 2, at those numbers. */
static uint32_t std_nums[3] = { 0, 1, 2 };

static void put_hdr(struct sw_buf *b, uint32_t magic, uint16_t ver,
		    uint16_t type, uint32_t len, uint32_t flags)
{
	sw_buf_put_u32(b, magic);
	sw_buf_put_u32(b, (uint32_t)ver | (uint32_t)type << 16);
	sw_buf_put_u32(b, len);
	sw_buf_put_u32(b, flags);
}

static void send_all(int fd, const struct sw_buf *b, const int *fds, int n)
{
	struct sw_error err = { 0 };

	/* The daemon may hang up early (that is what some modes test):
	 * a failed send is fine, the reply or CLOSED tells. */
	(void)sw_proto_send(fd, b, fds, n, &err);
}

static void print_reply(int fd)
{
	uint8_t *p = NULL;
	struct sw_msg_header h;
	struct sw_error err = { 0 };
	struct sw_error_reply er;
	int code;

	if (sw_proto_recv(fd, &h, &p, &err) < 0) {
		if (err.code == ECONNRESET)
			printf("CLOSED\n");
		else
			printf("RECV-FAILED %s\n", err.msg);
		return;
	}
	switch (h.type) {
	case SW_MSG_ERROR:
		sw_msg_decode_error(p, h.length, &er, NULL);
		printf("ERROR errno=%s exit=%u msg=%s\n",
		       strerrorname_np(er.code) ?: "?", er.exit_code, er.msg);
		break;
	case SW_MSG_STARTED:
		printf("STARTED\n");
		break;
	case SW_MSG_EXIT: {
		struct sw_exit_reply x = { 0 };

		sw_msg_decode_exit(p, h.length, &x, NULL);
		if (x.signal)
			printf("EXIT %u signal=%u%s\n", x.exit_code, x.signal,
			       x.core ? " core" : "");
		else
			printf("EXIT %u\n", x.exit_code);
		break;
	}
	case SW_MSG_PS_REPLY:
		printf("PS_REPLY %u\n", h.length >= 4 ? p[0] | p[1] << 8 : 0);
		break;
	case SW_MSG_OK:
		printf("OK\n");
		break;
	case SW_MSG_STOPPED:
		sw_msg_decode_stopped(p, h.length, &code, NULL);
		printf("STOPPED %d\n", code);
		break;
	case SW_MSG_REPORT: {
		struct sw_report_reply r = { 0 };

		if (sw_msg_decode_report(p, h.length, &r, &err) < 0) {
			printf("REPORT-BAD %s\n", err.msg);
			break;
		}
		printf("REPORT refusals=%llu summary=%zu json=%zu\n",
		       (unsigned long long)r.policy_refusals, strlen(r.summary),
		       strlen(r.json));
		sw_report_reply_clear(&r);
		break;
	}
	default:
		printf("TYPE 0x%x\n", h.type);
	}
	free(p);
}

static void run_argv(struct sw_buf *b, const char *policy, const char *cwd,
		     char **argv)
{
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	struct sw_run_request q = {
		.fds = std_nums, .n_fds = 3,
		.argv = argv, .envp = envp, .envc = 1, .cwd = (char *)cwd,
		.policy_name = "raw.json", .policy_text = (char *)policy,
		.policy_len = strlen(policy),
	};

	while (argv[q.argc])
		q.argc++;
	if (sw_run_request_encode(b, &q, NULL) < 0)
		abort();
}

static void run_in(struct sw_buf *b, const char *policy, const char *cwd)
{
	run_argv(b, policy, cwd, (char *[]){ "/bin/true", NULL });
}

static void good_run(struct sw_buf *b, const char *policy)
{
	run_in(b, policy, "/");
}

/* xorshift: reproducible without libc's rand() state. */
static uint32_t rnd(void)
{
	static uint32_t x = 2463534242u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

static int random_mode(const char *sock, int n)
{
	int errors = 0, closed = 0, other = 0;

	for (int i = 0; i < n; i++) {
		struct sw_buf b = { 0 };
		struct sw_error err = { 0 };
		struct sw_msg_header h;
		uint8_t *p = NULL;
		size_t len = rnd() % 4096;
		int fd;

		if (sw_proto_connect(sock, &fd, &err) < 0) {
			fprintf(stderr, "swd-raw: %s\n", err.msg);
			return 1;
		}
		if (i % 2) {
			sw_buf_put_u32(&b, SW_PROTO_MAGIC);
			sw_buf_put_u32(&b, SW_PROTO_VERSION | (rnd() % 8) << 16);
			/* a length that fits what follows, or not */
			sw_buf_put_u32(&b, rnd() % 2 ? (uint32_t)len : rnd());
			sw_buf_put_u32(&b, 0);
		}
		for (size_t k = 0; k < len; k++) {
			uint8_t c = (uint8_t)rnd();

			sw_buf_put_bytes(&b, &c, 1);
		}
		(void)sw_proto_send(fd, &b, NULL, 0, &err);
		shutdown(fd, SHUT_WR);
		if (sw_proto_recv(fd, &h, &p, &err) == 0) {
			if (h.type == SW_MSG_ERROR)
				errors++;
			else
				other++;
		} else if (err.code == ECONNRESET) {
			closed++;
		} else {
			other++;
		}
		free(p);
		sw_buf_free(&b);
		close(fd);
	}
	printf("RANDOM n=%d errors=%d closed=%d other=%d\n", n, errors,
	       closed, other);
	return 0;
}

struct leader_exits {
	int fd;
	uint64_t caps;
};

static void *leader_exits_thread(void *arg)
{
	static const char allow[] = "{\"defaultAction\":\"SCMP_ACT_ALLOW\"}";
	struct leader_exits *le = arg;
	char *argv[] = { "/bin/sh", "-c", "grep ^CapEff /proc/self/status",
			 NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	struct sw_run_request q = {
		.caps = le->caps, .fds = std_nums, .n_fds = 3,
		.argv = argv, .argc = 3, .envp = envp,
		.envc = 1, .cwd = "/", .policy_name = "raw.json",
		.policy_text = (char *)allow, .policy_len = strlen(allow),
	};
	struct sw_buf b = { 0 };
	int std[3] = { 0, 1, 2 };

	/* Long enough for a tracer to see the leader's exit. */
	usleep(300 * 1000);
	if (sw_run_request_encode(&b, &q, NULL) < 0)
		abort();
	send_all(le->fd, &b, std, 3);
	print_reply(le->fd);
	fflush(stdout);
	print_reply(le->fd);
	fflush(stdout);
	exit(0);
}

/* landlock-forge: the main thread's TracerPid, once it is not 0, then a
 * filter on every thread that answers get_robust_list -EFAULT unrun. */
static pid_t forge_main;
static volatile int forge_state;	/* 0 watching, 1 installed, -1 failed */

static void *forger(void *arg)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_get_robust_list, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EFAULT),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	char path[64], text[4096];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)forge_main);
	for (int i = 0; i < 2000000; i++) {
		FILE *st = fopen(path, "re");
		size_t n = st ? fread(text, 1, sizeof(text) - 1, st) : 0;
		char *tp;

		if (st)
			fclose(st);
		text[n] = '\0';
		tp = strstr(text, "TracerPid:");
		if (tp && strtol(tp + 10, NULL, 10) != 0) {
			forge_state = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
					      SECCOMP_FILTER_FLAG_TSYNC, &prog) == 0 ? 1 : -1;
			return NULL;
		}
	}
	return NULL;
}

static int landlock_forge(int fd, const char *dir)
{
	static const char allow[] = "{\"defaultAction\":\"SCMP_ACT_ALLOW\"}";
	struct landlock_ruleset_attr a = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_DIR,
	};
	int std[3] = { 0, 1, 2 };
	struct sw_buf b = { 0 };
	pthread_t t;
	int rs = (int)syscall(SYS_landlock_create_ruleset, &a, sizeof(a), 0);

	if (rs < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, rs, 0) < 0) {
		printf("LANDLOCK-FAILED %s\n", strerror(errno));
		return 1;
	}
	close(rs);
	forge_main = (pid_t)syscall(SYS_gettid);
	if (pthread_create(&t, NULL, forger, NULL) != 0)
		return 1;
	run_argv(&b, allow, "/", (char *[]){ "/bin/mkdir", (char *)dir, NULL });
	send_all(fd, &b, std, 3);
	/* No system call until the filter is in (the daemon's check takes
	 * our next one, and waits a second for it): not a race. */
	for (long i = 0; i < 4000000000L && !forge_state; i++)
		__asm__ volatile("" ::: "memory");
	print_reply(fd);
	fflush(stdout);
	print_reply(fd);
	printf("FORGER %s\n", forge_state > 0 ? "installed" : forge_state < 0 ? "failed" : "idle");
	fflush(stdout);
	_exit(0);
}

static void timed_run(struct sw_buf *b, const char *policy, int i)
{
	char t[16];
	char *argv[] = { "/bin/sleep", t, NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	struct sw_run_request q = {
		.fds = std_nums, .n_fds = 3,
		.argv = argv, .argc = 2, .envp = envp, .envc = 1, .cwd = "/",
		.policy_name = "raw.json", .policy_text = (char *)policy,
		.policy_len = strlen(policy),
	};

	snprintf(t, sizeof(t), "0.0%d", i);
	if (sw_run_request_encode(b, &q, NULL) < 0)
		abort();
}

/* One reply: 1 (its type in *type; a STARTED's session in *id if id),
 * 0 the daemon hung up, -1 nothing within the receive timeout. */
static int churn_recv(int fd, int *type, uint64_t *id)
{
	struct sw_msg_header h;
	struct sw_error err = { 0 };
	struct sw_started st;
	uint8_t *p = NULL;

	if (sw_proto_recv(fd, &h, &p, &err) < 0)
		return err.code == EAGAIN || err.code == EWOULDBLOCK ? -1 : 0;
	*type = h.type;
	if (h.type == SW_MSG_STARTED && id &&
	    sw_msg_decode_started(p, h.length, &st, NULL) == 0)
		*id = st.session_id;
	free(p);
	return 1;
}

/* Replies until the last one (EXIT or ERROR): 1 EXIT, 2 ERROR, else as
 * churn_recv.  *id: the session, from STARTED. */
static int churn_wait(int fd, uint64_t *id)
{
	int r, t;

	while ((r = churn_recv(fd, &t, id)) == 1)
		if (t == SW_MSG_EXIT || t == SW_MSG_ERROR)
			return t == SW_MSG_EXIT ? 1 : 2;
	return r;
}

/* 1 once STARTED came (its id in *id), 2 another reply, else as
 * churn_recv. */
static int churn_wait_started(int fd, uint64_t *id)
{
	int r, t;

	r = churn_recv(fd, &t, id);
	return r == 1 && t != SW_MSG_STARTED ? 2 : r;
}

/* Any one reply: 1, or -1 if none within the timeout, 0 hung up. */
static int churn_wait_any(int fd)
{
	int t;

	return churn_recv(fd, &t, NULL);
}

static int churn_mode(const char *sock, int rounds)
{
	static const char allow[] = "{\"defaultAction\":\"SCMP_ACT_ALLOW\"}";
	struct timeval tv = { .tv_sec = 10 };
	int std[3] = { 0, 1, 2 };
	unsigned int answered = 0, refused = 0, hung = 0;

	for (int r = 0; r < rounds; r++) {
		int fds[8];

		for (int i = 0; i < 8; i++) {
			struct sw_error err = { 0 };
			struct sw_buf b = { 0 };

			if (sw_proto_connect(sock, &fds[i], &err) < 0) {
				fprintf(stderr, "swd-raw: %s\n", err.msg);
				return 1;
			}
			setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
			timed_run(&b, allow, i);
			send_all(fds[i], &b, std, 3);
			sw_buf_free(&b);
		}
		for (int i = 0; i < 8; i++) {
			struct sw_buf b = { 0 };
			uint64_t id = 0;
			int k, w;

			switch ((i + r) % 6) {
			case 0:		/* gone while its RUN is launched */
				break;
			case 1:		/* SIGNAL before STARTED */
				sw_msg_encode_signal(&b, SIGTERM, NULL);
				send_all(fds[i], &b, NULL, 0);
				goto wait;
			case 2:		/* KILL from elsewhere as it ends */
				w = churn_wait_started(fds[i], &id);
				if (w == 1 && sw_proto_connect(sock, &k, &(struct sw_error){ 0 }) == 0) {
					setsockopt(k, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
					sw_msg_encode_kill(&b, id, NULL);
					send_all(k, &b, NULL, 0);
					if (churn_wait_any(k) < 0)
						hung++;
					close(k);
				}
				goto wait;
			case 3:		/* SIGKILL, and gone */
				sw_msg_encode_signal(&b, SIGKILL, NULL);
				send_all(fds[i], &b, NULL, 0);
				break;
			case 4:		/* half-closed: the daemon reads EOF */
				shutdown(fds[i], SHUT_WR);
				break;
			default:
			wait:
				w = churn_wait(fds[i], NULL);
				if (w < 0)
					hung++;
				else if (w == 1)
					answered++;
				else
					refused++;
				break;
			}
			sw_buf_free(&b);
		}
		for (int i = 0; i < 8; i++)
			close(fds[i]);
	}
	printf("CHURN rounds=%d answered=%u refused=%u hung=%u\n", rounds,
	       answered, refused, hung);
	return 0;
}

int main(int argc, char **argv)
{
	static const char allow[] = "{\"defaultAction\":\"SCMP_ACT_ALLOW\"}";
	struct sw_error err = { 0 };
	struct sw_buf b = { 0 };
	int std[3] = { 0, 1, 2 };
	const char *mode;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: swd-raw SOCKET MODE\n");
		return 2;
	}
	mode = argv[2];
	if (strncmp(mode, "random:", 7) == 0)
		return random_mode(argv[1], atoi(mode + 7));
	if (strncmp(mode, "churn:", 6) == 0)
		return churn_mode(argv[1], atoi(mode + 6));
	if (sw_proto_connect(argv[1], &fd, &err) < 0) {
		fprintf(stderr, "swd-raw: %s\n", err.msg);
		return 1;
	}
	if (strcmp(mode, "bad-magic") == 0) {
		put_hdr(&b, 0x20544547, 1, SW_MSG_PS, 0, 0);	/* "GET " */
	} else if (strcmp(mode, "bad-version") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, 9, SW_MSG_PS, 0, 0);
	} else if (strcmp(mode, "bad-flags") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_PS, 0, 0x80);
	} else if (strcmp(mode, "unknown-type") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, 0x42, 0, 0);
	} else if (strcmp(mode, "reply-type") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_EXIT, 12, 0);
		sw_buf_put_u32(&b, 0);
		sw_buf_put_u32(&b, 0);
		sw_buf_put_u32(&b, 0);
	} else if (strcmp(mode, "oversized") == 0) {
		/* Announce 64 MiB and start sending: the daemon must refuse
		 * from the header, not buffer it. */
		static char junk[65536];

		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 64u << 20, 0);
		sw_buf_put_bytes(&b, junk, sizeof(junk));
	} else if (strcmp(mode, "oversized-kill") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_KILL, 9, 0);
		sw_buf_put_bytes(&b, "123456789", 9);
	} else if (strcmp(mode, "malformed-run") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 56, 0);
		sw_buf_put_u64(&b, 0);
		sw_buf_put_u32(&b, 022);	/* umask */
		sw_buf_put_u64(&b, 0);	/* ignored signals */
		sw_buf_put_u64(&b, 0);	/* blocked signals */
		sw_buf_put_u32(&b, 3);	/* descriptors 0, 1, 2 */
		sw_buf_put_u32(&b, 0);
		sw_buf_put_u32(&b, 1);
		sw_buf_put_u32(&b, 2);
		sw_buf_put_u32(&b, 0);	/* no terminal of its own */
		sw_buf_put_u32(&b, 0);	/* argc 0 */
		sw_buf_put_u32(&b, 0);
		send_all(fd, &b, std, 3);
		print_reply(fd);
		return 0;
	} else if (strcmp(mode, "short-kill") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_KILL, 4, 0);
		sw_buf_put_u32(&b, 1);
	} else if (strcmp(mode, "run-no-fds") == 0) {
		good_run(&b, allow);
	} else if (strcmp(mode, "run-one-fd") == 0) {
		good_run(&b, allow);
		send_all(fd, &b, std, 1);
		print_reply(fd);
		return 0;
	} else if (strcmp(mode, "ps-with-fds") == 0) {
		sw_msg_encode_empty(&b, SW_MSG_PS, NULL);
		send_all(fd, &b, std, 3);
		print_reply(fd);
		return 0;
	} else if (strcmp(mode, "bad-policy") == 0) {
		/* The daemon, not only the client, judges the policy. */
		good_run(&b, "{\"defaultAction\": ");
		send_all(fd, &b, std, 3);
		print_reply(fd);
		return 0;
	} else if (strncmp(mode, "record-", 7) == 0) {
		struct sw_record_request rq = { SW_PROTO_RECORD_COMPLAIN |
						SW_PROTO_RECORD_REPORT |
						SW_PROTO_RECORD_SUMMARY, 7 };
		struct sw_buf rb = { 0 };

		if (strcmp(mode, "record-after-run") == 0) {
			/* A program that outlives the RECORD: one that exited
			 * could have its EXIT read before the RECORD's ERROR.
			 * It ends with this connection. */
			run_argv(&b, allow, "/", (char *[]){ "/bin/sleep", "60", NULL });
			send_all(fd, &b, std, 3);
			print_reply(fd);	/* STARTED */
			fflush(stdout);
		}
		if (strcmp(mode, "record-bad-flags") == 0) {
			put_hdr(&rb, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RECORD, 8, 0);
			sw_buf_put_u32(&rb, 0x80);
			sw_buf_put_u32(&rb, 0);
		} else {
			if (strcmp(mode, "record-gate-126") == 0)
				rq.gate = 126;
			sw_msg_encode_record(&rb, &rq, NULL);
		}
		send_all(fd, &rb, NULL, 0);
		if (strcmp(mode, "record-twice") == 0)
			send_all(fd, &rb, NULL, 0);
		sw_buf_free(&rb);
		if (strcmp(mode, "record-run") == 0) {
			sw_buf_free(&b);
			good_run(&b, "{\"defaultAction\":\"SCMP_ACT_ERRNO\"}");
			send_all(fd, &b, std, 3);
			print_reply(fd);	/* STARTED */
			print_reply(fd);	/* REPORT */
		}
		print_reply(fd);
		return 0;
	} else if (strcmp(mode, "run-ok") == 0) {
		good_run(&b, allow);
		send_all(fd, &b, std, 3);
		print_reply(fd);	/* STARTED */
		print_reply(fd);	/* EXIT 0 */
		return 0;
	} else if (strncmp(mode, "landlock-forge:", 15) == 0) {
		return landlock_forge(fd, mode + 15);
	} else if (strncmp(mode, "sandbox:", 8) == 0) {
		struct sw_sandbox_request sq = { .dir = (char *)mode + 8, .tmpdir = "" };
		struct sw_buf sb = { 0 };

		if (sw_msg_encode_sandbox(&sb, &sq, NULL) < 0)
			abort();
		send_all(fd, &sb, NULL, 0);
		good_run(&b, allow);
		send_all(fd, &b, std, 3);
		print_reply(fd);
		fflush(stdout);
		print_reply(fd);
		return 0;
	} else if (strncmp(mode, "run-cwd:", 8) == 0) {
		/* /bin/true in the working directory DIR, whatever that is. */
		run_in(&b, allow, mode + 8);
		send_all(fd, &b, std, 3);
		print_reply(fd);
		fflush(stdout);
		print_reply(fd);
		return 0;
	} else if (strncmp(mode, "run-caps:", 9) == 0) {
		/* RUN asking for the capability mask HEX, whatever this
		 * process holds (as a hostile client would), of a program
		 * that prints what it got. */
		char *argv[] = { "/bin/sh", "-c",
				 "grep ^CapEff /proc/self/status", NULL };
		char *envp[] = { "PATH=/usr/bin:/bin", NULL };
		struct sw_run_request q = {
			.caps = strtoull(mode + 9, NULL, 16),
			.fds = std_nums, .n_fds = 3,
			.argv = argv, .argc = 3, .envp = envp, .envc = 1,
			.cwd = "/", .policy_name = "raw.json",
			.policy_text = (char *)allow,
			.policy_len = strlen(allow),
		};

		if (sw_run_request_encode(&b, &q, NULL) < 0)
			abort();
		send_all(fd, &b, std, 3);
		print_reply(fd);	/* STARTED or ERROR */
		fflush(stdout);
		print_reply(fd);	/* EXIT */
		return 0;
	} else if (strcmp(mode, "connector-exits") == 0) {
		/* A child asks, on the connection, once this process (the
		 * one that connected: the peer) has exited and been
		 * reaped. */
		pid_t c = fork();

		if (c < 0)
			abort();
		if (c > 0)
			_exit(0);
		usleep(300 * 1000);
		good_run(&b, allow);
		send_all(fd, &b, std, 3);
		print_reply(fd);
		return 0;
	} else if (strncmp(mode, "leader-exits:", 13) == 0) {
		/* The same from a thread, once the main thread (the one
		 * that connected: the peer) has exited. */
		static struct leader_exits le;
		pthread_t t;

		le.fd = fd;
		le.caps = strtoull(mode + 13, NULL, 16);
		if (pthread_create(&t, NULL, leader_exits_thread, &le))
			abort();
		syscall(SYS_exit, 0);
	} else if (strcmp(mode, "truncated-header") == 0) {
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 100, 0);
		b.len = 8;
		send_all(fd, &b, NULL, 0);
		shutdown(fd, SHUT_WR);
		print_reply(fd);
		return 0;
	} else if (strcmp(mode, "truncated-payload") == 0) {
		good_run(&b, allow);
		b.len -= 5;
		send_all(fd, &b, std, 3);
		shutdown(fd, SHUT_WR);
		print_reply(fd);
		return 0;
	} else if (strcmp(mode, "stall") == 0) {
		/* Half a header, then wait for what the daemon does. */
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 100, 0);
		b.len = 6;
		send_all(fd, &b, NULL, 0);
		print_reply(fd);
		return 0;
	} else if (strcmp(mode, "silent") == 0) {
		print_reply(fd);
		return 0;
	} else if (strncmp(mode, "hold-partial:", 13) == 0) {
		/* Half a header, then silence: must not block anyone. */
		put_hdr(&b, SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 100, 0);
		b.len = 6;
		send_all(fd, &b, NULL, 0);
		sleep((unsigned int)atoi(mode + 13));
		printf("HELD\n");
		return 0;
	} else {
		fprintf(stderr, "swd-raw: unknown mode %s\n", mode);
		return 2;
	}
	send_all(fd, &b, NULL, 0);
	print_reply(fd);
	sw_buf_free(&b);
	close(fd);
	return 0;
}

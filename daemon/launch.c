// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a RUN's program gets: the request as the compile stage and the
 * tracer thread take it (struct launch_req, owned by its message), and
 * the engine's launch made from it (launch_fill()), the one home of the
 * program's credentials, capabilities, nice value, umask, descriptors
 * and context (the client's: clientctx.c in the engine).
 */
#include <stdlib.h>
#include <unistd.h>

#include "sysward/engine.h"
#include "sysward/policy.h"
#include "syswardd.h"

void launch_req_free(struct launch_req *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n_fds; i++)
		close(l->fds[i].from);
	if (l->client_pidfd >= 0)
		close(l->client_pidfd);
	sw_client_free(l->client);
	sw_run_request_clear(&l->q);
	sw_sandbox_request_clear(&l->sandbox_q);
	sw_prepared_free(l->prepared);
	sw_policy_free(l->policy);
	peer_clear(&l->peer);
	free(l);
}

/* The program is a process group of its own in a session of its own,
 * led by its holder, its parent (engine: launchchild.c): it stops as a
 * shell's job does (engine.h); kill(0, ...) and setpgid() stay in it
 * (route 11); it has no terminal but one of its own when the client
 * asks (a pseudo-terminal the client relays: its master goes to the
 * client with STARTED, the daemon never reads or writes it); its CPU is
 * its session's scheduler autogroup's, not the daemon's (route 13). */
void launch_fill(const struct launch_req *q, uint64_t id, struct sw_launch *l)
{
	*l = (struct sw_launch){
		.argv = q->q.argv,
		.envp = q->q.envp,
		.cwd = q->q.cwd,
		/* Exactly the client's: nothing of ours, ever. */
		.fds = q->fds,
		.n_fds = q->n_fds,
		.exact_fds = true,
		/* Where the client is: its namespaces, root, cgroups,
		 * limits, ... (read by compile.c; NULL before). */
		.client = q->client,
		.tty = q->q.tty_flags & SW_PROTO_TTY ? &q->tty : NULL,
		.uid = q->root_daemon ? q->peer.uid : (uid_t)-1,
		.gid = q->root_daemon ? q->peer.gid : (gid_t)-1,
		.groups = q->peer.groups,
		.n_groups = q->peer.n_groups,
		.set_groups = q->root_daemon,
		/* Root gets what "sysward run --cap" would give it. */
		.caps = q->peer.uid == 0 ? q->q.caps : 0,
		.audit = q->audit,
		.audit_format = SW_LOG_JSON,
		.audit_allows = q->audit_allows,
		.session_id = id,
		.new_session = true,
		.holder_exec = true,
		.set_nice = true,
		.nice = q->nice,
		.set_umask = true,
		.umask = (mode_t)q->q.umask,
		.sig_ignored = q->q.sig_ignored,
		.sig_blocked = q->q.sig_blocked,
		.complain = q->recording &&
			    (q->record.flags & SW_PROTO_RECORD_COMPLAIN),
		.record = q->recording,
		.sandbox = q->sandboxing ? &q->sandbox : NULL,
		/* A thread per session answers its emulate and skip
		 * rules (engine/decide/notif.c): one session's calls never wait
		 * for another's, nor for the shard's waitpid. */
		.listener = true,
	};
}

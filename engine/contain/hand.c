// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A descriptor the launch child hands its launcher on the ready socket
 * (a seqpacket pair): the session's cgroup (cgroup.c), its terminal's
 * master (launchchild.c).  One byte says what it is; the descriptor
 * rides along as SCM_RIGHTS, a copy installed in the launcher's table.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "internal.h"
#include "contain/hand.h"

int sw_launch_hand(int sock, char what, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &what, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, MSG_NOSIGNAL) == 1 ? 0 : -errno;
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The program's own terminal relayed (relay.h).  Everything goes through
 * poll(): the master, our input and our output are each read or written
 * only when ready, into bounded buffers, so that a program that floods
 * its terminal or never reads it stalls its own relay and nothing else
 * (the daemon never holds its terminal).  Our standard input and output
 * are opened again, non-blocking, where they are a terminal or a pipe:
 * their own open file descriptions, so that O_NONBLOCK never reaches
 * the shell that shares the originals.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "relay.h"

/* Our first standard stream at a terminal, stdin first: its modes are
 * the ones the user types through. */
static int our_terminal(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (isatty(fd))
			return fd;
	return -1;
}

bool sw_relay_wanted(enum sw_tty_mode mode, uint32_t *ret_flags,
		     struct sw_proto_tty *ret_tty)
{
	int term = our_terminal();
	struct winsize ws;
	struct termios tio;

	*ret_flags = 0;
	memset(ret_tty, 0, sizeof(*ret_tty));
	if (mode == SW_TTY_NEVER ||
	    (mode == SW_TTY_AUTO && !(isatty(0) && isatty(1) && isatty(2))))
		return false;
	*ret_flags = SW_PROTO_TTY;
	if (term >= 0 && ioctl(term, TIOCGWINSZ, &ws) == 0) {
		ret_tty->rows = ws.ws_row;
		ret_tty->cols = ws.ws_col;
		ret_tty->xpixel = ws.ws_xpixel;
		ret_tty->ypixel = ws.ws_ypixel;
	}
	if (term >= 0 && tcgetattr(term, &tio) == 0) {
		sw_proto_tty_from_termios(ret_tty, &tio);
		*ret_flags |= SW_PROTO_TTY_TERMIOS;
	}
	return true;
}

/* fd opened again, non-blocking, if it is a terminal or a pipe (a file
 * would lose its offset, a socket cannot be): -1 otherwise. */
static int reopen(int fd, int flags)
{
	char path[32];
	struct stat st;

	if (fstat(fd, &st) < 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

static bool foreground(int term)
{
	return term >= 0 && tcgetpgrp(term) == getpgrp();
}

/* The program's terminal's end-of-file character (its modes are ours
 * as they were at the RUN, or its own since), ^D if it says none. */
static char eof_char(const struct sw_relay *r)
{
	struct termios tio;

	if (tcgetattr(r->master, &tio) == 0 && tio.c_cc[VEOF] != _POSIX_VDISABLE)
		return (char)tio.c_cc[VEOF];
	return CEOF;
}

/*
 * What was typed at our terminal before we set it raw (at the start,
 * and again once continued in the foreground), read as the
 * canonical mode it was typed in made it: lines, and an end-of-file
 * character as a read of 0, which goes to the program as its own
 * terminal's EOF character.  Left there, it would reach the program
 * as a NUL byte: a line discipline keeps an EOF typed in canonical mode
 * as a NUL (__DISABLED_CHAR) marked as a line's end, and switching to
 * non-canonical mode drops the marks (n_tty_receive_char_special(),
 * n_tty_set_termios(), drivers/tty/n_tty.c), so that the program's
 * terminal would echo "^@" and hand it a 0 byte instead of its EOF
 * (script(1) types ^D when its input ends, usually before we are
 * raw).  A line not ended yet stays and reaches the program once we
 * are raw, as it would.
 */
static void take_typed_ahead(struct sw_relay *r)
{
	struct termios tio;
	ssize_t n;

	/* own_in: ours, non-blocking (a read never waits for a line). */
	if (r->term < 0 || r->own_in < 0 || !isatty(r->in) ||
	    !foreground(r->term) || tcgetattr(r->in, &tio) < 0 ||
	    !(tio.c_lflag & ICANON))
		return;
	while (r->to_prog_len < sizeof(r->to_prog)) {
		n = read(r->in, r->to_prog + r->to_prog_len,
			 sizeof(r->to_prog) - r->to_prog_len);
		if (n > 0)
			r->to_prog_len += (size_t)n;
		else if (n == 0)
			r->to_prog[r->to_prog_len++] = eof_char(r);
		else
			break;	/* EAGAIN: nothing more ended */
	}
}

int sw_relay_start(struct sw_relay *r, int master)
{
	*r = (struct sw_relay){ .master = master, .in = 0, .out = 1,
				.own_in = -1, .own_out = -1,
				.term = our_terminal() };
	if (fcntl(master, F_SETFL, O_NONBLOCK) < 0) {
		sw_cli_error("relay the program's terminal: make its master non-blocking: %s",
			     strerror(errno));
		return -1;
	}
	r->own_in = reopen(0, O_RDONLY);
	if (r->own_in >= 0)
		r->in = r->own_in;
	r->own_out = reopen(1, O_WRONLY);
	if (r->own_out >= 0)
		r->out = r->own_out;
	sw_relay_resume(r);
	return 0;
}

size_t sw_relay_poll(const struct sw_relay *r, struct pollfd *pf)
{
	size_t n = 0;

	if (r->master < 0)
		return 0;
	if (!r->in_done && !r->stop_sig && r->to_prog_len < sizeof(r->to_prog))
		pf[n++] = (struct pollfd){ .fd = r->in, .events = POLLIN };
	if (!r->master_done) {
		short ev = (r->to_user_len < sizeof(r->to_user) ? POLLIN : 0) |
			   (r->to_prog_len ? POLLOUT : 0);

		if (ev)
			pf[n++] = (struct pollfd){ .fd = r->master, .events = ev };
	}
	if (r->to_user_len)
		pf[n++] = (struct pollfd){ .fd = r->out, .events = POLLOUT };
	return n;
}

/* Our input, ready: into the program's buffer.  Its end is the
 * terminal's end-of-file character (^D, which the program's line
 * discipline turns into a read of 0 in canonical mode), as script(1)
 * does; a terminal that says EIO is one we are in the background of
 * (SIGTTIN, blocked for our signalfd, would stop us): we stop as a
 * background reader does. */
static void from_user(struct sw_relay *r)
{
	ssize_t n = read(r->in, r->to_prog + r->to_prog_len,
			 sizeof(r->to_prog) - r->to_prog_len);

	if (n > 0) {
		r->to_prog_len += (size_t)n;
	} else if (n == 0) {
		r->in_done = true;
		if (r->to_prog_len < sizeof(r->to_prog))
			r->to_prog[r->to_prog_len++] = eof_char(r);
	} else if (errno == EIO && r->term >= 0 && !foreground(r->term)) {
		r->stop_sig = SIGTTIN;
	} else if (errno != EAGAIN && errno != EINTR) {
		r->in_done = true;
	}
}

static void shift(char *buf, size_t *len, size_t done)
{
	memmove(buf, buf + done, *len - done);
	*len -= done;
}

static void to_user(struct sw_relay *r)
{
	ssize_t n;

	if (!r->to_user_len || r->out_gone)
		return;
	n = write(r->out, r->to_user, r->to_user_len);
	if (n > 0)
		shift(r->to_user, &r->to_user_len, (size_t)n);
	else if (n < 0 && errno != EAGAIN && errno != EINTR)
		r->out_gone = true;
}

static void to_prog(struct sw_relay *r)
{
	ssize_t n;

	if (!r->to_prog_len)
		return;
	n = write(r->master, r->to_prog, r->to_prog_len);
	if (n > 0)
		shift(r->to_prog, &r->to_prog_len, (size_t)n);
}

static void from_prog(struct sw_relay *r)
{
	ssize_t n;

	if (r->to_user_len == sizeof(r->to_user))
		return;
	n = read(r->master, r->to_user + r->to_user_len,
		 sizeof(r->to_user) - r->to_user_len);
	if (n > 0)
		r->to_user_len += (size_t)n;
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		r->master_done = true;	/* EIO: no slave open */
}

/*
 * What was just read is written at once, without waiting for poll() to
 * say its side is ready: a terminal or a pipe with room takes it (a full
 * one says EAGAIN, and then we wait), so that a round costs one poll()
 * and one write() as in script(1), not a poll() for each side.  A master gives at most what its line discipline holds
 * (N_TTY_BUF_SIZE, 4 KiB, drivers/tty/n_tty.c) per read, and often has
 * more at once, from the pty's own buffers: it is read again until it
 * says EAGAIN or our buffer is full, and what came written in one go
 * (10 MiB through a master on the 6.18 host: about 6,600 system calls of
 * the client's, against 9,200 with one read a round).
 */
void sw_relay_io(struct sw_relay *r, const struct pollfd *pf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		short ev = pf[i].revents;

		if (!ev)
			continue;
		if (pf[i].fd == r->in && (pf[i].events & POLLIN)) {
			from_user(r);
			to_prog(r);
		} else if (pf[i].fd == r->master) {
			if (ev & POLLOUT)
				to_prog(r);
			if (ev & (POLLIN | POLLHUP | POLLERR)) {
				size_t before;
				do {
					before = r->to_user_len;
					from_prog(r);
				} while (r->to_user_len > before && !r->master_done);
				to_user(r);
			}
		} else if (pf[i].fd == r->out) {
			to_user(r);
		}
	}
	/* Output nobody reads any more (our stdout closed): dropped, so
	 * that the program never blocks on it. */
	if (r->out_gone)
		r->to_user_len = 0;
}

void sw_relay_winch(struct sw_relay *r)
{
	struct winsize ws;

	if (r->master >= 0 && r->term >= 0 && ioctl(r->term, TIOCGWINSZ, &ws) == 0)
		(void)ioctl(r->master, TIOCSWINSZ, &ws);
}

void sw_relay_suspend(struct sw_relay *r)
{
	if (!r->raw)
		return;
	(void)tcsetattr(r->term, TCSADRAIN, &r->saved);
	r->raw = false;
}

void sw_relay_resume(struct sw_relay *r)
{
	struct termios raw;

	r->stop_sig = 0;
	if (r->master < 0 || r->raw || !foreground(r->term) ||
	    tcgetattr(r->term, &r->saved) < 0)
		return;
	/* At the start, and after fg: the shell had the terminal in its
	 * own modes until now. */
	take_typed_ahead(r);
	/* As ssh -t: our terminal passes every byte; the program's own
	 * terminal echoes, edits lines and sends signals (Ctrl-C, Ctrl-Z,
	 * Ctrl-\) to its foreground group. */
	raw = r->saved;
	cfmakeraw(&raw);
	r->raw = tcsetattr(r->term, TCSADRAIN, &raw) == 0;
	sw_relay_winch(r);
}

void sw_relay_end(struct sw_relay *r)
{
	struct pollfd pf;

	if (r->master < 0)
		return;
	/* What the program wrote is in its terminal until we read it:
	 * until EIO, which the master says once no slave is open and its
	 * input is consumed (n_tty_read() waits for the last flip buffer
	 * first), or a second with nothing (a slave kept open elsewhere). */
	while (!r->master_done && !r->out_gone) {
		pf = (struct pollfd){ .fd = r->master, .events = POLLIN };
		if (r->to_user_len)
			pf = (struct pollfd){ .fd = r->out, .events = POLLOUT };
		if (poll(&pf, 1, 1000) <= 0)
			break;
		sw_relay_io(r, &pf, 1);
	}
	while (r->to_user_len && !r->out_gone) {
		pf = (struct pollfd){ .fd = r->out, .events = POLLOUT };
		if (poll(&pf, 1, 1000) <= 0)
			break;
		to_user(r);
	}
	sw_relay_suspend(r);
	close(r->master);
	r->master = -1;
	if (r->own_in >= 0)
		close(r->own_in);
	if (r->own_out >= 0)
		close(r->own_out);
	r->own_in = r->own_out = -1;
}

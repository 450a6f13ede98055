/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * "sysward run --daemon" at a terminal: the program's own terminal
 * (a pseudo-terminal syswardd made in its session) relayed by the
 * client, as ssh -t and docker run -t do: our terminal in raw mode while
 * the program runs in the foreground, bytes both ways, the window size
 * at start and on SIGWINCH, our input's end as the terminal's EOF
 * character.  The client holds the master; the daemon never reads or
 * writes it.
 */
#ifndef SYSWARD_CLIENT_RELAY_H
#define SYSWARD_CLIENT_RELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

#include "sysward/proto.h"

/* -t, -T, neither (sysward(1)). */
enum sw_tty_mode { SW_TTY_AUTO, SW_TTY_FORCE, SW_TTY_NEVER };

/* Whether the program gets a terminal of its own: forced, refused, or
 * when standard input, output and error are all at a terminal; then
 * the RUN's terminal (SW_PROTO_TTY_*) from ours: window size and modes
 * (none when no standard stream is a terminal). */
bool sw_relay_wanted(enum sw_tty_mode mode, uint32_t *ret_flags,
		     struct sw_proto_tty *ret_tty);

#define SW_RELAY_BUF 16384
#define SW_RELAY_POLLFDS 3

struct sw_relay {
	int master;		/* -1: no terminal to relay */
	int in, out;		/* ours, non-blocking where we could */
	int own_in, own_out;	/* in, out when opened here (closed) */
	int term;		/* our terminal among 0-2, or -1 */
	bool raw;		/* term is in raw mode (saved: its modes) */
	struct termios saved;
	bool in_done, master_done, out_gone;
	int stop_sig;		/* we must stop by it (SIGTTIN), 0: no */
	char to_prog[SW_RELAY_BUF];
	size_t to_prog_len;
	char to_user[SW_RELAY_BUF];
	size_t to_user_len;
};

/* Start relaying master (ours from here on): our terminal in raw mode
 * if we are its foreground.  0, or -1 with the error said. */
int sw_relay_start(struct sw_relay *r, int master);
/* Its descriptors to poll, into pf (SW_RELAY_POLLFDS at most): how
 * many. */
size_t sw_relay_poll(const struct sw_relay *r, struct pollfd *pf);
/* After poll(): what they are ready for. */
void sw_relay_io(struct sw_relay *r, const struct pollfd *pf, size_t n);
/* SIGWINCH: our window size to the program's terminal (the kernel
 * signals its foreground group, tty_do_resize()). */
void sw_relay_winch(struct sw_relay *r);
/* Around our own stop (the program stopped): our terminal as it was,
 * then raw again once continued, if we are its foreground. */
void sw_relay_suspend(struct sw_relay *r);
void sw_relay_resume(struct sw_relay *r);
/* The program ended: what it wrote still in the terminal goes out,
 * our terminal as it was, the master closed.  Safe to call twice, and
 * without a start. */
void sw_relay_end(struct sw_relay *r);

#endif

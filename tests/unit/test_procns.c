// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's own /proc (engine/contain/procns.c): what the planner puts back
 * over the new proc instance, from mount tables as systemd-nspawn, a
 * runtime's masks and the tests' own mounts lay them out.  Pure: the
 * table is a file, nothing is mounted.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "check_run.h"
#include "contain/nsbox.h"

/* systemd-nspawn's /proc (Debian 12): boot_id over its file, then /proc/sys
 * bound read-only over the directory above it (recursively: its own copy
 * of boot_id), sysrq-trigger read-only, and a FIFO over kmsg that nspawn
 * then removed. */
#define NSPAWN \
	"480 1 0:50 / / rw,relatime - ext4 /dev/vda rw\n" \
	"500 480 0:60 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n" \
	"501 500 0:61 /boot-id /proc/sys/kernel/random/boot_id ro,nosuid,nodev,noexec - tmpfs tmpfs rw\n" \
	"502 500 0:60 /sys /proc/sys ro,nosuid,nodev,noexec,relatime - proc proc rw\n" \
	"503 502 0:61 /boot-id /proc/sys/kernel/random/boot_id ro,nosuid,nodev,noexec - tmpfs tmpfs rw\n" \
	"504 500 0:60 /sysrq-trigger /proc/sysrq-trigger ro,nosuid,nodev,noexec,relatime - proc proc rw\n" \
	"506 500 0:61 /kmsg//deleted /proc/kmsg rw,nosuid,nodev,noexec - tmpfs tmpfs rw\n"

static const struct {
	const char *name;
	const char *table;
	int r;			/* 0 or the -errno */
	const char *msg;	/* with r: the start of the message */
	const char *subs;	/* with 0: "path=id ..." in order (NULL: any) */
} cases[] = {
	{ "host: nothing beneath /proc",
	  "480 1 0:50 / / rw - ext4 /dev/vda rw\n"
	  "500 480 0:60 / /proc rw,nosuid,nodev,noexec - proc proc rw\n",
	  0, NULL, "" },
	{ "nspawn: boot_id beneath /proc is hidden by /proc/sys",
	  NSPAWN, 0, NULL,
	  "/proc/sys=502 /proc/sysrq-trigger=504 /proc/kmsg=506" },
	/* A recursive bind of /proc/sys over nspawn's (the tests, systemd's
	 * ProtectKernelTunables in a container): the path shows the top
	 * one, which is the one to clone and the one the child checks. */
	{ "nspawn, /proc/sys bound again over itself",
	  NSPAWN
	  "600 502 0:60 /sys /proc/sys ro,nosuid,nodev,noexec - proc proc rw\n"
	  "601 600 0:61 /boot-id /proc/sys/kernel/random/boot_id ro - tmpfs tmpfs rw\n",
	  0, NULL,
	  "/proc/sys=600 /proc/sysrq-trigger=504 /proc/kmsg=506" },
	{ "three mounts stacked on one path",
	  "480 1 0:50 / / rw - ext4 /dev/vda rw\n"
	  "500 480 0:60 / /proc rw - proc proc rw\n"
	  "510 500 0:62 / /proc/acpi ro - tmpfs tmpfs ro\n"
	  "511 510 0:63 / /proc/acpi ro - tmpfs tmpfs ro\n"
	  "512 511 0:64 / /proc/acpi ro - tmpfs tmpfs ro\n",
	  0, NULL, "/proc/acpi=512" },
	/* What shows processes is judged on the mount a path shows: /proc
	 * bound over a runtime's tmpfs at /proc/acpi. */
	{ "a proc that shows processes, stacked over a mask",
	  "480 1 0:50 / / rw - ext4 /dev/vda rw\n"
	  "500 480 0:60 / /proc rw - proc proc rw\n"
	  "510 500 0:62 / /proc/acpi ro - tmpfs tmpfs ro\n"
	  "511 510 0:60 / /proc/acpi rw - proc proc rw\n",
	  -EPERM, "/proc/acpi, beneath /proc, is a proc mount that shows processes", NULL },
	/* A table whose stack loops (an id twice; no kernel writes one):
	 * the walk ends all the same. */
	{ "a stack that loops",
	  "480 1 0:50 / / rw - ext4 /dev/vda rw\n"
	  "500 480 0:60 / /proc rw - proc proc rw\n"
	  "510 500 0:62 / /proc/acpi ro - tmpfs tmpfs ro\n"
	  "511 510 0:62 / /proc/acpi ro - tmpfs tmpfs ro\n"
	  "512 511 0:62 / /proc/acpi ro - tmpfs tmpfs ro\n"
	  "511 512 0:62 / /proc/acpi ro - tmpfs tmpfs ro\n",
	  0, NULL, NULL },
};

START_TEST(test_plan)
{
	char path[] = "/tmp/sw-procns-XXXXXX", got[512] = "";
	struct sw_procns p = { 0 };
	struct sw_error err = { 0 };
	int fd = mkstemp(path), r;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	ck_assert_ptr_nonnull(f);
	fputs(cases[_i].table, f);
	fclose(f);
	r = sw_procns_plan_from(path, &p, &err);
	unlink(path);
	ck_assert_msg(r == cases[_i].r, "%s: returned %d (%s), expected %d",
		      cases[_i].name, r, err.msg, cases[_i].r);
	if (r < 0) {
		ck_assert_msg(strncmp(err.msg, cases[_i].msg, strlen(cases[_i].msg)) == 0,
			      "%s: message \"%s\"", cases[_i].name, err.msg);
		return;
	}
	for (size_t s = 0; s < p.n_sub; s++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s=%d",
			 s ? " " : "", p.sub[s].path, p.sub[s].mnt_id);
	ck_assert_msg(!cases[_i].subs || strcmp(got, cases[_i].subs) == 0, "%s: put back \"%s\", expected \"%s\"",
		      cases[_i].name, got, cases[_i].subs);
	sw_procns_free(&p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("procns");
	TCase *tc = tcase_create("plan");

	tcase_add_loop_test(tc, test_plan, 0, sizeof(cases) / sizeof(cases[0]));
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}

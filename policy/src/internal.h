/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the policy parser's files; not part of the API. */
#ifndef SW_POLICY_INTERNAL_H
#define SW_POLICY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysward/limits.h"

/* ---- limits on everything a policy author controls ---- */
#define SW_POLICY_MAX_FILE	SW_LIMIT_POLICY_BYTES	/* bytes of JSON */
#define SW_POLICY_MAX_DEPTH	16		/* JSON nesting */
#define SW_POLICY_MAX_RULES	SW_LIMIT_RULES
#define SW_POLICY_MAX_NAMES	1024		/* names per rule */
#define SW_POLICY_MAX_NAME_LEN	64		/* syscall, constant names */
#define SW_POLICY_MAX_ARGS	6		/* args, paths, rewrites */
#define SW_POLICY_MAX_ARCHES	32
#define SW_POLICY_MAX_CAPS	64
#define SW_POLICY_MAX_STRING	4096		/* patterns, comments, values */
#define SW_POLICY_MAX_WARNINGS	64
#define SW_POLICY_MAX_UNKNOWN	256		/* dropped unknown names */

/* ---- suggestions ("did you mean ...?") ---- */
struct sw_suggest {
	const char *word;
	const char *best;
	size_t best_dist;
};
void sw_suggest_init(struct sw_suggest *s, const char *word);
void sw_suggest_feed(struct sw_suggest *s, const char *candidate);
/* The closest candidate if it is close enough to be a likely typo. */
const char *sw_suggest_result(const struct sw_suggest *s);

/* ---- constants and value expressions (values.c) ---- */
/*
 * Parse "O_WRONLY|O_CREAT", "~O_CREAT", "0x40", "0644", "-100".  On failure
 * return -EINVAL and write the reason (without path) into why.
 */
int sw_value_parse(const char *s, uint64_t *ret, char *why, size_t why_len);
/* errno by name ("EIO") or -1. */
int sw_errno_from_name(const char *name);
/* "EIO" for 5, NULL if unknown. */
const char *sw_errno_name(int e);

/* ---- architectures and system calls (syscalls.c) ---- */
struct sw_arch_info {
	const char *scmp_name;	/* "SCMP_ARCH_X86_64" */
	uint32_t token;		/* 0 if this libseccomp lacks it */
	const char *oci;	/* "amd64", for includes.arches */
	const char *oci_alt;	/* another spelling Docker uses, or NULL */
};
const struct sw_arch_info *sw_arch_by_scmp_name(const char *name);
const struct sw_arch_info *sw_arch_by_token(uint32_t token);
bool sw_oci_arch_known(const char *name);
void sw_arch_suggest_scmp(struct sw_suggest *s);
void sw_arch_suggest_oci(struct sw_suggest *s);
/* "SCMP_ARCH_X86, SCMP_ARCH_X86_64, ..." for messages. */
void sw_arch_list_scmp(char *buf, size_t len);

enum sw_syscall_status {
	SW_SYSCALL_UNKNOWN,		/* not a syscall we know of */
	SW_SYSCALL_NEWER,		/* a Linux syscall this libseccomp lacks */
	SW_SYSCALL_OTHER_ARCH,		/* libseccomp knows it, not on these arches */
	SW_SYSCALL_OK,			/* exists on one of the arches */
};
enum sw_syscall_status sw_syscall_status(const char *name,
					 const uint32_t *arches, size_t n);

/* The closest known syscall name if it looks like a typo of name. */
const char *sw_syscall_suggest(const char *name);

#endif

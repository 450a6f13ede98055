# Shared by scripts/build-kernel and scripts/check-series (sourced, not run).
# Callers set $prog (the name used in messages) and $top (the repository).

say() { echo "$prog: $*" >&2; }
die() { echo "$prog: error: $*" >&2; exit 1; }

sha256() { sha256sum "$@" | cut -d' ' -f1; }

# The architectures a guest kernel is built for, and what differs between
# them: one line each, read by arch_setup (the one home of these facts).
#   ARCH     make ARCH=  CROSS_COMPILE=         image (in the tree)       name
kernel_arches='
x86_64   -      -                      arch/x86/boot/bzImage     bzImage
arm64    arm64  aarch64-linux-gnu-     arch/arm64/boot/Image     Image
riscv64  riscv  riscv64-linux-gnu-     arch/riscv/boot/Image     Image
'

# arch_setup ARCH: sets arch karch cross image_src image_name (see above)
# kmake[] (make with ARCH and CROSS_COMPILE) and tag_prefix: the cache
# directory prefix of this architecture's builds
# (empty for x86_64, whose builds were cached before there were others).
arch_setup() {
	local line
	line=$(awk -v a="$1" '$1 == a' <<<"$kernel_arches")
	[ -n "$line" ] || die "unknown architecture '$1': one of" \
		"$(awk 'NF {printf "%s ", $1}' <<<"$kernel_arches")"
	read -r arch karch cross image_src image_name <<<"$line"
	[ "$karch" = - ] && karch=
	[ "$cross" = - ] && cross=
	tag_prefix=
	[ "$arch" = x86_64 ] || tag_prefix=$arch-
	# make for this architecture (an array: nice runs it too).
	kmake=(make ${karch:+ARCH=$karch} ${cross:+CROSS_COMPILE=$cross})
}


# Checks the host tools a kernel build needs; names the packages to install.
check_build_tools() {
	local missing=() cmd pkg
	for cmd in make:make gcc:gcc flex:flex bison:bison bc:bc perl:perl \
		   xz:xz-utils patch:patch; do
		command -v "${cmd%%:*}" >/dev/null 2>&1 || missing+=("${cmd#*:}")
	done
	[ -e /usr/include/gelf.h ] || missing+=(libelf-dev)
	[ -e /usr/include/openssl/opensslv.h ] || missing+=(libssl-dev)
	case ${arch:-x86_64} in
	x86_64)	# the i386 compat selftest (gcc -m32 -static)
		[ -e /usr/include/x86_64-linux-gnu/gnu/stubs-32.h ] ||
			[ -e /usr/include/gnu/stubs-32.h ] ||
			missing+=(libc6-dev-i386 lib32gcc-12-dev) ;;
	*)	# the cross compiler and the target's libc (static selftests)
		command -v "${cross}gcc" >/dev/null 2>&1 ||
			missing+=("gcc-${cross%-}")
		[ -e "/usr/${cross%-}/lib/libc.a" ] ||
			missing+=("libc6-dev-$karch-cross") ;;
	esac
	# arm64's AArch32 tracee (the selftest Makefile's default
	# COMPAT32_CROSS_COMPILE): without it the compat cases would skip.
	if [ "${arch:-x86_64}" = arm64 ]; then
		command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 ||
			missing+=(gcc-arm-linux-gnueabihf)
	fi
	if [ ${#missing[@]} -gt 0 ]; then
		die "missing build tools: ${missing[*]}. Install them with:" \
		    "apt-get install -y --no-install-recommends ${missing[*]}" \
		    "(or run scripts/install-deps as root)"
	fi
	return 0
}

# kernel_inputs KIND [ARCH]: computes the cache key of a build from its
# inputs (ARCH: x86_64 by default, see kernel_arches).
# Sets: cache tarball tarsha frag frags[] series_dir series[] manifest key
# outdir tag, and what arch_setup sets.
kernel_inputs() {
	local kind=$1 st hashfile p
	arch_setup "${2:-x86_64}"
	tarball=${SYSWARD_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
	if [ ! -r "$tarball" ]; then
		die "$tarball not found: the Debian package linux-source-6.12 is" \
		    "not installed. Install it with: apt-get install -y" \
		    "linux-source-6.12 (or run scripts/install-deps as root)"
	fi
	cache=${SYSWARD_KERNEL_CACHE:-/var/cache/sysward/kernel}
	if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
		die "cannot write the kernel cache $cache: run as root or set" \
		    "SYSWARD_KERNEL_CACHE to a writable directory"
	fi
	cache=$(cd "$cache" && pwd)

	# Hashing 150 MB takes a second; remember it per (size, mtime, inode).
	st=$(stat -L -c '%s-%Y-%i' "$tarball")
	hashfile=$cache/.tarball-$(echo "$tarball $st" | sha256sum | cut -c1-16)
	if [ -s "$hashfile" ]; then
		tarsha=$(cat "$hashfile")
	else
		tarsha=$(sha256 "$tarball")
		echo "$tarsha" >"$hashfile"
	fi

	series_dir=${SYSWARD_SERIES_DIR:-$top/kernel-series}
	frag=${SYSWARD_KERNEL_CONFIG:-$top/kernel-series/sysward.config}
	[ -r "$frag" ] || die "config fragment $frag not found"
	# The architecture's fragment sits beside the common one.
	frags=("$frag" "${frag%.config}-$arch.config")
	[ -r "${frags[1]}" ] || die "config fragment ${frags[1]} (the $arch part) not found"
	series=()
	for p in "$series_dir"/0*.patch; do
		[ -e "$p" ] || continue
		case ${p##*/} in 0000-*) continue ;; esac   # cover letter
		series+=("$p")
	done

	manifest="kind $kind
arch $arch
tarball $tarsha ${tarball##*/}
config $(sha256 "$frag")
config-$arch $(sha256 "${frags[1]}")
build-kernel $(sha256 "$top/scripts/build-kernel" "$top/scripts/lib-kernel.sh" | sha256sum | cut -d' ' -f1)"
	if [ "$kind" != unpatched ]; then
		[ ${#series[@]} -gt 0 ] || die "no patches (0*.patch) in $series_dir"
		for p in "${series[@]}"; do
			manifest+="
patch $(sha256 "$p") ${p##*/}"
		done
	fi
	key=$(printf '%s\n' "$manifest" | sha256sum | cut -c1-16)
	tag=$tag_prefix$kind
	outdir=$cache/$tag-$key
}

# cache_lock NAME: holds $cache/NAME.lock (fd 9) until the script exits.
cache_lock() {
	exec 9>"$cache/$1.lock"
	if ! flock -n 9; then
		say "waiting for another build holding $cache/$1.lock"
		flock 9
	fi
}

# pristine_tree: prints the directory of the extracted, unmodified tarball
# (extracted once per tarball hash, shared by every build and check).
pristine_tree() {
	local dir=$cache/pristine-${tarsha:0:16} t0
	if [ ! -e "$dir/.complete" ]; then
		(
			exec 8>"$dir.lock"
			flock 8
			if [ ! -e "$dir/.complete" ]; then
				t0=$(date +%s)
				say "extracting $tarball (once per tarball, about 20 s)"
				rm -rf "$dir" "$dir.tmp"
				mkdir -p "$dir.tmp"
				tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1 ||
					die "cannot extract $tarball into $dir.tmp"
				touch "$dir.tmp/.complete"
				mv "$dir.tmp" "$dir"
				say "extracted in $(( $(date +%s) - t0 )) s"
			fi
		)
	fi
	echo "$dir"
}

# copy_tree FROM TO: a private, writable copy of the pristine tree.
copy_tree() {
	rm -rf "$2"
	cp -a --reflink=auto "$1" "$2" || die "cannot copy $1 to $2 (disk full?)"
	rm -f "$2/.complete"
}

# claim_tree KIND TREE: makes TREE a tree of the tarball with no patch
# applied but the first $series_kept of ${series[@]}, reusing an earlier
# build's tree when possible so that make only rebuilds what changed
# (minutes instead of a full build):
#  - the source tree of an earlier build of KIND that no build is using is
#    moved here;
#  - else the tree of a finished build of the other kind is copied;
# and the patches applied to it are reverted (patch -R), except the
# longest run of them, from the first, that is identical to the start of
# ${series[@]} when KIND is patched: reverting and re-applying those would
# only give their files new times and make rebuild what includes them (a
# change to the selftest patch alone then rebuilds no kernel object). Falls
# back to a fresh copy of the pristine tree (series_kept 0). A tree records its base (.sysward-base)
# and the patches applied to it, in order (.sysward-applied/); a tree left
# half-patched is marked .sysward-dirty and never reused.
claim_tree() {
	local kind=$1 tree=$2 other=patched cand d p ok how applied keep
	[ "$kind" = patched ] && other=unpatched
	series_kept=0
	rm -rf "$tree"
	# Trees of this architecture only ($tag_prefix): another's objects
	# would all be rebuilt anyway.
	for cand in $(ls -dt "$cache/$tag_prefix$kind"-*/src 2>/dev/null) \
		    $(ls -dt "$cache/$tag_prefix$other"-*/ok 2>/dev/null | sed 's|/ok$|/src|'); do
		d=${cand%/src}
		[ "$d" = "${tree%/src}" ] && continue
		[ -d "$cand" ] || continue
		[ -e "$cand/.sysward-dirty" ] && continue
		[ "$(cat "$cand/.sysward-base" 2>/dev/null)" = "$tarsha" ] || continue
		exec 7>"$d.lock"
		flock -n 7 || { exec 7>&-; continue; }
		case ${d##*/} in
		"$tag_prefix$kind"-*)
			how="moved the source tree of ${d##*/}"
			mv "$cand" "$tree" || { exec 7>&-; continue; }
			;;
		*)
			how="copied the built tree of ${d##*/}"
			say "copying the built tree of ${d##*/}"
			cp -a --reflink=auto "$cand" "$tree" || { exec 7>&-; rm -rf "$tree"; continue; }
			;;
		esac
		exec 7>&-
		ok=1 keep=0
		if [ -d "$tree/.sysward-applied" ]; then
			mapfile -t applied < <(ls "$tree/.sysward-applied")
			if [ "$kind" = patched ]; then
				while [ "$keep" -lt ${#applied[@]} ] && [ "$keep" -lt ${#series[@]} ] &&
				      cmp -s "$tree/.sysward-applied/${applied[$keep]}" "${series[$keep]}"; do
					keep=$((keep + 1))
				done
			fi
			for p in $(ls -r "$tree/.sysward-applied" | head -n $((${#applied[@]} - keep))); do
				if ! patch -d "$tree" -R -p1 --batch --forward -F0 -s --no-backup-if-mismatch \
					-r - -i "$tree/.sysward-applied/$p" >/dev/null 2>&1; then
					ok=0
					break
				fi
				rm -f "$tree/.sysward-applied/$p"
			done
		fi
		if [ "$ok" = 1 ]; then
			series_kept=$keep
			if [ "$keep" -gt 0 ]; then
				say "$how (the first $keep of its patches kept, unchanged;" \
				    "the others reverted): incremental build"
			else
				say "$how (its patches reverted): incremental build"
			fi
			return 0
		fi
		say "cannot revert the patches of the tree of ${d##*/}; using a fresh tree"
		rm -rf "$tree"
		break
	done
	copy_tree "$(pristine_tree)" "$tree"
	echo "$tarsha" >"$tree/.sysward-base"
}

# apply_series TREE REJDIR FUZZ [FIRST]: applies ${series[@]} in order with
# patch -p1, from index FIRST (default 0: those before are applied already).
# On failure names the patch, shows patch's report and the rejected hunks,
# and exits. Sets $apply_notes to the offset/fuzz lines seen.
apply_series() {
	local tree=$1 rejdir=$2 fuzz=$3 first=${4:-0} p name out
	apply_notes=
	mkdir -p "$rejdir" "$tree/.sysward-applied"
	touch "$tree/.sysward-dirty"
	for p in "${series[@]:$first}"; do
		name=${p##*/}
		if ! out=$(patch -d "$tree" -p1 --batch --forward -F "$fuzz" \
			   --no-backup-if-mismatch -r "$rejdir/$name.rej" -i "$p" 2>&1); then
			echo "$out" | sed 's/^/    /' >&2
			if [ -s "$rejdir/$name.rej" ]; then
				echo "  rejected hunks ($rejdir/$name.rej):" >&2
				sed 's/^/    /' "$rejdir/$name.rej" | head -n 80 >&2
			fi
			die "patch $name does not apply to ${tarball##*/}" \
			    "(after the patches before it, fuzz $fuzz)"
		fi
		rm -f "$rejdir/$name.rej"
		cp "$p" "$tree/.sysward-applied/$(printf '%03d' "$(ls "$tree/.sysward-applied" | wc -l)")-$name"
		if echo "$out" | grep -q 'offset\|fuzz'; then
			apply_notes+="$name:"$'\n'"$(echo "$out" | grep 'offset\|fuzz\|^patching')"$'\n'
		fi
	done
	rm -f "$tree/.sysward-dirty"
	rmdir "$rejdir" 2>/dev/null || true
}

# run_logged DESC LOG CMD...: runs CMD with its output appended to LOG,
# printing a status line every 30 s; on failure shows the log's tail.
run_logged() {
	local desc=$1 log=$2 pid rc t0 now last n
	shift 2
	echo "### $desc: $*" >>"$log"
	"$@" >>"$log" 2>&1 &
	pid=$!
	trap 'kill '"$pid"' 2>/dev/null; exit 130' INT TERM
	t0=$(date +%s)
	last=$t0
	say "$desc..."
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		if [ $((now - last)) -ge 30 ]; then
			last=$now
			n=$(grep -c '^  \(CC\|AS\|LD\)' "$log" || true)
			say "  $desc: $((now - t0)) s, $n objects built," \
			    "last: $(grep '^  [A-Z]' "$log" | tail -n1 | sed 's/^ *//')"
		fi
	done
	rc=0
	wait "$pid" || rc=$?
	trap - INT TERM
	if [ "$rc" -ne 0 ]; then
		echo "---- last lines of $log ----" >&2
		tail -n 40 "$log" >&2
		echo "----" >&2
		die "$desc failed (exit $rc); full log: $log"
	fi
	say "$desc done in $(( $(date +%s) - t0 )) s"
}

# configure_tree TREE LOG FRAGMENT...: tinyconfig + the fragments, for the
# architecture of arch_setup, and checks that every option of the fragments
# survived Kconfig's dependency resolution.
configure_tree() {
	local tree=$1 log=$2 line opt val bad=()
	shift 2
	run_logged "make tinyconfig" "$log" "${kmake[@]}" -C "$tree" tinyconfig
	# merge_config.sh runs make alldefconfig: it needs ARCH too.
	(cd "$tree" && env ${karch:+ARCH=$karch} ${cross:+CROSS_COMPILE=$cross} \
		./scripts/kconfig/merge_config.sh -m .config "$@") >>"$log" 2>&1 ||
		die "merge_config.sh failed on $*; see $log"
	run_logged "make olddefconfig" "$log" "${kmake[@]}" -C "$tree" olddefconfig
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$tree/.config" || bad+=("$line")
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			grep -q "^$opt=" "$tree/.config" && bad+=("$line")
			;;
		esac
	done < <(cat "$@")
	if [ ${#bad[@]} -gt 0 ]; then
		die "Kconfig dropped options of $* (missing dependency?): ${bad[*]}"
	fi
	return 0
}

# build_selftests TREE HDRDIR OUTDIR LOG: the ptrace selftests, static, built
# against the uapi headers of the patched tree.
build_selftests() {
	local tree=$1 hdr=$2 out=$3 log=$4
	mkdir -p "$out"
	run_logged "build ptrace selftests" "$log" \
		nice -n 10 "${kmake[@]}" -C "$tree/tools/testing/selftests/ptrace" \
			KHDR_INCLUDES="-isystem $hdr/include" USERLDFLAGS=-static \
			OUTPUT="$out"
	# The list of tests to run (TEST_GEN_PROGS, TEST_PROGS; helpers such as
	# an i386 tracee are TEST_GEN_FILES and not run directly), and the
	# sources, from which the tests count the cases they expect.
	printf 'sw-print-tests:\n\t@echo $(TEST_GEN_PROGS) $(TEST_PROGS)\n' >"$out/.print.mk"
	"${kmake[@]}" -s -C "$tree/tools/testing/selftests/ptrace" -f Makefile -f "$out/.print.mk" \
		OUTPUT="$out" sw-print-tests | tr ' ' '\n' | sed -n 's|.*/||p; /^[^/]*$/p' |
		sed '/^$/d' | sort -u >"$out/TESTS"
	rm -f "$out/.print.mk"
	mkdir -p "$out-src"
	cp "$tree/tools/testing/selftests/ptrace/"*.c "$out-src/"
	[ -s "$out/TESTS" ] || die "no selftests listed by the ptrace Makefile; see $log"
	local t
	while read -r t; do
		[ -x "$out/$t" ] || die "selftest $t was not built in $out; see $log"
	done <"$out/TESTS"
}

# prune_old_trees TAG KEEPDIR: keeps the source trees of the two newest
# builds of TAG (KIND, or ARCH-KIND); older builds keep their outputs but
# lose src/ (1.5 GB each).
prune_old_trees() {
	local tag=$1 d n=0
	for d in $(ls -dt "$cache/$tag"-*/ok 2>/dev/null); do
		d=${d%/ok}
		n=$((n + 1))
		[ "$n" -le 2 ] && continue
		[ "$d" = "$2" ] && continue
		[ -d "$d/src" ] || continue
		( exec 8>"$d.lock"; flock -n 8 && rm -rf "$d/src" ) || true
	done
}

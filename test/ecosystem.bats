#!/usr/bin/env bats
# Fitting where users work: every flag documented everywhere, man pages that
# lint, an install that puts every piece where tools look for it, kubectl
# plugin names, the pre-commit hook, the examples, and the real-world files
# in ../shared/data/real.

load test_helper/common

tools="pc-validate pp-match victims preempt-plan apiq-sim"

# Long options a tool's --help lists (apiq-sim's modes and preempt-plan
# --simulate included).
help_flags() {
	{
		"$1" --help
		[ "$1" = apiq-sim ] && { apiq-sim step --help; apiq-sim run --help; } 2>/dev/null
		[ "$1" = preempt-plan ] && { preempt-plan --simulate --help; preempt-plan --replay --help; } 2>/dev/null
	} | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u
}

@test "every tool: --help and --version exit 0 on stdout; a bad option exits 2" {
	for t in $tools; do
		run "$t" --help; [ "$status" -eq 0 ] || { echo "$t --help: $status"; return 1; }
		[[ "$output" == *"Usage"* || "$output" == *"usage"* ]] || { echo "$t: no usage"; return 1; }
		run "$t" --version; [ "$status" -eq 0 ]; [[ "$output" == "$t "* ]] || { echo "$t --version: $output"; return 1; }
		run "$t" --no-such-option; [ "$status" -eq 2 ] || { echo "$t bad option: $status"; return 1; }
	done
}

@test "every --help flag is in the man page and the bash, zsh and fish completions, and back" {
	for t in $tools; do
		man=$(mandoc -Tascii "$ROOT/share/man/man1/$t.1" | col -b)
		for f in $(help_flags "$t"); do
			grep -qF -- "$f" <<<"$man" || { echo "$t: $f missing from $t.1"; return 1; }
			grep -qF -- "$f" "$ROOT/completions/bash/$t" || { echo "$t: $f missing from bash completion"; return 1; }
			grep -qF -- "$f" "$ROOT/completions/zsh/_$t" || { echo "$t: $f missing from zsh completion"; return 1; }
			grep -qE -- "-l ${f#--}( |$)" "$ROOT/completions/fish/$t.fish" || { echo "$t: $f missing from fish completion"; return 1; }
		done
		# and nothing documented that the tool does not know
		for f in $(grep -oE -- "-l [a-z][a-z0-9-]+" "$ROOT/completions/fish/$t.fish" | sed 's/^-l /--/' | sort -u); do
			help_flags "$t" | grep -qxF -- "$f" || { echo "$t: fish completes $f, which --help does not list"; return 1; }
		done
	done
}

@test "man pages are mandoc -Tlint clean and have EXIT STATUS and EXAMPLES" {
	for t in $tools; do
		run mandoc -Tlint -W warning "$ROOT/share/man/man1/$t.1"
		[ "$status" -eq 0 ] || { echo "$t.1: $output"; return 1; }
		grep -q '^\.Sh EXIT STATUS' "$ROOT/share/man/man1/$t.1"
		grep -q '^\.Sh EXAMPLES' "$ROOT/share/man/man1/$t.1"
	done
}

@test "make install puts binaries, kubectl plugins, man pages, completions and samples in place" {
	dest="$BATS_TEST_TMPDIR/dest"
	run make -C "$ROOT" -s install-files DESTDIR="$dest" PREFIX=/usr/local B="$BIN"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	p="$dest/usr/local"
	for t in $tools; do
		[ -x "$p/bin/$t" ]
		[ -L "$p/bin/kubectl-${t//-/_}" ] && [ -x "$p/bin/kubectl-${t//-/_}" ]
		[ -f "$p/share/man/man1/$t.1" ]
		[ -f "$p/share/bash-completion/completions/$t" ]
		[ -f "$p/share/zsh/vendor-completions/_$t" ]
		[ -f "$p/share/fish/vendor_completions.d/$t.fish" ]
		run "$p/bin/$t" --version; [ "$status" -eq 0 ]
	done
	[ -f "$p/share/preemptkit/sample/cluster.json" ]
	# the bash completion loads and completes an option
	run bash -c "source /usr/share/bash-completion/bash_completion; source '$p/share/bash-completion/completions/victims';
		COMP_WORDS=(victims --pre); COMP_CWORD=1; COMP_LINE='victims --pre'; COMP_POINT=\${#COMP_LINE}; _init_completion() { cur=--pre; prev=victims; words=(victims --pre); cword=1; }; \$(complete -p victims | sed 's/.*-F \([^ ]*\).*/\1/'); printf '%s\n' \"\${COMPREPLY[@]}\""
	assert_output --partial -- "--preemptor"
	# kubectl finds plugins by name: kubectl-victims answers as victims
	run "$p/bin/kubectl-victims" --version
	assert_output --partial "victims"
}

@test "make keeps its objects: after make, make has nothing to do (make && make demo compiled every tool twice)" {
	# A compiler that only writes its outputs (the object, and with -MMD its
	# dependency file): the Makefile's own logic, in a second.
	cc=$BATS_TEST_TMPDIR/cc
	cat >"$cc" <<'SH'
#!/bin/sh
out= src= deps=
for a; do case $a in *.c) src=$a ;; -MMD) deps=1 ;; esac; done
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
[ -n "$out" ] && : >"$out"
[ -n "$deps" ] && [ -n "$src" ] && echo "$out: $src" >"${out%.o}.d"
exit 0
SH
	chmod +x "$cc"
	set -- -C "$ROOT" CC="$cc" O="$BATS_TEST_TMPDIR/o" B="$BATS_TEST_TMPDIR/bin"
	run make -s "$@" all unit
	assert_success
	run make -q "$@" all unit
	assert_success
	[ -f "$BATS_TEST_TMPDIR/o/cmd/victims/main.o" ]
}

@test "the pre-commit hooks run as pre-commit runs them (no file names: the staged commit)" {
	hooks="$ROOT/.pre-commit-hooks.yaml"
	[ -f "$hooks" ]
	entry=$(awk '/- id: pc-validate$/ { f = 1 } f && /entry:/ { sub(/^ *entry: */, ""); print; exit }' "$hooks")
	[ "$entry" = "pc-validate --staged" ]
	mkdir -p "$BATS_TEST_TMPDIR/repo" && cd "$BATS_TEST_TMPDIR/repo" && git init -q
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: good}\nvalue: 10\n' >good.yaml
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-bad}\nvalue: 10\n' >bad.yaml
	git add good.yaml
	run $entry
	[ "$status" -eq 0 ]
	git add bad.yaml
	run $entry
	[ "$status" -eq 1 ]
	assert_output --partial "bad.yaml:3:"
}

@test "the pp-match hook runs as pre-commit runs it" {
	entry=$(awk '/- id: pp-match$/ { f = 1 } f && /entry:/ { sub(/^ *entry: */, ""); print; exit }' "$ROOT/.pre-commit-hooks.yaml")
	[ "$entry" = "pp-match -o table --staged" ]
	# in a repository of its own, as pre-commit runs it (nothing committed yet)
	mkdir -p "$BATS_TEST_TMPDIR/repo" && cd "$BATS_TEST_TMPDIR/repo" && git init -q
	cp "$ROOT/share/examples/karmada/policies.yaml" "$ROOT/share/examples/karmada/templates.yaml" .
	git add -A
	run $entry
	[ "$status" -le 1 ]
	assert_output --partial "RESOURCE"
}

@test "the examples in share/examples run and do what they say" {
	n=0
	for ex in "$ROOT"/share/examples/*.sh; do
		[ -f "$ex" ] || continue
		n=$((n + 1))
		run env PATH="$BIN:$PATH" bash "$ex"
		[ "$status" -eq 0 ] || { echo "$ex: exit $status"; echo "$output" | tail -20; return 1; }
	done
	[ "$n" -ge 3 ]
}

@test "every real file in ../shared/data/real is read without error by the tools it concerns" {
	[ -d "$SHARED" ] || skip "no ../shared/data/real here"
	for f in "$SHARED"/priorityclasses/* "$SHARED"/workloads/*; do
		run pc-validate -o json "$f"
		[ "$status" -le 1 ] || { echo "$f: exit $status: $output"; return 1; }
		! grep -q '"type":"ParseError"' <<<"$output" || { echo "$f: $output"; return 1; }
	done
	for f in "$SHARED"/kubectl/*; do
		run victims --stats --pending "$f"
		# a file without nodes is no snapshot: exit 2, said (README, Exit status)
		[ "$status" -le 1 ] || [[ $status -eq 2 && $output == *"no Node objects in the input"* ]] ||
			{ echo "$f: exit $status: $output"; return 1; }
		[[ "$output" != *"unreadable 1"* ]] || { echo "$f: $output"; return 1; }
	done
	for f in "$SHARED"/karmada/*; do
		run pp-match "$f"
		[ "$status" -le 1 ] || { echo "$f: exit $status: $output"; return 1; }
	done
}

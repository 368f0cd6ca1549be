#!/usr/bin/env bats
# The release, as a user gets it: the source archive (make dist), the Debian
# package (make deb), the static archives for amd64 and arm64 (make static)
# and the krew manifests (make krew). The artifacts are built once, by
# `make release-test` (test/check's release step), which sets PK_RELEASE=1;
# in the other suites these tests are skipped.

load test_helper/common

tools="pc-validate pp-match victims preempt-plan apiq-sim"

setup_file() {
	export VERSION DIST
	VERSION=$(sed -n 's/^#define PK_VERSION "\(.*\)"$/\1/p' "$ROOT/common/version.h")
	DIST=$ROOT/dist
}

setup() {
	[ "${PK_RELEASE:-}" = 1 ] || skip "release artifacts: built and tested once by make release-test (test/check's release step)"
}

# A runner for an architecture's binaries: arm64 under Debian's qemu-user-static,
# called directly (binfmt_misc may not be registered).
# What `TOOL --version` prints: the version, and the Kubernetes release the
# tool answers for (pp-match answers for Karmada and names none).
version_line() {
	if [ "$1" = pp-match ]; then echo "$1 $VERSION"; else echo "$1 $VERSION (answers for Kubernetes 1.37)"; fi
}
runner() { [ "$1" = arm64 ] && echo qemu-aarch64-static; true; }

unpack_static() { # arch -> prints the prefix it is unpacked into, as README's install command does
	local d=$BATS_TEST_TMPDIR/$1
	mkdir -p "$d" && tar -xzf "$DIST/preemptkit-$VERSION-linux-$1.tar.gz" -C "$d" --strip-components=1
	echo "$d"
}

clone_head() { # dir: a clone of the committed tree
	git -C "$ROOT" rev-parse --verify -q HEAD >/dev/null || skip "not a git checkout: make dist archives a commit"
	git clone -q "$ROOT" "$1"
}

@test "make dist: the same commit gives the same bytes, wherever it is cloned, with sources, man pages, completions and CHANGELOG.md" {
	clone_head "$BATS_TEST_TMPDIR/a"
	clone_head "$BATS_TEST_TMPDIR/elsewhere/b"
	run make -s -C "$BATS_TEST_TMPDIR/a" dist
	assert_success
	assert_output "dist/preemptkit-$VERSION.tar.gz"
	a=$BATS_TEST_TMPDIR/a/dist/preemptkit-$VERSION.tar.gz
	sleep 1 # a later clock: mtimes come from the commit, not from now
	make -s -C "$BATS_TEST_TMPDIR/elsewhere/b" dist
	cmp "$a" "$BATS_TEST_TMPDIR/elsewhere/b/dist/preemptkit-$VERSION.tar.gz"
	list=$(tar -tzf "$a")
	for f in Makefile common/version.h CHANGELOG.md LICENSE README.md share/man/man1/victims.1 \
		completions/bash/victims completions/zsh/_victims completions/fish/victims.fish \
		.pre-commit-hooks.yaml share/sample/cluster.json packaging/deb; do
		grep -qx "preemptkit-$VERSION/$f" <<<"$list" || { echo "missing $f"; return 1; }
	done
	# one owner (root) and one mtime (the commit's) for every entry
	[ "$(tar -tzvf "$a" | awk '{ print $2 }' | sort -u)" = "root/root" ]
	[ "$(tar -tzvf "$a" | awk '{ print $4, $5 }' | sort -u | wc -l)" -eq 1 ]
}

@test "make dist refuses a tree with uncommitted changes, and says so" {
	clone_head "$BATS_TEST_TMPDIR/c"
	echo "local edit" >>"$BATS_TEST_TMPDIR/c/README.md"
	run make -s -C "$BATS_TEST_TMPDIR/c" dist
	assert_failure
	assert_output --partial "make dist: the tree has uncommitted changes"
	assert_output --partial "README.md"
	[ ! -e "$BATS_TEST_TMPDIR/c/dist/preemptkit-$VERSION.tar.gz" ]
}

@test "make dist refuses a tag that is not the version in common/version.h, and takes the one that is" {
	clone_head "$BATS_TEST_TMPDIR/t"
	git -C "$BATS_TEST_TMPDIR/t" tag v9.9.9
	run make -s -C "$BATS_TEST_TMPDIR/t" dist
	assert_failure
	assert_output --partial "HEAD is tagged v9.9.9 but common/version.h says $VERSION"
	git -C "$BATS_TEST_TMPDIR/t" tag -d v9.9.9 >/dev/null
	git -C "$BATS_TEST_TMPDIR/t" tag "v$VERSION"
	run make -s -C "$BATS_TEST_TMPDIR/t" dist
	assert_success
}

@test "the .deb installs with dpkg into a throw-away root; the demo and every tool's --version run from the installed paths" {
	r=$BATS_TEST_TMPDIR/root
	mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates" && touch "$r/var/lib/dpkg/status"
	# the root is empty: its libraries are the machine's, so Depends cannot be met there
	run dpkg --root="$r" --log=/dev/null --force-depends --force-not-root -i "$DIST/preemptkit_${VERSION}_amd64.deb"
	assert_success
	dpkg --root="$r" -s preemptkit | grep -qx "Version: $VERSION"
	for t in $tools; do
		run "$r/usr/bin/$t" --version
		assert_output "$(version_line "$t")"
		run "$r/usr/bin/kubectl-${t//-/_}" --version
		assert_output "kubectl $(version_line "$t")"
	done
	s=$r/usr/share/preemptkit/sample
	run bash -c "'$r/usr/bin/victims' --preemptor '$s/preemptor.yaml' '$s/cluster.json' | '$r/usr/bin/preempt-plan' -o table"
	assert_success
	assert_output --partial "shop/checkout-7c9d5b8f4-m2x6q   1000000    Preempt   demo-worker4   2"
}

@test "the installed man pages and HTML reports carry the version" {
	d=$BATS_TEST_TMPDIR/x
	dpkg -x "$DIST/preemptkit_${VERSION}_amd64.deb" "$d"
	for t in $tools; do
		run bash -c "zcat '$d/usr/share/man/man1/$t.1.gz' | grep '^\.Os'"
		assert_output ".Os preemptkit $VERSION"
	done
	s=$d/usr/share/preemptkit/sample
	run bash -c "'$d/usr/bin/victims' --preemptor '$s/preemptor.yaml' '$s/cluster.json' | '$d/usr/bin/preempt-plan' -o html"
	assert_output --partial "<meta name=\"generator\" content=\"preemptkit $VERSION\">"
}

@test "the .deb holds the binaries, plugin links, gzipped man pages, completions, hook definitions, copyright and changelog" {
	run dpkg-deb -c "$DIST/preemptkit_${VERSION}_amd64.deb"
	assert_success
	for t in $tools; do
		p=kubectl-${t//-/_}
		for f in "./usr/bin/$t" "./usr/bin/$p -> $t" "./usr/share/man/man1/$t.1.gz" \
			"./usr/share/man/man1/$p.1.gz -> $t.1.gz" "./usr/share/bash-completion/completions/$t" \
			"./usr/share/zsh/vendor-completions/_$t" "./usr/share/fish/vendor_completions.d/$t.fish"; do
			assert_output --partial "$f"
		done
	done
	for f in ./usr/share/preemptkit/pre-commit-hooks.yaml ./usr/share/preemptkit/examples/pre-commit-config.yaml \
		./usr/share/doc/preemptkit/copyright ./usr/share/doc/preemptkit/changelog.gz \
		./usr/share/doc/preemptkit/NEWS.md.gz; do
		assert_output --partial "$f"
	done
	refute_output --partial "/usr/local"
}

@test "the .deb's Depends names the package of every library its binaries link" {
	d=$BATS_TEST_TMPDIR/x
	dpkg -x "$DIST/preemptkit_${VERSION}_amd64.deb" "$d"
	depends=$(dpkg-deb -f "$DIST/preemptkit_${VERSION}_amd64.deb" Depends)
	for t in $tools; do
		for so in $(objdump -p "$d/usr/bin/$t" | awk '$1 == "NEEDED" { print $2 }'); do
			pkg=$(dpkg -S "*/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/$so" | head -1 | cut -d: -f1)
			[[ ", $depends" == *", $pkg"* ]] || { echo "$t links $so ($pkg), Depends: $depends"; return 1; }
		done
	done
	[[ "$depends" == *libcjson1* && "$depends" == *libyaml-0-2* ]]
}

@test "lintian finds nothing in the .deb but what packaging/lintian-overrides explains" {
	run lintian --fail-on error,warning,info "$DIST/preemptkit_${VERSION}_amd64.deb"
	assert_success
	refute_output --regexp '^[EWIP]: '
	# each override has its reason above it
	run awk '/^preemptkit:/ && prev !~ /^#/ { print } { prev = $0 }' "$ROOT/packaging/lintian-overrides"
	assert_output ""
}

@test "the static tools are statically linked, for amd64 and arm64" {
	for arch in amd64 arm64; do
		d=$(unpack_static $arch)
		for t in $tools; do
			run ldd "$d/bin/$t"
			assert_output --partial "not a dynamic executable"
		done
		m=$(file -b "$d/bin/victims")
		[[ "$m" == *"statically linked"* ]]
		case $arch in amd64) [[ "$m" == *x86-64* ]] ;; arm64) [[ "$m" == *aarch64* ]] ;; esac
	done
}

@test "the README demo and the smoke tests run from the static archives unpacked as README says (arm64 under qemu)" {
	for arch in amd64 arm64; do
		d=$(unpack_static $arch) q=$(runner $arch)
		for t in $tools; do
			run $q "$d/bin/$t" --version
			assert_output "$(version_line "$t")"
		done
		s=$d/share/preemptkit/sample
		run bash -c "$q '$d/bin/victims' --preemptor '$s/preemptor.yaml' '$s/cluster.json' | $q '$d/bin/preempt-plan' -o table"
		assert_output --partial "shop/checkout-7c9d5b8f4-m2x6q   1000000    Preempt   demo-worker4   2"
		printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-bad}\nvalue: 10\n' >"$BATS_TEST_TMPDIR/bad.yaml"
		run $q "$d/bin/pc-validate" "$BATS_TEST_TMPDIR/bad.yaml"
		assert_failure 1
		assert_output --partial "bad.yaml:3:"
		e=$d/share/preemptkit/examples
		run $q "$d/bin/pp-match" -o table "$e/karmada/policies.yaml" "$e/karmada/templates.yaml"
		assert_output --partial RESOURCE
		run $q "$d/bin/apiq-sim" step --feature-gates SchedulerAsyncPreemption=true "$e/apiq/last-victim-race.ndjson"
		assert_success
		assert_output --partial '"op":"runAsync"'
	done
}

@test "the static tools give every fixture's answer, amd64 and arm64 (under qemu), as the dynamic build does" {
	w=$BATS_TEST_TMPDIR/arm64-bin
	mkdir -p "$w"
	for t in $tools; do
		printf '#!/bin/sh\nexec qemu-aarch64-static %s "$@"\n' "$ROOT/build-static/arm64/bin/$t" >"$w/$t"
		chmod +x "$w/$t"
	done
	# both at once: the machine's two cores
	PATH="$ROOT/build-static/amd64/bin:$PATH" BIN=$ROOT/build-static/amd64/bin "$ROOT/test/run-fixtures" >"$BATS_TEST_TMPDIR/amd64.tap" &
	PATH="$w:$PATH" BIN=$w "$ROOT/test/run-fixtures" >"$BATS_TEST_TMPDIR/arm64.tap"
	wait $!
	n=$(find "$ROOT/test/fixtures" -mindepth 3 -maxdepth 3 -name cmd | wc -l)
	for arch in amd64 arm64; do
		grep '^not ok' "$BATS_TEST_TMPDIR/$arch.tap" && return 1
		[ "$(grep -c '^ok' "$BATS_TEST_TMPDIR/$arch.tap")" -eq "$n" ]
	done
}

@test "make krew's manifests pass krew's validation and carry the sha256 of the static archives" {
	run "$ROOT/packaging/krew-check" "$DIST"/krew/*.yaml --archives "$DIST"
	assert_success
	assert_output ""
	for t in $tools; do
		grep -qx "  version: v$VERSION" "$DIST/krew/$t.yaml"
		[ "$(grep -c '^    sha256: ' "$DIST/krew/$t.yaml")" -eq 2 ]
		grep -qx "        arch: arm64" "$DIST/krew/$t.yaml"
		grep -qx "  name: $t" "$DIST/krew/$t.yaml"
		grep -qx "    bin: kubectl-${t//-/_}" "$DIST/krew/$t.yaml"
	done
}

@test "the krew check catches a manifest whose sha256 or bin is wrong" {
	m=$BATS_TEST_TMPDIR/victims.yaml
	sed 's/^\(    sha256: \).*/\1"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"/' "$DIST/krew/victims.yaml" >"$m"
	run "$ROOT/packaging/krew-check" "$m" --archives "$DIST"
	assert_failure
	assert_output --partial "the manifest says aaaa"
	sed 's/^\(    bin: \).*/\1kubectl-nothing/' "$DIST/krew/victims.yaml" >"$m"
	run "$ROOT/packaging/krew-check" "$m" --archives "$DIST"
	assert_output --partial "bin kubectl-nothing is not what the file operations install"
	sed 's/^  name: victims/  name: other/' "$DIST/krew/victims.yaml" >"$m"
	run "$ROOT/packaging/krew-check" "$m"
	assert_output --partial "plugin should be named 'victims', not 'other'"
}

@test "the krew manifests are generated, never kept in the tree (a committed copy named the archives of another commit)" {
	git -C "$ROOT" rev-parse --verify -q HEAD >/dev/null || skip "not a git checkout"
	# no committed file is a generated manifest, and make krew wrote its own into dist/ only
	run git -C "$ROOT" grep -l -e '^# Generated by `make krew`' HEAD -- .
	assert_output ''
	[ -f "$DIST/krew/victims.yaml" ] && [ ! -e "$ROOT/share/krew" ]
}

@test "make static names the Debian package to install when the cross compiler is missing" {
	farm=$BATS_TEST_TMPDIR/path
	mkdir -p "$farm"
	ln -s /usr/local/bin/* /usr/bin/* "$farm"/ 2>/dev/null || true
	rm -f "$farm"/aarch64-linux-gnu-*
	PATH=$farm run make -s -C "$ROOT" static ARCHES=arm64
	assert_failure
	assert_output --partial "aarch64-linux-gnu-gcc not found: apt-get install gcc-aarch64-linux-gnu"
}

@test "README's install commands name this version's artifacts" {
	grep -qF "tar -xzf preemptkit-$VERSION-linux-amd64.tar.gz -C /usr/local --strip-components=1" "$ROOT/README.md"
	grep -qF "apt install ./preemptkit_${VERSION}_amd64.deb" "$ROOT/README.md"
	grep -qF "## $VERSION " "$ROOT/CHANGELOG.md"
	[ -f "$DIST/preemptkit-$VERSION-linux-amd64.tar.gz" ] && [ -f "$DIST/preemptkit_${VERSION}_amd64.deb" ]
}

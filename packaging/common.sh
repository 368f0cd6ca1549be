# Sourced by the packaging scripts: where they write, the commit's date (the
# mtime every artifact's entries carry, so the same commit gives the same
# bytes), and how they stop.
out=dist
die() { echo "${prog:-packaging}: $*" >&2; exit 1; }
# SOURCE_DATE_EPOCH (reproducible-builds.org): the date of the last commit.
source_date_epoch() {
	if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then echo "$SOURCE_DATE_EPOCH"
	else git log -1 --format=%ct 2>/dev/null | grep . || echo 0
	fi
}
# tar | gzip with fixed names, owners, modes and mtimes: dir (in $1), name, output.
reproducible_tar() {
	tar -C "$1" --sort=name --mtime="@$(source_date_epoch)" --owner=0 --group=0 --numeric-owner \
		--mode='u+rwX,go=rX' --format=gnu -cf - "$2" | gzip -9n >"$3"
}

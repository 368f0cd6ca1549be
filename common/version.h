/* The release of preemptkit, the one place it is written: --version, the
 * records' and pages' generator, and (through the Makefile) man pages,
 * `make dist`, `make deb`, `make static` and the krew manifests. A tag vX.Y.Z
 * must match it (`make dist` refuses otherwise); CHANGELOG.md says what it changed. */
#ifndef PK_VERSION_H
#define PK_VERSION_H

#define PK_VERSION "0.1.0"

#endif

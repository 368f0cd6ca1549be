# preemptkit — build, test, install.
#   make            build every tool into bin/
#   make test       unit tests (C), fixtures and CLI tests (bats); ends "N passed, N failed, N skipped"
#   make test-san   the same suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      benchmarks against jq on a generated 5,000-node snapshot
#   make bench-scale  the same pipeline on a 65,000-node snapshot (NODES=... to change)
#   make fuzz       run the fuzz harnesses for FUZZ_SECONDS each
#   make install PREFIX=/usr/local DESTDIR=
#   make dist deb static krew   release artifacts into dist/ (see packaging/)

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
TOOLS   := pc-validate pp-match victims preempt-plan apiq-sim

# SAN=1 builds an instrumented copy in build-san/ and bin-san/; SAN=thread
# one with ThreadSanitizer in build-tsan/ and bin-tsan/.
ifeq ($(SAN),1)
  O       ?= build-san
  B       ?= bin-san
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  OPT     := -O1 -g
else ifeq ($(SAN),thread)
  O       ?= build-tsan
  B       ?= bin-tsan
  SANFLAGS := -fsanitize=thread
  OPT     := -O1 -g
else
  O       ?= build
  B       ?= bin
  SANFLAGS :=
  OPT     ?= -O2 -g
  # tcmalloc's per-thread caches: the readers build and free millions of
  # small cJSON items on two threads, which glibc's malloc serves ~30 %
  # slower (make bench). The sanitizers bring their own allocator.
  MALLOC  := -ltcmalloc_minimal
endif

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-unused-parameter -Wvla -Wformat=2
CFLAGS  += -std=c17 -D_GNU_SOURCE $(OPT) $(WARN) $(SANFLAGS) -pthread -Icommon
LDFLAGS += $(SANFLAGS) -pthread
LDLIBS  := -lcjson -lyaml -lz -lm $(MALLOC)

COMMON_SRC := $(sort $(shell find common -name '*.c'))
COMMON_OBJ := $(COMMON_SRC:%.c=$(O)/%.o)
LIB        := $(O)/libpreemptkit.a

BINS := $(TOOLS:%=$(B)/%)
UNIT_SRC := $(sort $(wildcard test/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:test/unit/%.c=$(O)/unit/%)

all: $(BINS)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(COMMON_OBJ)
	@rm -f $@
	ar rcs $@ $^

# One directory per tool; every .c in it belongs to that tool only.
.SECONDEXPANSION:
$(B)/%: $$(addprefix $(O)/,$$(addsuffix .o,$$(basename $$(wildcard cmd/$$*/*.c)))) $(LIB)
	@mkdir -p $(B)
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS)

# A tool's own objects but its main, as an archive the unit tests link:
# test_apiq_* tests apiq-sim, test_pcv_* pc-validate, test_pp_* pp-match.
$(O)/cmd/%/tool.a: $$(addprefix $(O)/,$$(addsuffix .o,$$(basename $$(filter-out cmd/$$*/main.c,$$(wildcard cmd/$$*/*.c)))))
	@rm -f $@
	ar rcs $@ $^

# Kept between builds (make would delete it as an intermediate file).
.PRECIOUS: $(O)/cmd/%/tool.a

unit_tool = $(if $(filter test_apiq_%,$1),apiq-sim,$(if $(filter test_pcv_%,$1),pc-validate,$(if $(filter test_pp_%,$1),pp-match)))
unit_archive = $(if $(call unit_tool,$1),$(O)/cmd/$(call unit_tool,$1)/tool.a)

$(O)/unit/%: test/unit/%.c $$(call unit_archive,$$*) $(LIB) test/unit/t.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itest/unit $(if $(call unit_tool,$*),-Icmd/$(call unit_tool,$*)) -MMD -MP -MF $@.d -o $@ $< $(call unit_archive,$*) $(LIB) $(LDLIBS)

unit: $(UNIT_BIN)

test: all unit
	@BIN=$(CURDIR)/$(B) UNITDIR=$(CURDIR)/$(O)/unit test/run

test-san:
	$(MAKE) SAN=1 all unit
	@BIN=$(CURDIR)/bin-san UNITDIR=$(CURDIR)/build-san/unit test/run

# The README's test command: the suite plain and under ASan+UBSan.
check:
	@test/check

# The README's first command ends here: the main job on the bundled sample.
demo: all
	@echo '$$ kubectl get nodes,pods,pdb,priorityclasses -A -o json > cluster.json   # here: share/sample/cluster.json'
	@echo '$$ victims --preemptor share/sample/preemptor.yaml share/sample/cluster.json | preempt-plan -o table'
	@$(B)/victims --preemptor share/sample/preemptor.yaml share/sample/cluster.json | $(B)/preempt-plan -o table

bench: all
	bench/run

bench-scale: all
	bench/scale

FUZZ_SECONDS ?= 60
fuzz:
	test/fuzz/run $(FUZZ_SECONDS)

lint-man:
	mandoc -Tlint -W warning share/man/man1/*.1

install: all install-files

# install-files copies what is built (B=bin-san to install the sanitized build).
install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d \
	  $(DESTDIR)$(PREFIX)/share/preemptkit
	for t in $(TOOLS); do \
	  install -m 755 $(B)/$$t $(DESTDIR)$(PREFIX)/bin/$$t; \
	  ln -sf $$t $(DESTDIR)$(PREFIX)/bin/kubectl-$$(echo $$t | tr - _); \
	  sed 's/^\.Os .*/.Os preemptkit $(VERSION)/' share/man/man1/$$t.1 >$(DESTDIR)$(PREFIX)/share/man/man1/$$t.1; \
	  install -m 644 completions/bash/$$t $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$t; \
	  install -m 644 completions/zsh/_$$t $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_$$t; \
	  install -m 644 completions/fish/$$t.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$t.fish; \
	done
	cp -R share/sample share/examples $(DESTDIR)$(PREFIX)/share/preemptkit/
	install -m 644 .pre-commit-hooks.yaml $(DESTDIR)$(PREFIX)/share/preemptkit/pre-commit-hooks.yaml

clean:
	rm -rf build build-san bin bin-san build-deb build-static dist

# Release artifacts, into dist/ (packaging/ says how each is made):
#   dist    preemptkit-X.Y.Z.tar.gz, the committed tree (refuses a dirty tree or a wrong tag)
#   deb     preemptkit_X.Y.Z_<arch>.deb from make install DESTDIR=..., checked by lintian
#   static  preemptkit-X.Y.Z-linux-{amd64,arm64}.tar.gz, statically linked (ARCHES= to choose)
#   krew    dist/krew/<tool>.yaml from the static archives, with their sha256 (generated,
#           never kept in the tree: a committed copy would name the archives of another commit)
#   release-test  deb, static and krew, then test/release.bats on them
# The release, written once: common/version.h (install-files stamps it into
# the man pages' .Os line).
VERSION := $(shell sed -n 's/^\#define PK_VERSION "\(.*\)"$$/\1/p' common/version.h)
ARCHES      ?= amd64 arm64
RELEASE_URL ?= https://example.invalid/preemptkit/releases/download/v$(VERSION)

dist:
	@packaging/dist $(VERSION)

deb:
	@packaging/deb $(VERSION)

static:
	@packaging/static $(VERSION) $(ARCHES)

krew: static
	@packaging/krew $(VERSION) $(RELEASE_URL) dist/krew

release: dist deb static krew

release-test: deb krew
	@PK_RELEASE=1 bats --tap test/release.bats

.PHONY: all unit test test-san check demo bench bench-scale fuzz install install-files clean lint-man
.PHONY: dist deb static krew release release-test
CMD_OBJ := $(patsubst %.c,$(O)/%.o,$(wildcard cmd/*/*.c))
# The tools' objects are named only by the pattern rules above, so make
# would take them for intermediate files and delete them after each build:
# the next `make demo` or `make unit` compiled them all again.
.SECONDARY: $(CMD_OBJ)
-include $(COMMON_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(UNIT_BIN:=.d)

# hookshim — hooks for any agent, from the outside.
BUILD   ?= build
PREFIX  ?= /usr/local
CC      ?= cc
OPT     ?= -O2 -g
CFLAGS  := -std=gnu11 -Wall -Wextra -Werror $(OPT) -fPIC $(EXTRA_CFLAGS)
CPPFLAGS := -D_GNU_SOURCE -I.
LDLIBS_CLI := -lcjson -lpcre2-8 -lnettle -ldl -lpthread
# The shim recognises the hookshim binary by this symbol (HS_EXE_MARK,
# common/wire.h).
LDFLAGS_CLI := -Wl,--export-dynamic-symbol=hookshim_executable
# The shim's link: one segment for headers, text and read-only data, laid
# out by shim/layout.ld. Lazy binding on purpose: with -z now every process
# the shim enters looked up all ~75 libc functions the shim can call, a
# fifth of /bin/true's start-up instructions; lazily, only the few it does
# call. The exec path of a fork child calls none of them (plainstr.h; the
# wrapped functions go through real.c's table). No RELRO either: its
# mprotect would split the written data over two pages, each a fault in
# every process (shim/layout.ld); lazy binding left the PLT slots, the
# bulk of it, writable anyway. -z defs: lazy binding would otherwise let
# a function the shim calls but never defines link, and fail in every
# process the first time it is called.
LDLIBS_SHIM := -ldl -lpthread -Wl,-z,lazy -Wl,-z,norelro -Wl,-z,defs \
	-Wl,-z,noseparate-code -Wl,-T,shim/layout.ld

# Two binaries and the wire they share (docs/architecture.md):
#   libhookshim.so = shim/ + common/
#   hookshim       = cli/ + supervisor/ + floor/ + dialects/ + engine/ + config/
#                    + common/
COMMON_SRC := $(sort $(wildcard common/*.c))
CORE_SRC := $(sort $(wildcard config/*.c engine/*.c dialects/*.c)) $(COMMON_SRC)
CLI_SRC  := $(sort $(wildcard cli/*.c supervisor/*.c floor/*.c))
# The exec path, then the start-up path, then the rest: the order of the
# shim's text (shim/layout.ld says why).
SHIM_HOT := shim/exec.c shim/envfix.c shim/exec_decide.c common/shellargv.c \
	shim/init.c shim/state.c shim/symbols.c shim/real.c shim/boot.c \
	shim/write_scope.c shim/write.c shim/fdcarry.c shim/fdtrack.c
SHIM_SRC := $(SHIM_HOT) \
	$(filter-out $(SHIM_HOT),$(sort $(wildcard shim/*.c)) $(COMMON_SRC))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
PROBE_SRC := $(sort $(wildcard tests/probes/*.c))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SHIM_OBJ := $(SHIM_SRC:%.c=$(BUILD)/obj/shim-objs/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
PROBE_BIN := $(PROBE_SRC:tests/probes/%.c=$(BUILD)/probes/%) \
	$(BUILD)/probes/exec_static_rawexec \
	$(BUILD)/probes/floor_static_rawsyscall \
	$(BUILD)/probes/floor_dynamic_writes \
	$(BUILD)/probes/floor_dynamic_bench \
	$(BUILD)/probes/ident_dynamic

HOOKSHIM := $(BUILD)/bin/hookshim
SHIM     := $(BUILD)/lib/libhookshim.so
MANPAGE  := $(BUILD)/man/hookshim.1
VERSION  := $(shell sed -n 's/^\#define HOOKSHIM_VERSION "\(.*\)"/\1/p' common/version.h)

.PHONY: all deps test test-long test-asan demo bench install uninstall deb clean
all: deps $(HOOKSHIM) $(SHIM) $(MANPAGE)

# Every compile waits for this (order-only), so `make -jN` on a fresh
# machine installs the headers before the first file that needs them.
deps:
	@scripts/ensure-deps.sh

$(BUILD)/obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# The shim is built without sanitizers or extra libraries: it lives inside
# other people's processes. No loop becomes a libc call behind our back:
# common/plainstr.h keeps the fork child's and start-up's string work out
# of libc, where each page touched is a page fault of its own. Data takes
# the ABI's alignment, not GCC's 32 bytes for arrays: the written data
# shares one page with the start-up arena (shim/layout.ld), and padding
# would push it over.
$(BUILD)/obj/shim-objs/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=gnu11 -Wall -Wextra -Werror $(OPT) -fPIC \
		-fvisibility=hidden -fno-stack-protector -malign-data=abi \
		-fno-tree-loop-distribute-patterns -MMD -MP -c $< -o $@

# The built-in agent profiles are in the binary (config/agents_builtin.c).
$(BUILD)/obj/config/agents_builtin.o: config/agents.json

$(HOOKSHIM): $(CLI_OBJ) $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS_CLI) -o $@ $^ $(LDLIBS_CLI)

$(SHIM): $(SHIM_OBJ) shim/layout.ld
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SHIM_OBJ) $(LDLIBS_SHIM)

$(BUILD)/tests/%: tests/unit/%.c $(CORE_OBJ) | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS_CLI)

# The shim's symbol lookup, checked against the loader it stands in for.
# Its list of names is the shim's own (shim/interposed.h).
$(BUILD)/tests/test_symbols: tests/unit/test_symbols.c shim/symbols.c \
		shim/interposed.h shim/symbols.h | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(filter %.c,$^) -ldl \
		-Wl,--export-dynamic-symbol=hookshim_test_mark

$(BUILD)/probes/exec_fakebin: LDFLAGS_PROBE := $(LDFLAGS_CLI)
$(BUILD)/probes/%: tests/probes/%.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS_PROBE) -o $@ $< -lpthread $(if $(findstring static,$*),-static,)

# The floor's static writer again, dynamic: the shim decides its libc
# calls, so both give the same events side by side (floor_post.sh).
$(BUILD)/probes/floor_dynamic_writes: tests/probes/floor_static_writes.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $<

# The floor bench's reader again, dynamic: its reads go through the shim,
# which forwards them with the cookie (bench/floor_read_bench.sh).
$(BUILD)/probes/floor_dynamic_bench: tests/probes/floor_static_bench.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $<

# The identities probe again, dynamic: its libc calls go through the shim
# (tests/security/identities.sh).
$(BUILD)/probes/ident_dynamic: tests/probes/ident_static.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DIDENT_DYNAMIC -o $@ $<

# The raw-syscall parent again, static: no shim can load in it at all.
$(BUILD)/probes/exec_static_rawexec: tests/probes/exec_rawsyscall.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -static

# The cookie presenter again, static: what any static program of the
# session could do with HOOKSHIM_FLAGS (tests/security/enforce_env.sh).
$(BUILD)/probes/floor_static_rawsyscall: tests/probes/floor_rawsyscall.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -static

# Tests run side by side (make's -jN, or the cores); the few that time
# what they must run alone after them (tests/run.sh says how).
test: all $(UNIT_BIN) $(PROBE_BIN)
	@BUILD=$(BUILD) tests/run.sh $(T)

# The slow stress cases ("# lane: long" in tests/run.sh), which make test
# leaves out; CI runs them too.
test-long: all $(UNIT_BIN) $(PROBE_BIN)
	@BUILD=$(BUILD) tests/run.sh --long $(T)

$(BUILD)/bench/bench_core: bench/bench_core.c $(CORE_OBJ) | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS_CLI)

# The CLI and engine under ASan/UBSan (the shim is never instrumented: it
# lives in other people's processes).
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
test-asan: deps
	@$(MAKE) -s BUILD=build-asan EXTRA_CFLAGS="$(ASAN_FLAGS)" \
		build-asan/bin/hookshim build-asan/lib/libhookshim.so \
		$(UNIT_SRC:tests/unit/%.c=build-asan/tests/%)
	@for t in unit/ core seeds run_ write_content check_parity report_ci atomic_save transcript; do \
		ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
		UBSAN_OPTIONS=halt_on_error=1 BUILD=build-asan \
		tests/run.sh $$t | tail -1 | grep -q ' 0 failed' || \
		{ echo "ASan/UBSan: $$t failed (BUILD=build-asan tests/run.sh $$t)"; exit 1; }; \
	done; echo "ASan/UBSan: clean"

$(BUILD)/bench/exec_rr: bench/exec_rr.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $<

# CMD under the floor's enforce-mode filter, every notification continued
# at once: the kernel's part of enforce mode (bench/modes_bench.sh)
$(BUILD)/bench/notify_bare: bench/notify_bare.c \
		$(filter-out $(BUILD)/obj/cli/%,$(CLI_OBJ)) $(CORE_OBJ) | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< \
		$(filter-out $(BUILD)/obj/cli/%,$(CLI_OBJ)) $(CORE_OBJ) \
		$(LDLIBS_CLI)

bench: all $(PROBE_BIN) $(BUILD)/bench/bench_core $(BUILD)/bench/exec_rr \
		$(BUILD)/bench/notify_bare
	@scripts/ensure-deps.sh bench
	@BUILD=$(BUILD) bench/run.sh

demo: all
	@BUILD=$(BUILD) examples/demo.sh

# The man page: help2man over the binary's own help (scripts/man-page.sh).
$(MANPAGE): $(HOOKSHIM) scripts/man-page.sh
	@mkdir -p $(@D)
	scripts/man-page.sh $(HOOKSHIM) > $@.tmp && mv $@.tmp $@

# What `make install` puts where, and `make uninstall` takes away again.
INSTALLED := bin/hookshim lib/libhookshim.so share/man/man1/hookshim.1 \
	share/bash-completion/completions/hookshim \
	share/zsh/vendor-completions/_hookshim
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
		$(DESTDIR)$(PREFIX)/share/doc/hookshim \
		$(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions
	install -m 755 $(HOOKSHIM) $(DESTDIR)$(PREFIX)/bin/hookshim
	install -m 644 $(SHIM) $(DESTDIR)$(PREFIX)/lib/libhookshim.so
	install -m 644 $(MANPAGE) $(DESTDIR)$(PREFIX)/share/man/man1/hookshim.1
	install -m 644 completions/hookshim.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/hookshim
	install -m 644 completions/_hookshim \
		$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_hookshim
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/hookshim/
	cp -r docs examples $(DESTDIR)$(PREFIX)/share/doc/hookshim/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/hookshim

# A Debian package of what `make install` installs under /usr, built with
# dpkg-deb; its dependencies are the Debian packages of the libraries the
# binary links (scripts/make-deb.sh).
deb: all
	scripts/make-deb.sh $(BUILD) $(VERSION)

# libFuzzer targets (fuzz/fuzz.h): one per fuzz/fuzz_NAME.c, built
# with clang under ASan/UBSan into $(FUZZ_BUILD)/fuzz_NAME, each linked
# with the project's own sources built the same way. `make fuzz` runs
# every target over its corpus (fuzz/corpus/NAME) for FUZZ_SECONDS each,
# one after the other on one core; new inputs go to
# $(FUZZ_BUILD)/corpus/NAME, so the committed corpus only changes by hand.
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_RSS_MB  ?= 2048
FUZZ_ARGS    ?=
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g $(FUZZ_SAN)
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:fuzz/fuzz_%.c=%)
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)
# What a target links: the CLI's core, the wire decoder, and for the
# shim's reply reader (fuzz_reply.c includes shim/client.c) the shim's
# state helpers and its cwd (path.c).
FUZZ_LINK_SRC := $(CORE_SRC) supervisor/message.c shim/state.c shim/symbols.c shim/real.c \
	shim/path.c
FUZZ_OBJ := $(FUZZ_LINK_SRC:%.c=$(FUZZ_BUILD)/obj/%.o)

.PHONY: fuzz fuzz-build fuzz-deps
fuzz-build: $(FUZZ_BIN)

# clang and libFuzzer are only needed here, so only fuzzing installs them.
fuzz-deps: deps
	@scripts/ensure-deps.sh fuzz

$(FUZZ_BUILD)/obj/config/agents_builtin.o: config/agents.json

$(FUZZ_BUILD)/obj/%.o: %.c | fuzz-deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/fuzz/fuzz_%.o $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_CLI) -ldl

fuzz: fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		FUZZ_RSS_MB=$(FUZZ_RSS_MB) FUZZ_ARGS="$(FUZZ_ARGS)" \
		fuzz/run.sh $(FUZZ_NAMES)

clean:
	rm -rf $(BUILD) build-asan $(FUZZ_BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)

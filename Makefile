# runner - declarative CPU/GPU experiment runner.
#   make            build bin/runner (and lib/runner-cuda.so where nvcc exists)
#   make run        install missing packages (as root), build, run experiments/matmul.yaml
#   make test       build and run the test suite (no GPU needed)
#   make test-gpu   GPU tests (prints a skip line without a device)
#   make gpu-acceptance OUT=DIR   the one-call GPU acceptance run (skip lines without a GPU)
#   make install PREFIX=/usr/local    make clean
#                   (with include/runner/workload.h and lib/pkgconfig/runner.pc for plugins)
#   make check-man, make check-completion   the man page renders; bash completion works
#   make test-host-kernels   the CUDA kernels and batch timer run on the CPU (no GPU needed)
#   make gpu-first  the first check on a GPU machine, one screen (one line without a GPU)
# SAN=1 builds with AddressSanitizer + UBSan into build-san/.
# Parallel by default (every core) unless the command line says -j.

ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

PREFIX   ?= /usr/local
CC       ?= gcc
NVCC     ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
VERSION  := 0.1.0
GIT_REV  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
# the plugin interface's version (include/runner/workload.h), for runner.pc
WORKLOAD_INTERFACE := $(shell sed -n 's/^\#define RN_WORKLOAD_INTERFACE //p' include/runner/workload.h)

PKGS     := yaml-0.1 lua5.4 openblas json-c libcrypto libcmark-gfm sqlite3
# what the runner needs; the test targets need TEST_PKGS too
DEB_PKGS  := pkg-config libyaml-dev liblua5.4-dev libopenblas-dev libjson-c-dev libssl-dev \
             libcmark-gfm-dev libcmark-gfm-extensions-dev libsqlite3-dev gnuplot-nox
# python3-numpy: the NumPy example of doc/own-code.md, which a test runs
TEST_PKGS := libcriterion-dev valgrind clang libclang-rt-14-dev chromium g++ python3-numpy
# recursive (=): read after `make deps` has installed the packages; cmark-gfm's
# extensions (report.html's tables) have no .pc file
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcmark-gfm-extensions

ifeq ($(SAN),1)
BUILD    := build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# the selftest workload's segfault and abort must stay real signals
export ASAN_OPTIONS := handle_segv=0:handle_abort=0:detect_leaks=1
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
else
BUILD    := build
SANFLAGS :=
endif

CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -fopenmp -pthread $(SANFLAGS) \
            -Irunner -Ibackends $(PKG_CFLAGS) \
            -DRUNNER_VERSION='"$(VERSION)"' -DRUNNER_GIT_REV='"$(GIT_REV)"'
LDLIBS   = $(PKG_LIBS) -lm -ldl
LDFLAGS  += -fopenmp -pthread -rdynamic $(SANFLAGS)

# runner/<module>/*.c (doc/contributing/architecture.md#architecture); main.c is the program, the rest a library
RUNNER_SRCS := $(filter-out runner/cli/main.c, $(wildcard runner/*/*.c runner/*/*/*.c))
# backends/*.c: what the CPU and CUDA backends share (nvcc compiles them too)
SHARED_SRCS := $(wildcard backends/*.c)
CPU_SRCS  := $(wildcard backends/cpu/*.c) $(SHARED_SRCS)
CORE_SRCS := $(RUNNER_SRCS) $(CPU_SRCS)
CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
# the CPU backend's objects are linked whole, not picked from the archive:
# its workloads register themselves (backend.h RN_REGISTER_WORKLOAD) and
# nothing else names them
CPU_OBJS  := $(CPU_SRCS:%.c=$(BUILD)/%.o)
RUNNER_OBJS := $(RUNNER_SRCS:%.c=$(BUILD)/%.o)
# the test files and the helpers they share (runproc.c, scenario.c, ...)
TEST_SRCS := $(wildcard tests/*.c)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)

BIN := $(BUILD)/bin/runner
ifeq ($(SAN),1)
OUTBIN := $(BIN)
else
OUTBIN := bin/runner
endif

.PHONY: check-layout check-man check-completion aa gpu-acceptance gpu-first test-host-kernels gpu-bundle deps-test install-packages studies all run test test-gpu test-valgrind fuzz-smoke fuzz/fuzz_config fuzz/fuzz_lua fuzz/fuzz_resume fuzz/fuzz_export install clean deps plots
all: $(OUTBIN) cuda-if-driver lib/pkgconfig/runner-uninstalled.pc

# --- dependencies -----------------------------------------------------------
# Installs what is missing when run as root; otherwise prints the apt-get line.
deps:
	@$(MAKE) -s install-packages PACKAGES="$(DEB_PKGS)"
deps-test:
	@$(MAKE) -s install-packages PACKAGES="$(DEB_PKGS) $(TEST_PKGS)"
install-packages:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else echo "missing packages; run as root:  apt-get install -y$$missing"; exit 1; fi; fi

# --- the runner -------------------------------------------------------------
# -MMD -MP: each object depends on the headers it really includes
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

-include $(CORE_OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(BUILD)/runner/cli/main.d

# a goal that installs packages does so before anything compiles (the
# build is parallel: the compiles would not wait for it otherwise)
DEPS_GOAL := $(if $(filter deps-test test test-valgrind test-gpu fuzz-smoke,$(MAKECMDGOALS)),deps-test,$(if $(filter deps run studies,$(MAKECMDGOALS)),deps))
ifneq ($(DEPS_GOAL),)
$(CORE_OBJS) $(TEST_OBJS) $(BUILD)/runner/cli/main.o: | $(DEPS_GOAL)
endif

# The objects that print the commit (--version, meta.json's git_revision)
# are rebuilt when it changes: $(BUILD)/git-rev is rewritten only then.
$(BUILD)/git-rev: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' >$@
$(BUILD)/runner/cli/main.o $(BUILD)/runner/results/rundir/meta.o: $(BUILD)/git-rev
# the timed loop of a sample (run/exec/batch.c: batch_run) starts a 64-byte
# block, so that it never straddles two: straddling, a noop call cost 1.9 ns
# instead of 1.4 on the same AMD EPYC, by where other code had pushed it
# (bench/NOTES-stats.md, 2026-11-27)
$(BUILD)/runner/run/exec/batch.o: CFLAGS += -falign-loops=64
.PHONY: FORCE
FORCE:

$(BUILD)/librunner.a: $(RUNNER_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/runner/cli/main.o $(CPU_OBJS) $(BUILD)/librunner.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ifneq ($(SAN),1)
bin/runner: $(BIN)
	@mkdir -p bin
	cp $(BIN) $@
endif

# --- the plugin interface's pkg-config file ---------------------------------
# runner_pc PREFIX,NOTE: the text of runner.pc for the header under PREFIX.
# `make install` writes it to PREFIX/lib/pkgconfig/runner.pc; `make` writes
# one for the source tree, lib/pkgconfig/runner-uninstalled.pc (pkg-config
# prefers NAME-uninstalled.pc where both are on its path), so that a plugin
# builds against the tree without installing: the Makefile that `runner new
# workload` writes puts that folder on PKG_CONFIG_PATH
# (doc/own-code-plugins.md#runner-new-workload).
runner_pc = printf '%s\n' 'prefix=$(1)' 'exec_prefix=$${prefix}' 'includedir=$${prefix}/include' \
	  'libdir=$${exec_prefix}/lib' 'workload_interface=$(WORKLOAD_INTERFACE)' '' \
	  'Name: runner' 'Description: declarative CPU/GPU experiment runner: the workload plugin interface$(2)' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir}' 'Libs:'
lib/pkgconfig/runner-uninstalled.pc: Makefile include/runner/workload.h
	@mkdir -p $(dir $@)
	@$(call runner_pc,$(CURDIR), (the source tree, not installed)) >$@

# --- the CUDA backend (optional) ---------------------------------------------
# Built by `make` where nvcc and a CUDA driver both exist; where nvcc exists
# without a driver (a build machine, CI) `make` skips it, so that a fresh
# `make` stays about a minute on two cores, and `make test` and `make cuda`
# compile it (compile coverage: doc/contributing/testing.md#gpu-code-on-the-cpu).
# CUDA=1 or CUDA=0 on the command line decides instead.  Each .cu file is
# its own object (nvcc -c, no relocatable device code: no kernel calls
# another file's device code), so the files compile in parallel and a
# change recompiles one.
CUDA_SRCS := $(wildcard backends/cuda/*.cu)
# (in build/ with SAN=1 too: the sanitizers do not change them)
CUDA_OBJS := $(CUDA_SRCS:%.cu=build/%.o) $(SHARED_SRCS:%.c=build/cuda/%.o)
CUDA_DRIVER := $(shell [ -e /proc/driver/nvidia/version ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' && echo yes)
CUDA ?= $(if $(CUDA_DRIVER),1,0)
# Machine code for Ampere (sm_80, which sm_86/sm_89 also run) and Hopper
# (sm_90), and PTX for compute_75 so that Turing and GPUs newer than this
# toolkit's targets JIT-compile it; the library finds cuBLAS and cudart in the
# toolkit it was built with (RUNPATH), also when that is not on the loader's path.
CUDA_LIBDIR = $(abspath $(dir $(realpath $(NVCC)))/../lib64)
NVFLAGS   := -O2 -std=c++20 -Xcompiler -fPIC,-Wall,-fopenmp -Irunner -Ibackends \
             -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 \
             -gencode=arch=compute_75,code=compute_75
.PHONY: cuda cuda-if-driver
ifneq ($(NVCC),)
ifneq ($(CUDA_SRCS),)
cuda: lib/runner-cuda.so
ifeq ($(CUDA),1)
cuda-if-driver: cuda
else
cuda-if-driver:
	@echo "no CUDA driver here: the CUDA backend is not built (make cuda builds it; make test compiles it)"
endif
build/backends/cuda/%.o: backends/cuda/%.cu
	@mkdir -p $(dir $@)
	@echo "  NVCC  $<"
	@$(NVCC) $(NVFLAGS) -MMD -MP -c $< -o $@
# the shared sources, as CUDA C++ (cnn_model.h's f16 conversions under nvcc)
build/cuda/backends/%.o: backends/%.c
	@mkdir -p $(dir $@)
	@echo "  NVCC  $<"
	@$(NVCC) $(NVFLAGS) -MMD -MP -x cu -c $< -o $@
-include $(CUDA_OBJS:.o=.d)
lib/runner-cuda.so: $(CUDA_OBJS)
	@mkdir -p lib
	$(NVCC) $(NVFLAGS) -shared -o $@ $^ -lcublas -lcudart -lgomp -ldl \
	  -Xlinker --enable-new-dtags -Xlinker -rpath=$(CUDA_LIBDIR)
else
cuda cuda-if-driver:
	@true
endif
else
cuda cuda-if-driver:
	@echo "nvcc not found: the CUDA backend is not built (CUDA trials will be skipped)"
endif

# --- tests ------------------------------------------------------------------
$(BUILD)/tests/runner-tests: $(TEST_OBJS) $(CPU_OBJS) $(BUILD)/librunner.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

# test code builds paths with snprintf into fixed buffers on purpose
$(BUILD)/tests/%.o: CFLAGS += -Wno-format-truncation

# the programs tests/test_command.c measures (doc/own-code.md): a test
# program and the C example of the persistent protocol
CMD_PROGS := $(BUILD)/tests/command/proto_prog $(BUILD)/tests/command/sumsq \
             $(BUILD)/tests/command/hostile_prog
FAKES := $(foreach v,1 2 3 4 5,$(BUILD)/tests/fake-$(v).so) $(CMD_PROGS)
$(BUILD)/tests/command/proto_prog: tests/command/proto_prog.c tests/command/request_field.h
	@mkdir -p $(dir $@)
	@$(CC) -std=c11 -Wall -Wextra -Werror -O2 $< -o $@
$(BUILD)/tests/command/hostile_prog: tests/command/hostile_prog.c tests/command/request_field.h
	@mkdir -p $(dir $@)
	@$(CC) -std=c11 -Wall -Wextra -Werror -O2 $< -o $@
$(BUILD)/tests/command/sumsq: examples/command/sumsq.c
	@mkdir -p $(dir $@)
	@$(CC) -std=c11 -Wall -Wextra -Werror -O2 $< -o $@ -lm
$(BUILD)/tests/fake-%.so: tests/fake/fake_backend.c runner/backend.h include/runner/workload.h
	@mkdir -p $(dir $@)
	@$(CC) -std=c11 -Wall -Wextra -Werror -fPIC -shared -Irunner -DFAKE_VARIANT=$* $< -o $@

# the plugins of tests/test_plugin.c, built against the public header alone
PLUGIN_VARIANTS := ok abi norelease nosym crash hang closefds forge selfkill pidfile
PLUGINS := $(PLUGIN_VARIANTS:%=$(BUILD)/tests/plugin-%.so) $(BUILD)/tests/plugin-cpp.so
# tests/test_untrusted.c's: a device time and a work count as a plugin's bug reports them
PLUGINS += $(BUILD)/tests/plugin-liar.so
$(BUILD)/tests/plugin-liar.so: tests/plugin/liar_plugin.c include/runner/workload.h
	@mkdir -p $(dir $@)
	@$(CC) -std=c11 -Wall -Wextra -Werror -fPIC -shared -Iinclude $< -o $@
$(BUILD)/tests/plugin-cpp.so: tests/plugin/cpp_plugin.cc include/runner/workload.h
	@mkdir -p $(dir $@)
	@$(CXX) -std=c++20 -Wall -Wextra -Wno-missing-field-initializers -Werror -fPIC -shared \
	  -Iinclude $< -o $@
$(BUILD)/tests/plugin-%.so: tests/plugin/test_plugin_lib.c include/runner/workload.h
	@mkdir -p $(dir $@)
	@$(CC) -std=c11 -Wall -Wextra -Werror -fPIC -shared -Iinclude \
	  -DPLUGIN_VARIANT=$(shell echo $(PLUGIN_VARIANTS) | tr ' ' '\n' | grep -nx $* | cut -d: -f1) $< -o $@

TEST_ENV := RUNNER_BIN=$(abspath $(BIN)) RUNNER_ROOT=$(CURDIR) RUNNER_FAKES=$(abspath $(BUILD)/tests) \
            XDG_CACHE_HOME=$(abspath $(BUILD))/tests/cache
# the A/A calibration of `runner compare` (doc/compare.md#comparing-runs): timing,
# so not part of `make test`; run it on a quiet machine
aa: $(OUTBIN)
	RUNNER=$(abspath $(OUTBIN)) sh bench/aa.sh

# the runs of the tests use one cache of this machine's ceilings, not the
# user's (doc/ceilings.md#the-ceilings), probed before the tests start, so
# that no test's run pays the probe (a test that interrupts a run after
# 0.4 s would interrupt the probe)
test test-valgrind: export XDG_CACHE_HOME := $(abspath $(BUILD))/tests/cache
test: deps-test $(OUTBIN) lib/pkgconfig/runner-uninstalled.pc $(BUILD)/tests/runner-tests $(FAKES) $(PLUGINS) cuda
	@$(BIN) machine >/dev/null
	$(TEST_ENV) $(BUILD)/tests/runner-tests --jobs 2
	@# the CUDA kernels and the batch timer on the CPU, with seeded faults
	@# (doc/contributing/testing.md#gpu-code-on-the-cpu)
	@bash tests/hostk/run.sh $(BUILD)
	@# make test-gpu's checks against fake run folders; make gpu-first's one
	@# line without a GPU
	@bash tests/gpu/checks-test.sh
	@bash tests/gpu/first-test.sh
	@# timing-sensitive tests need the machine to themselves; not under the
	@# sanitizers, whose checks slow a kernel such as axpb 17x and so time
	@# themselves (.ci/run runs them in the plain build's `make test`)
ifneq ($(SAN),1)
	$(TEST_ENV) RUNNER_TIMING_TESTS=1 $(BUILD)/tests/runner-tests --jobs 1 --filter 'timing/*'
endif
	@$(MAKE) -s check-man check-completion check-layout RUNNER_BIN=$(abspath $(BIN))
	@BUILD=$(BUILD) bash tests/adding-workload.sh
	@# the commands README.md and doc/ mark with <!-- doc-test -->, as written
	@BUILD=$(BUILD) bash tests/doc-commands.sh
ifneq ($(SAN),1)
	@# make install, then a plugin from `runner new workload` built against the installed header
	@bash tests/plugin-install.sh
endif
	@# the GPU acceptance script: on a machine with no GPU, one skip line per GPU part
	@rm -rf $(BUILD)/gpu-acceptance; RUNNER_BIN=$(abspath $(BIN)) bash bench/gpu-acceptance.sh $(BUILD)/gpu-acceptance >$(BUILD)/gpu-acceptance.out 2>&1 \
	  || { cat $(BUILD)/gpu-acceptance.out; exit 1; }; \
	  if ./$(OUTBIN) list devices | grep -q '^cuda:'; then echo "gpu-acceptance: ran on a GPU"; \
	  else n=$$(grep -c '^gpu-acceptance: [a-z-]*: skipped (0 s) no CUDA device' $(BUILD)/gpu-acceptance.out); \
	    [ "$$n" = 3 ] && [ -f $(BUILD)/gpu-acceptance/summary.txt ] && [ $$(ls $(BUILD)/gpu-acceptance | wc -l) -le 8 ] \
	    && echo "gpu-acceptance: 3 GPU parts skipped, summary written" \
	    || { echo "gpu-acceptance: expected 3 skip lines"; cat $(BUILD)/gpu-acceptance.out; exit 1; }; fi
ifneq ($(SAN),1)
	@# runner submit/status/--resume on a one-node Slurm cluster it starts (root), else a skip line
	@RUNNER_BIN=$(abspath $(BIN)) timeout -k 60 300 bash tests/slurm/run.sh
endif

# doc/contributing/architecture.md#architecture: no circle among modules or folders, no hidden
# prototype, one owner of the run folder, no C file over 600 lines
check-layout: $(OUTBIN)
	@bash tests/check-layout.sh $(BUILD)

# the man page renders without a warning (skip line without groff)
check-man:
	@if command -v groff >/dev/null 2>&1; then \
	  w=$$(groff -man -Tutf8 -ww -z runner.1 2>&1); \
	  if [ -n "$$w" ]; then echo "man: runner.1 warnings:"; echo "$$w"; exit 1; fi; \
	  echo "man: runner.1 renders without warnings"; \
	else echo "man: skipped: no groff"; fi

# completion/runner.bash registers and completes (tests/completion.sh)
check-completion: $(OUTBIN)
	@RUNNER_BIN=$(or $(RUNNER_BIN),$(abspath $(OUTBIN))) bash tests/completion.sh

test-gpu: deps-test $(OUTBIN) cuda
	@RUNNER_BIN=$(abspath $(BIN)) bash tests/gpu/run.sh

# The GPU code run on the CPU (doc/contributing/testing.md#gpu-code-on-the-cpu):
# the element-wise kernels as host code under ASan + UBSan, three seeded
# faults that must fail, the batch timer against a mock device clock
test-host-kernels:
	@bash tests/hostk/run.sh $(BUILD)

# The first call on a GPU machine (doc/contributing/testing.md#gpu-first):
# compute-sanitizer over the element-wise paths, tests/gpu's workloads,
# large and lua with every trial ok, bench/gpu.sh's device rows against
# PyTorch; one screen, under 5 minutes.  Without a GPU: one line saying
# so, nothing built or run.  It builds what is missing itself, so that a
# carried build (bench/gpu-bundle.sh) is not rebuilt on the GPU machine.
gpu-first:
	@bash bench/gpu-first.sh $(or $(OUT),build/gpu-first); rc=$$?; [ $$rc -eq 3 ] || exit $$rc

# The one-call GPU acceptance run (doc/contributing/testing.md#gpu-acceptance): OUT=DIR
gpu-acceptance: $(OUTBIN) cuda
	bash bench/gpu-acceptance.sh $(or $(OUT),results/gpu-acceptance)

# What a GPU machine with no package registry needs: .deps.tar.xz
gpu-bundle: $(OUTBIN) cuda
	bash bench/gpu-bundle.sh

# Core tests under valgrind's memcheck (no sanitizer build; workers are
# forked from the checked process, so they are checked too).
test-valgrind: deps-test $(OUTBIN) $(BUILD)/tests/runner-tests $(FAKES)
	@$(BIN) machine >/dev/null
	RUNNER_BIN=$(abspath $(BIN)) RUNNER_ROOT=$(CURDIR) RUNNER_FAKES=$(abspath $(BUILD)/tests) \
	  valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	  --trace-children=no -q $(BUILD)/tests/runner-tests --jobs 1 --filter 'config*/*'
	@fails=0; for f in tests/bad/*.yaml tests/good/*.yaml; do \
	  valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite -q \
	    $(BIN) validate $$f >/dev/null 2>&1; rc=$$?; \
	  if [ $$rc -eq 99 ]; then echo "valgrind: errors on $$f"; fails=$$((fails+1)); fi; done; \
	  valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite -q \
	    $(BIN) --quiet --no-plots --output $(BUILD)/valgrind-results tests/gpu/faults.yaml >/dev/null 2>&1; \
	  [ $$? -eq 99 ] && { echo "valgrind: errors in a run"; fails=$$((fails+1)); }; \
	  for i in 1 2; do $(BIN) --quiet --no-plots --output $(BUILD)/valgrind-results \
	    tests/valgrind/blocks.yaml >/dev/null 2>&1; sleep 1; done; \
	  set -- $$(ls -d $(BUILD)/valgrind-results/vg_blocks/2*); \
	  valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite -q \
	    $(BIN) compare $$1 $$2 >/dev/null 2>&1; \
	  [ $$? -eq 99 ] && { echo "valgrind: errors in a compare with the history"; fails=$$((fails+1)); }; \
	  echo "valgrind: corpus, a run and a compare checked, $$fails with errors"; [ $$fails -eq 0 ]

# --- fuzzing (clang + libFuzzer from libclang-rt-14-dev) ----------------------
FUZZ_CC    ?= clang
FUZZ_SRCS  := $(RUNNER_SRCS)
# the linear limits lowered, a sweep's 10^6 trials and the YAML loader's 10^6
# alias visits: reaching them takes seconds under the sanitizers (a merge-key
# bomb: 17 s), and fuzz_config's timeout is 1 s; the limits' logic is the
# same, and anything worse than linear still shows
FUZZ_DEFS  := -DMAX_TRIALS=20000LL -DYML_VISIT_BUDGET=50000L
# fuzz_config: config loading, expansion, --filter, the CSV reader;
# fuzz_lua: the Lua loader (workload and hooks files);
# fuzz_resume: what --resume reads (trials.csv, trials.more.csv);
# fuzz_export: `runner export --format json` is strict JSON whatever a run folder holds
FUZZERS    := fuzz_config fuzz_lua fuzz_resume fuzz_export
$(FUZZERS:%=fuzz/%): fuzz/%: tests/fuzz/%.c $(FUZZ_SRCS) $(wildcard runner/*.h runner/*/*.h runner/*/*/*.h) tests/strict_json.h
	@mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -Wno-pass-failed \
	  -Irunner -Ibackends \
	  $(PKG_CFLAGS) -DRUNNER_VERSION='"fuzz"' -DRUNNER_GIT_REV='"fuzz"' $(FUZZ_DEFS) \
	  tests/fuzz/$*.c $(FUZZ_SRCS) $(wildcard backends/cpu/*.c backends/*.c) -o $(BUILD)/fuzz/$* \
	  $(LDLIBS) -fopenmp

FUZZ_SECONDS ?= 60
# each fuzzer for FUZZ_SECONDS; the seeds: tests/fuzz/corpus (YAML and CSV,
# deep nesting among them), tests/lua and tests/bad (Lua files),
# tests/fuzz/corpus-resume, tests/fuzz/corpus-export.  fuzz_config's
# -timeout=1: a YAML file read in more than a second is a bug
# (doc/experiment-file.md#errors), so a slow case fails the run.
fuzz-smoke: deps-test $(FUZZERS:%=fuzz/%)
	@mkdir -p $(BUILD)/fuzz/corpus $(BUILD)/fuzz/corpus-lua $(BUILD)/fuzz/corpus-resume $(BUILD)/fuzz/corpus-export
	ASAN_OPTIONS=detect_leaks=1 $(BUILD)/fuzz/fuzz_config -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
	  -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 $(BUILD)/fuzz/corpus tests/fuzz/corpus
	ASAN_OPTIONS=detect_leaks=1 $(BUILD)/fuzz/fuzz_lua -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
	  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $(BUILD)/fuzz/corpus-lua tests/lua
	ASAN_OPTIONS=detect_leaks=1 $(BUILD)/fuzz/fuzz_resume -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
	  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $(BUILD)/fuzz/corpus-resume tests/fuzz/corpus-resume
	ASAN_OPTIONS=detect_leaks=1 $(BUILD)/fuzz/fuzz_export -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
	  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $(BUILD)/fuzz/corpus-export tests/fuzz/corpus-export

# --- running ----------------------------------------------------------------
run: deps all
	./bin/runner experiments/matmul.yaml

plots: $(OUTBIN)
	./bin/runner plot results/

# every study of experiments/ at its default sizes (GPU trials skip without one)
studies: deps all
	@start=$$(date +%s); ./bin/runner experiments/*.yaml; rc=$$?; \
	  echo "studies: $$(( $$(date +%s) - start )) s"; exit $$rc

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/runner $(DESTDIR)$(PREFIX)/share/runner
	install -m 755 bin/runner $(DESTDIR)$(PREFIX)/bin/runner
	if [ -f lib/runner-cuda.so ]; then install -m 644 lib/runner-cuda.so $(DESTDIR)$(PREFIX)/lib/runner/; fi
	cp -r plots lua python $(DESTDIR)$(PREFIX)/share/runner/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 runner.1 $(DESTDIR)$(PREFIX)/share/man/man1/runner.1
	install -d $(DESTDIR)$(PREFIX)/share/doc/runner
	install -m 644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/runner/LICENSE
	install -m 644 completion/runner.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/runner
	@# the plugin interface and pkg-config's description of it (doc/own-code-plugins.md)
	install -d $(DESTDIR)$(PREFIX)/include/runner $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/runner/workload.h $(DESTDIR)$(PREFIX)/include/runner/workload.h
	$(call runner_pc,$(PREFIX),) >$(DESTDIR)$(PREFIX)/lib/pkgconfig/runner.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/runner.pc

clean:
	rm -rf build build-san bin lib

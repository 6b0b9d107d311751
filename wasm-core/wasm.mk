# wasm-core/wasm.mk - the core as a WebAssembly ES module for the web page.
#
#   make -C wasm-core -f wasm.mk          ../web/src/wasm/generated/pagelab.{mjs,wasm}
#   make -C wasm-core -f wasm.mk bench    build/wasm/bench.js: bench/bench.c on the
#                                         same objects, for Node (bench/wasm-vs-native.mjs)
#
# The same sources as the native library (Makefile: every src/*.c -- the
# CLI is in src/cli/ -- every src/policies/*.c inside its unit with the
# step loops built for it, registry.c, all from tools/registry.sh) plus the
# flat ABI src/wasm/abi.c, compiled by Debian's
# emscripten (scripts/setup.sh wasm).  The module is an ES module factory for browsers
# and workers; Node (the tests) passes the .wasm bytes in as wasmBinary.
# Emscripten's optimiser runs under Node and needs Debian's node modules.
#
# Release flags: -O3 (the core's step loop is what the page runs per
# reference), -msimd128 (SIMD is in every browser the page supports and
# in Node; the compiler uses it where loops allow), NDEBUG and no runtime
# ASSERTIONS.  The core's own checks (policy.h, sim.c) are not assertions:
# they stay, as natively.

EMCC ?= emcc
export NODE_PATH := /usr/share/nodejs
BUILD := build/wasm
OUT := ../web/src/wasm/generated

CPPFLAGS := -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT := -O3 -msimd128
CFLAGS := -std=c11 $(OPT) -DNDEBUG $(WARNINGS)
LDFLAGS := $(OPT) -sASSERTIONS=0 -sMODULARIZE -sEXPORT_ES6 -sENVIRONMENT=web,worker \
	-sALLOW_MEMORY_GROWTH -sMAXIMUM_MEMORY=2GB \
	-sEXPORTED_FUNCTIONS=_malloc,_free \
	-sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
BENCH_LDFLAGS := $(OPT) -sASSERTIONS=0 -sENVIRONMENT=node -sSINGLE_FILE -sALLOW_MEMORY_GROWTH \
	-sMAXIMUM_MEMORY=4GB

POLICY_SRCS := $(wildcard src/policies/*.c)
SRCS := $(wildcard src/*.c) src/wasm/abi.c
OBJS := $(SRCS:%.c=$(BUILD)/obj/%.o) $(POLICY_SRCS:src/policies/%.c=$(BUILD)/obj/units/%.o) \
	$(POLICY_SRCS:src/policies/%.c=$(BUILD)/obj/units/recorded/%.o) $(BUILD)/obj/registry.o

# The policy units: the step loop (sim_loop.h) is `flatten` so that the
# policy's hit(), insert(), victim() and evict() are inlined into it, as
# gcc does natively.  clang's flatten inlines only the calls that are direct
# in the source, and ops->hit() becomes a direct call only once the table
# has been read as a constant; its cost model then kept them as calls in the
# loop's variants (fifo, lru, random: evict(); clock: evict(), insert();
# lfu, srrip, lirs, wtinylfu: every hit a call).  At threshold 2000 all of
# them are inlined but lirs's hit() and insert() and wtinylfu's (4000 takes
# lirs's too, for twice the page's .wasm; wtinylfu's evict() costs 17350).
UNIT_INLINE := -mllvm -inline-threshold=2000
$(BUILD)/obj/units/%.o: CFLAGS += $(UNIT_INLINE)

# abi.c's functions have no C callers, so no header declares them.
$(BUILD)/obj/src/wasm/abi.o: CFLAGS += -Wno-missing-prototypes

.PHONY: all bench FORCE
all: $(OUT)/pagelab.mjs
bench: $(BUILD)/bench.js

# The flags every object and link is built with, in a file rewritten only
# when they change: objects depend on it, so changing a flag here rebuilds
# them (make alone only compares the sources' times).
FLAGS_STAMP := $(BUILD)/flags
ALL_FLAGS := $(EMCC) $(CPPFLAGS) $(CFLAGS) $(UNIT_INLINE) $(LDFLAGS) $(BENCH_LDFLAGS)
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(ALL_FLAGS)' | cmp -s - $@ || echo '$(ALL_FLAGS)' >$@

# Regenerated on every make; the file only changes when the set of policies does.
$(BUILD)/registry.c: FORCE
	@mkdir -p $(@D)
	@sh tools/registry.sh $@ $(POLICY_SRCS)

$(BUILD)/units/%.c: src/policies/%.c tools/registry.sh
	@mkdir -p $(@D)
	@sh tools/registry.sh --unit $@ $<
$(BUILD)/units/recorded/%.c: src/policies/%.c tools/registry.sh
	@mkdir -p $(@D)
	@sh tools/registry.sh --recorded-unit $@ $<

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(EMCC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/units/%.o: $(BUILD)/units/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(EMCC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/registry.o: $(BUILD)/registry.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(EMCC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# pagelab.wasm is written next to pagelab.mjs by the same link.
$(OUT)/pagelab.mjs: $(OBJS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(EMCC) $(LDFLAGS) $(OBJS) -o $@

# The benchmark: the library's objects exactly as the page gets them (not
# the ABI), linked with bench.c into a Node program.  SINGLE_FILE embeds
# the .wasm: this emscripten would otherwise fetch() it, which Node cannot
# do with a file path.
BENCH_OBJS := $(filter-out $(BUILD)/obj/src/wasm/abi.o,$(OBJS)) $(BUILD)/obj/bench/bench.o
$(BUILD)/bench.js: $(BENCH_OBJS) $(FLAGS_STAMP)
	$(EMCC) $(BENCH_LDFLAGS) $(BENCH_OBJS) -o $@

.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

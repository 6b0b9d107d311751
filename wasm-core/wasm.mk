# wasm-core/wasm.mk - the core as a WebAssembly ES module for the web page.
#
#   make -C wasm-core -f wasm.mk     ../web/src/wasm/generated/pagelab.{mjs,wasm}
#
# The same sources as the native library (Makefile: every src/*.c -- the
# CLI is in src/cli/ -- every src/policies/*.c, registry.c from
# tools/registry.sh) plus the flat ABI src/wasm/abi.c, compiled by Debian's
# emscripten (scripts/setup.sh wasm).  The module is an ES module factory for browsers
# and workers; Node (the tests) passes the .wasm bytes in as wasmBinary.
# Emscripten's optimiser runs under Node and needs Debian's node modules.

EMCC ?= emcc
export NODE_PATH := /usr/share/nodejs
BUILD := build/wasm
OUT := ../web/src/wasm/generated

CPPFLAGS := -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS := -std=c11 -O2 $(WARNINGS)
LDFLAGS := -O2 -sMODULARIZE -sEXPORT_ES6 -sENVIRONMENT=web,worker \
	-sALLOW_MEMORY_GROWTH -sMAXIMUM_MEMORY=2GB \
	-sEXPORTED_FUNCTIONS=_malloc,_free \
	-sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8

POLICY_SRCS := $(wildcard src/policies/*.c)
SRCS := $(wildcard src/*.c) $(POLICY_SRCS) src/wasm/abi.c
OBJS := $(SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/registry.o

# abi.c's functions have no C callers, so no header declares them.
$(BUILD)/obj/src/wasm/abi.o: CFLAGS += -Wno-missing-prototypes

.PHONY: all FORCE
all: $(OUT)/pagelab.mjs

# Regenerated on every make; the file only changes when the set of policies does.
$(BUILD)/registry.c: FORCE
	@mkdir -p $(@D)
	@sh tools/registry.sh $@ $(POLICY_SRCS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(EMCC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/registry.o: $(BUILD)/registry.c
	@mkdir -p $(@D)
	$(EMCC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# pagelab.wasm is written next to pagelab.mjs by the same link.
$(OUT)/pagelab.mjs: $(OBJS)
	@mkdir -p $(@D)
	$(EMCC) $(LDFLAGS) $^ -o $@

.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

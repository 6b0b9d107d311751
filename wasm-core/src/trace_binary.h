/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_binary.h - pagelab's binary trace format, shared by the reader
 * (trace_read.c) and the writer (trace_write.c).
 *
 * Layout (all integers little-endian):
 *
 *   header  16 bytes   "PLTRACE" 0x00, version (1), columns (bit 0: pid,
 *                      bit 1: time), 6 zero bytes
 *   block   8 bytes    refs (u32, 1 .. BINARY_BLOCK_REFS), bytes (u32,
 *                      at most BINARY_BLOCK_BYTES), then `bytes` bytes
 *                      holding exactly `refs` references
 *   ...
 *   end     16 bytes   refs 0, bytes 8, then the total number of
 *                      references (u64); nothing may follow
 *
 * A reference is one to three LEB128 varints (7 bits a byte, low first,
 * high bit = more): first zigzag(page - previous page) * 2 + write, a
 * 65-bit value (at most 10 bytes; the previous page starts at 0 and the
 * difference wraps modulo 2^64), then the pid if the file has pids, then
 * time - previous time if it has times (time never decreases).  A page
 * near the previous one costs a byte or two: a 10M-reference zipf trace
 * over 1M scattered pages takes ~3.2 bytes a reference, a program's
 * page-level trace ~1.5.
 *
 * A file that ends anywhere but right after the end block, a block whose
 * bytes do not decode to exactly its references, or an end block whose
 * total disagrees is an error naming the byte offset: a truncated or
 * damaged file never reads as a shorter trace.
 */
#ifndef PAGELAB_TRACE_BINARY_H
#define PAGELAB_TRACE_BINARY_H

#include <stdint.h>

#define BINARY_MAGIC "PLTRACE"	/* and its terminating 0: 8 bytes */
#define BINARY_VERSION 1
#define BINARY_HEADER_BYTES 16
#define BINARY_BLOCK_HEADER_BYTES 8
#define BINARY_BLOCK_REFS 16384
#define BINARY_BLOCK_BYTES (BINARY_BLOCK_REFS * 30)
#define BINARY_HAS_PID 1
#define BINARY_HAS_TIME 2

static inline uint64_t zigzag(uint64_t delta)
{
	return delta << 1 ^ (uint64_t)-(int64_t)(delta >> 63);
}

static inline uint64_t unzigzag(uint64_t z)
{
	return z >> 1 ^ (uint64_t)-(int64_t)(z & 1);
}

static inline void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t get_u64(const unsigned char *p)
{
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

#endif /* PAGELAB_TRACE_BINARY_H */

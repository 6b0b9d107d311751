/* SPDX-License-Identifier: GPL-2.0 */
/*
 * splitmix64.h - the SplitMix64 generator (Steele, Lea and Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014; the constants of
 * Vigna's public-domain splitmix64.c).
 *
 * pagelab's own generator, so that a seeded run gives the same numbers on
 * every platform, natively and in WebAssembly: only 64-bit unsigned
 * arithmetic, no libc rand().  The state is a plain uint64_t; the sequence
 * for a seed s is splitmix64_next() called repeatedly on a state set to s.
 *
 * splitmix64_peek() returns the number splitmix64_next() would return,
 * without advancing: policies need it because victim() must not change
 * anything.
 *
 * splitmix64_below(x, n) maps a 64-bit number to 0 .. n-1 by the
 * multiply-shift method on its high 32 bits (Lemire), which avoids the
 * division of x % n; its bias is below n / 2^32.
 */
#ifndef PAGELAB_SPLITMIX64_H
#define PAGELAB_SPLITMIX64_H

#include <stdint.h>

#define SPLITMIX64_GAMMA 0x9e3779b97f4a7c15ull

static inline uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t splitmix64_peek(uint64_t state)
{
	return splitmix64_mix(state + SPLITMIX64_GAMMA);
}

static inline uint64_t splitmix64_next(uint64_t *state)
{
	*state += SPLITMIX64_GAMMA;
	return splitmix64_mix(*state);
}

static inline uint32_t splitmix64_below(uint64_t x, uint32_t n)
{
	return (uint32_t)(((x >> 32) * (uint64_t)n) >> 32);
}

#endif /* PAGELAB_SPLITMIX64_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * pltest: signed result lines for the pagelab autograder (interface in pltest.h).
 *
 * SHA-256 follows FIPS 180-4 and HMAC follows RFC 2104; both are small on purpose so the
 * guest programs stay static and dependency-free.  The grader checks this implementation
 * against Python's hashlib/hmac with known answers (autograder/tests).
 *
 * Invariant: every line is produced by one write() so that lines from concurrent
 * processes never interleave; a process that forks gets a fresh stream in the child
 * (detected by comparing getpid() with the pid that opened the stream).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pltest.h"

#define PL_KEY_MAX 64
#define PL_LINE_MAX (PL_MESSAGE_MAX + 256)

struct sha256 {
	uint32_t state[8];
	uint64_t length;	/* bytes hashed so far */
	uint8_t block[64];
	size_t used;		/* bytes waiting in block */
};

static const uint32_t sha256_round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t rotate_right(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_init(struct sha256 *h)
{
	static const uint32_t initial[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(h->state, initial, sizeof(initial));
	h->length = 0;
	h->used = 0;
}

static void sha256_compress(struct sha256 *h, const uint8_t *block)
{
	uint32_t w[64], v[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
		       (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		       (rotate_right(w[i - 15], 7) ^ rotate_right(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       (rotate_right(w[i - 2], 17) ^ rotate_right(w[i - 2], 19) ^ (w[i - 2] >> 10));
	memcpy(v, h->state, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (rotate_right(v[4], 6) ^ rotate_right(v[4], 11) ^ rotate_right(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha256_round_constants[i] + w[i];
		t2 = (rotate_right(v[0], 2) ^ rotate_right(v[0], 13) ^ rotate_right(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h->state[i] += v[i];
}

static void sha256_update(struct sha256 *h, const uint8_t *data, size_t len)
{
	while (len > 0) {
		size_t take = 64 - h->used < len ? 64 - h->used : len;

		memcpy(h->block + h->used, data, take);
		h->used += take;
		h->length += take;
		data += take;
		len -= take;
		if (h->used == 64) {
			sha256_compress(h, h->block);
			h->used = 0;
		}
	}
}

static void sha256_final(struct sha256 *h, uint8_t digest[32])
{
	uint64_t bits = h->length * 8;
	uint8_t pad = 0x80, zero = 0, length[8];
	int i;

	sha256_update(h, &pad, 1);
	while (h->used != 56)
		sha256_update(h, &zero, 1);
	for (i = 0; i < 8; i++)
		length[i] = bits >> (56 - 8 * i);
	sha256_update(h, length, 8);
	for (i = 0; i < 32; i++)
		digest[i] = h->state[i / 4] >> (24 - 8 * (i % 4));
}

void pl_hmac_sha256(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t msg_len,
		    uint8_t mac[32])
{
	uint8_t block_key[64] = { 0 }, pad[64], inner[32];
	struct sha256 h;
	int i;

	if (key_len > 64) {	/* RFC 2104: long keys are hashed first */
		sha256_init(&h);
		sha256_update(&h, key, key_len);
		sha256_final(&h, block_key);
	} else {
		memcpy(block_key, key, key_len);
	}
	for (i = 0; i < 64; i++)
		pad[i] = block_key[i] ^ 0x36;
	sha256_init(&h);
	sha256_update(&h, pad, 64);
	sha256_update(&h, msg, msg_len);
	sha256_final(&h, inner);
	for (i = 0; i < 64; i++)
		pad[i] = block_key[i] ^ 0x5c;
	sha256_init(&h);
	sha256_update(&h, pad, 64);
	sha256_update(&h, inner, 32);
	sha256_final(&h, mac);
}

struct pl_stream {
	pid_t owner;		/* the process this stream belongs to */
	char id[17];		/* random hex, unique per process */
	unsigned long seq;	/* last sequence number used */
	uint8_t key[PL_KEY_MAX];
	size_t key_len;		/* 0: no key, lines go out unsigned */
	int fd;			/* results port */
};

static struct pl_stream stream;

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static size_t parse_hex_key(const char *hex, uint8_t *key)
{
	size_t n = 0;

	while (n < PL_KEY_MAX && hex_digit(hex[0]) >= 0 && hex_digit(hex[1]) >= 0) {
		key[n++] = hex_digit(hex[0]) << 4 | hex_digit(hex[1]);
		hex += 2;
	}
	return hex[0] == '\0' ? n : 0;
}

static void stream_open(void)
{
	const char *key = getenv("PL_KEY"), *out = getenv("PL_OUT");
	uint8_t random_bytes[8];
	int fd, i;

	if (stream.owner && stream.fd >= 0)
		close(stream.fd);
	stream.owner = getpid();
	stream.seq = 0;
	stream.key_len = key ? parse_hex_key(key, stream.key) : 0;
	fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, random_bytes, sizeof(random_bytes)) != sizeof(random_bytes))
		memcpy(random_bytes, &stream.owner, sizeof(stream.owner));
	if (fd >= 0)
		close(fd);
	for (i = 0; i < 8; i++)
		snprintf(stream.id + 2 * i, 3, "%02x", random_bytes[i]);
	stream.fd = out ? open(out, O_WRONLY | O_APPEND | O_NOCTTY) : -1;
	if (stream.fd < 0)
		stream.fd = dup(STDOUT_FILENO);
}

/* Copies SRC into DST (size CAP) keeping only characters the line format allows. */
static void clean_word(char *dst, size_t cap, const char *src)
{
	size_t n = 0;

	for (; *src && n + 1 < cap; src++, n++) {
		char c = *src;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		dst[n] = ok ? c : '_';
	}
	dst[n] = '\0';
	if (n == 0)
		snprintf(dst, cap, "_");
}

static void clean_message(char *message)
{
	for (; *message; message++)
		if ((unsigned char)*message < ' ' || *message == 0x7f)
			*message = ' ';
}

/* Signs BODY (one line without newline) and writes it out as one write(). */
static void emit(const char *body)
{
	char line[PL_LINE_MAX + 80];
	uint8_t mac[32];
	size_t len;
	int i;

	len = snprintf(line, sizeof(line), "%s ", body);
	if (stream.key_len == 0) {
		len += snprintf(line + len, sizeof(line) - len, "unsigned");
	} else {
		pl_hmac_sha256(stream.key, stream.key_len, (const uint8_t *)body, strlen(body), mac);
		for (i = 0; i < 32; i++)
			len += snprintf(line + len, sizeof(line) - len, "%02x", mac[i]);
	}
	line[len++] = '\n';
	if (write(stream.fd, line, len) != (ssize_t)len)
		perror("pltest: writing a result line");
}

static void emit_record(const char *kind, const char *id, const char *field, const char *text)
{
	char body[PL_LINE_MAX], clean_id[64], clean_field[64];

	if (stream.owner != getpid())
		stream_open();
	clean_word(clean_id, sizeof(clean_id), id);
	clean_word(clean_field, sizeof(clean_field), field);
	snprintf(body, sizeof(body), "PL1 %s %lu %s %s %s %s", stream.id, ++stream.seq, kind,
		 clean_id, clean_field, text);
	emit(body);
}

void pl_result(const char *id, int passed, const char *fmt, ...)
{
	char message[PL_MESSAGE_MAX + 1];
	va_list args;

	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	clean_message(message);
	printf("[%s] %s: %s\n", passed ? "pass" : "FAIL", id, message);
	fflush(stdout);
	emit_record("R", id, passed ? "1" : "0", message);
}

void pl_value(const char *id, const char *key, long long value)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", value);
	printf("[value] %s %s = %lld\n", id, key, value);
	fflush(stdout);
	emit_record("V", id, key, text);
}

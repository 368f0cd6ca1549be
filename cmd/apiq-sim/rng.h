/* timed mode's deterministic PRNG: xoshiro256**, seeded by splitmix64, so
 * that a seed gives the same run on every machine. The project's only one
 * (the engine takes upstream's random choices as given: --offset). */
#ifndef APIQ_RNG_H
#define APIQ_RNG_H

#include <stdint.h>

typedef struct apiq_rng { uint64_t s[4]; } apiq_rng;

static inline uint64_t apiq_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void apiq_rng_seed(apiq_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = apiq_splitmix(&seed);
}

static inline uint64_t apiq_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t apiq_rng_next(apiq_rng *r)
{
	uint64_t *s = r->s, out = apiq_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = apiq_rotl(s[3], 45);
	return out;
}

/* Uniform in (0, 1). */
static inline double apiq_rng_unit(apiq_rng *r)
{
	return ((double)(apiq_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

#endif

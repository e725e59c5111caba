/**
 * A small, fast, seeded generator for resampling: xoshiro128** (Blackman & Vigna, 2018) seeded through
 * SplitMix32. It is all 32-bit integer arithmetic, which V8 runs without allocating, unlike a PCG or
 * MT19937 step that needs 64-bit multiplies or a 624-word state refresh. It is not CPython's generator:
 * code that must reproduce lm-eval's draws uses `PythonRandom` instead.
 */
export class FastRandom {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;

  constructor(seed = 0) {
    // SplitMix32 spreads any 32-bit seed (0 included) over a state that is never all zero.
    let x = seed >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) | 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
  }

  /** One uniformly distributed 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) * (1 / 9007199254740992);
  }

  /**
   * Adds one to `counts[groupOf[i]]` for each of `draws` uniform indices i in [0, n): one bootstrap
   * resample, counted. The generator state lives in locals for the whole loop, which keeps V8 from boxing
   * the 32-bit outputs and makes this several times faster than calling `nextBelow` per draw. Indices use
   * Lemire's multiply-shift with rejection (exact while n·2³² < 2⁵³, i.e. n ≤ 2²¹).
   */
  countUniformDraws(n: number, draws: number, groupOf: Uint32Array, counts: Uint32Array): void {
    if (n > 2097152) {
      for (let d = 0; d < draws; d++) counts[groupOf[Math.floor(this.nextDouble() * n)]]++;
      return;
    }
    const threshold = 4294967296 % n;
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    for (let d = 0; d < draws; ) {
      const x = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const product = x * n;
      const high = Math.floor(product * 2.3283064365386963e-10);
      if (product - high * 4294967296 < threshold) continue;
      counts[groupOf[high]]++;
      d++;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  /**
   * An integer in [0, n). Below 2²¹ it is Lemire's multiply-shift with rejection, exact because the
   * product stays under 2⁵³, so every value is equally likely; above that a 53-bit double is scaled, whose
   * bias (n / 2⁵³) is far below anything a resampling estimate can see.
   */
  nextBelow(n: number): number {
    if (n > 2097152) return Math.floor(this.nextDouble() * n);
    const threshold = 4294967296 % n;
    for (;;) {
      const product = this.nextUint32() * n;
      const low = product % 4294967296;
      if (low >= threshold) return (product - low) / 4294967296;
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
